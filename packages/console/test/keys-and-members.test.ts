/**
 * Signing in, API keys and members in a real browser against `npm start`: a key shown once and
 * revoked after a confirmation, validation before sending, a member's restricted view, and the
 * CSRF refusal of a page on another origin.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { expectAccessible } from "@parley/browser-testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Parley, startParley, visible } from "./support/parley.ts"

let parley: Parley

beforeAll(async () => {
  parley = await startParley()
})
afterAll(async () => {
  await parley?.close()
})

describe("the console's sign-in, keys and members", () => {
  it("refuses a wrong password with the API's own words, then signs in and shows the organization and role", async () => {
    const { page, watch } = await parley.newPage()
    await page.goto(`${parley.origin}/`)
    expect(new URL(page.url()).pathname).toBe("/console/")
    await page.getByLabel("Email").fill(parley.demo.adminEmail)
    await page.getByLabel("Password").fill("not the password")
    await page.getByRole("button", { name: "Sign in" }).click()
    await visible(page.getByRole("alert").getByText("Invalid email or password"))
    // What was typed is still there after the refusal.
    expect(await page.getByLabel("Email").inputValue()).toBe(parley.demo.adminEmail)

    await page.getByLabel("Password").fill(parley.demo.adminPassword)
    await page.getByRole("button", { name: "Sign in" }).click()
    const banner = page.getByRole("banner")
    await visible(banner.getByText("Demo", { exact: true }))
    await visible(banner.getByText("Administrator"))
    await visible(page.getByRole("heading", { name: "Overview", level: 1 }))

    // A reload keeps the session (the cookie), and a deep link lands on its screen.
    await page.goto(`${parley.origin}/console/members`)
    await visible(page.getByRole("heading", { name: "Members", level: 1 }))
    await page.getByRole("button", { name: "Sign out" }).click()
    await visible(page.getByText("You are signed out."))
    await page.reload()
    await visible(page.getByRole("heading", { name: "Sign in to the console" }))
    await watch.expectClean()
  })

  it("checks a key's origins before sending, creates it, shows it once with a copy button, and revokes it after a confirmation", async () => {
    const { context, page, watch } = await parley.newPage()
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: parley.origin })
    await parley.signIn(page, parley.demo.adminEmail, parley.demo.adminPassword)
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "API keys" }).click()
    await visible(page.getByRole("heading", { name: "API keys", level: 1 }))

    const apiCalls: Array<string> = []
    page.on("request", (request) => {
      if (request.url().includes("/api/org/api-keys") && request.method() === "POST") apiCalls.push(request.url())
    })
    await page.getByLabel("Name", { exact: false }).fill("Website chat")
    await page.getByLabel("Allowed origins").fill("http://www.example.com")
    await page.getByRole("button", { name: "Create key" }).click()
    await visible(page.getByText("http://www.example.com is not an https://host[:port] origin"))
    expect(apiCalls).toEqual([])
    // The focus is on the field to fix, and the widget/server difference is spelled out.
    expect(await page.getByLabel("Allowed origins").evaluate((el) => el === document.activeElement)).toBe(true)
    await visible(page.getByText("A widget key: it works only on the website widget"))

    await page.getByLabel("Allowed origins").fill("https://www.example.com")
    await page.getByRole("button", { name: "Create key" }).click()
    const shownOnce = page.getByRole("region", { name: "Your new key “Website chat”" })
    await visible(shownOnce.getByText("This is the only time it is shown."))
    const key = await shownOnce.getByLabel("API key").inputValue()
    expect(key).toMatch(/^parley_[0-9A-Za-z]{12}\.[0-9A-Za-z]{49}$/)
    await shownOnce.getByRole("button", { name: "Copy API key" }).click()
    await visible(shownOnce.getByText("Copied to the clipboard."))
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)
    await expectAccessible(page, { screen: "API keys with a new key shown once" })

    // The key works (a widget key on the public surface), and the list shows its prefix, never the key.
    const chat = await parley.api("POST", "/api/public/chat", { message: "hello" }, key)
    expect(chat.status).toBe(200)
    await shownOnce.getByRole("button", { name: "I have copied it" }).click()
    const prefix = key.slice("parley_".length, "parley_".length + 12)
    const row = page.getByRole("row").filter({ hasText: "Website chat" })
    await visible(row.getByRole("cell", { name: prefix }))
    await page.reload()
    await visible(row.getByRole("cell", { name: prefix }))
    expect(await page.content()).not.toContain(key)

    // Revoking asks first; cancelling does nothing.
    await row.getByRole("button", { name: "Revoke Website chat" }).click()
    const dialog = page.getByRole("dialog", { name: "Revoke “Website chat”?" })
    await visible(dialog)
    await dialog.getByRole("button", { name: "Cancel" }).click()
    expect(await dialog.isVisible()).toBe(false)
    await row.getByRole("button", { name: "Revoke Website chat" }).click()
    await dialog.getByRole("button", { name: "Revoke key" }).click()
    await visible(page.getByRole("status").getByText("The key “Website chat” is revoked."))
    await visible(row.getByText(/^revoked /))
    const refused = await parley.api("POST", "/api/public/chat", { message: "hello" }, key)
    expect(refused.status).toBe(401)
    await watch.expectClean()
  })

  it("adds a member, who sees only what a member may read and is told so on an administrator's screen", async () => {
    const admin = await parley.newPage()
    await parley.signIn(admin.page, parley.demo.adminEmail, parley.demo.adminPassword)
    await admin.page.goto(`${parley.origin}/console/members`)
    const email = `dana.${Date.now()}@example.com`
    const add = admin.page.getByRole("region", { name: "Add a member" })
    await add.getByLabel("Email").fill(email)
    await add.getByLabel("Password").fill("short")
    await add.getByRole("button", { name: "Add member" }).click()
    await visible(add.getByText("At least 10 characters.", { exact: true }))
    await add.getByLabel("Password").fill("correct horse battery")
    await add.getByRole("button", { name: "Add member" }).click()
    await visible(admin.page.getByText(`${email} can now sign in.`))
    await visible(
      admin.page.getByRole("row").filter({ hasText: email }).getByRole("cell", { name: "Member", exact: true }),
    )
    await admin.watch.expectClean()

    const member = await parley.newPage({ viewport: "phone" })
    await parley.signIn(member.page, email, "correct horse battery")
    const nav = member.page.getByRole("navigation", { name: "Console" })
    await visible(member.page.getByRole("banner").getByText("Member", { exact: true }))
    await visible(nav.getByRole("link", { name: "Webhooks" }))
    expect(await nav.getByRole("link").allTextContents()).toEqual(["Overview", "Webhooks", "Members"])

    await nav.getByRole("link", { name: "Webhooks" }).click()
    await visible(member.page.getByText("No webhooks yet."))
    await visible(member.page.getByText("An administrator can add one."))
    expect(await member.page.getByRole("button", { name: "Create webhook" }).count()).toBe(0)
    await nav.getByRole("link", { name: "Members" }).click()
    await visible(member.page.getByRole("row").filter({ hasText: parley.demo.adminEmail }))
    expect(await member.page.getByRole("button", { name: /^Remove/ }).count()).toBe(0)
    expect(await member.page.getByRole("button", { name: "Add member" }).count()).toBe(0)

    await member.page.goto(`${parley.origin}/console/settings/api-keys`)
    await visible(member.page.getByText("Only an administrator of your organization can see this."))
    await expectAccessible(member.page, { screen: "a member on an administrator's screen (phone)" })
    await member.watch.expectClean()
  })

  it("refuses a form posted with the session from a page on another origin of the same site (CSRF, §2.4)", async () => {
    // The attacker's page: same site (localhost), another port, so the Lax cookie is sent and the
    // Origin check alone stands in the way.
    const evil: Server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(`<!doctype html><html lang="en"><title>Win a prize</title>
        <form method="post" action="${parley.origin}/api/org/api-keys" enctype="text/plain">
          <input name='{"name":"stolen","x":"' value='"}'><button>Claim</button></form></html>`)
    })
    await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve))
    const evilOrigin = `http://localhost:${(evil.address() as AddressInfo).port}`
    try {
      const { page } = await parley.newPage()
      await parley.signIn(page, parley.demo.adminEmail, parley.demo.adminPassword)
      await page.goto(`${evilOrigin}/`)
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url() === `${parley.origin}/api/org/api-keys`),
        page.getByRole("button", { name: "Claim" }).click(),
      ])
      expect(answer.status()).toBe(403)
      expect(await answer.json()).toEqual({ error: "Cross-site request refused", code: "origin_not_allowed" })
      expect((await answer.request().allHeaders()).cookie).toMatch(/parley_session=/)
      const keys = await parley.api("GET", "/api/org/api-keys")
      expect((keys.body as { data: Array<{ name: string }> }).data.map((k) => k.name)).not.toContain("stolen")
    } finally {
      await new Promise((resolve) => evil.close(resolve))
    }
  })
})
