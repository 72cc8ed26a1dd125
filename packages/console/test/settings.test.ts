/**
 * Settings in a real browser against `npm start` (one Parley for the file): signing in, API keys
 * (shown once, validated before sending, revoked after a confirmation), members and a member's
 * restricted view, the CSRF refusal of a page on another origin; then webhooks — created with the
 * secret shown once, real events delivered to a receiver on loopback and seen in the delivery log
 * (filtered, redelivered, replayed), disabled, rotated, edited and deleted.
 */
import { createHmac } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { expectAccessible, saveScreenshot } from "@parley/browser-testing"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ConsolePage, type Parley, startParley, visible } from "./support/parley.ts"

let parley: Parley
let receiver: StubServer
let admin: ConsolePage

beforeAll(async () => {
  receiver = await startHttpServer(() => ({ status: 204 }))
  parley = await startParley()
  admin = await parley.newPage()
  await parley.signIn(admin.page, parley.demo.adminEmail, parley.demo.adminPassword)
})
afterAll(async () => {
  await parley?.close()
  await receiver?.close()
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
    // A newcomer without a provider account is told where to try everything.
    await visible(page.getByText(/or the sandbox, to try it all without a provider account/))

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
    // A key is kept as a digest (§2.3): Parley can recognise it, not show it.
    await visible(shownOnce.getByText("Parley keeps only a digest of it", { exact: false }))
    // The panel appears above the form: it takes the focus and comes into view, or a person below
    // thinks nothing happened.
    const shownHeading = shownOnce.getByRole("heading", { name: "Your new key “Website chat”" })
    expect(await shownHeading.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await shownHeading.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0)
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
    await visible(row.getByRole("rowheader").getByText(prefix, { exact: true }))
    await page.reload()
    await visible(row.getByRole("rowheader").getByText(prefix, { exact: true }))
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
    await visible(row.getByText("revoked", { exact: true }))
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
    expect(await nav.getByRole("link").allTextContents()).toEqual([
      "Overview",
      "Inbox",
      "Assistant",
      "Webhooks",
      "Members",
    ])

    await nav.getByRole("link", { name: "Webhooks" }).click()
    await visible(member.page.getByText("No webhooks yet."))
    await visible(member.page.getByText("An administrator can add one."))
    expect(await member.page.getByRole("button", { name: "Create webhook" }).count()).toBe(0)
    await nav.getByRole("link", { name: "Members" }).click()
    await visible(member.page.getByRole("row").filter({ hasText: parley.demo.adminEmail }))
    expect(await member.page.getByRole("button", { name: /^Remove/ }).count()).toBe(0)
    expect(await member.page.getByRole("button", { name: "Add member" }).count()).toBe(0)

    // The assistant's profile is readable, not editable, and nothing else of that screen shows.
    await nav.getByRole("link", { name: "Assistant" }).click()
    await visible(member.page.getByText("Only an administrator can change the profile."))
    expect(await member.page.getByLabel("Business name").isDisabled()).toBe(true)
    expect(await member.page.getByRole("button", { name: "Save profile" }).count()).toBe(0)
    expect(await member.page.getByRole("region", { name: "Booking settings" }).count()).toBe(0)

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
      expect(await answer.json()).toEqual({ error: "Origin not allowed for this API key", code: "origin_not_allowed" })
      expect((await answer.request().allHeaders()).cookie).toMatch(/parley_session=/)
      const keys = await parley.api("GET", "/api/org/api-keys")
      expect((keys.body as { data: Array<{ name: string }> }).data.map((k) => k.name)).not.toContain("stolen")
    } finally {
      await new Promise((resolve) => evil.close(resolve))
    }
  })
})

/** A visitor leaving a phone number on the widget surface: the assistant records a lead (`lead.created`). */
const visitorLeavesNumber = async (phone: string) => {
  const answer = await parley.api("POST", "/api/public/chat", { message: `I'm Dana, please call me back at ${phone}` })
  expect(answer.status).toBe(200)
}

/** The delivery log, read again until `row` shows (the log reloads on Refresh). */
const untilLogShows = async (page: Page, text: RegExp, count = 1) =>
  eventually(
    async () => {
      await page.getByRole("button", { name: "Refresh" }).click()
      const rows = page.getByRole("region", { name: "Delivery attempts" }).getByRole("row").filter({ hasText: text })
      await visible(rows.nth(count - 1), 1_000)
      return rows
    },
    { timeoutMs: 20_000, intervalMs: 250 },
  )

describe("the console's webhooks", () => {
  it("validates, creates a webhook and shows its secret once", async () => {
    const { page } = admin
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Webhooks" }).click()
    await visible(page.getByText("No webhooks yet."))
    const form = page.getByRole("region", { name: "Add a webhook" })
    await form.getByLabel("URL").fill("example.com/hook")
    await form.getByRole("button", { name: "Create webhook" }).click()
    await visible(form.getByText("Enter an absolute URL"))
    await form.getByLabel("URL").fill(`${receiver.url}/parley`)
    // Every event is chosen until the person says otherwise; choosing none is refused before sending.
    for (const box of await form.getByRole("group", { name: "Events" }).getByRole("checkbox").all()) await box.uncheck()
    await form.getByRole("button", { name: "Create webhook" }).click()
    await visible(form.getByText("Choose at least one event."))
    await form.getByRole("checkbox", { name: "lead.created" }).check()
    await form.getByRole("checkbox", { name: "lead.updated" }).check()
    await form.getByRole("button", { name: "Create webhook" }).click()

    const shown = page.getByRole("region", { name: `Webhook created for ${receiver.url}/parley` })
    await visible(shown.getByText("This is the only time it is shown."))
    // A webhook secret is kept encrypted, since Parley signs with it (§5) — not "only what it needs to check it".
    await visible(shown.getByText("Parley keeps it encrypted, to sign with it", { exact: false }))
    expect(await shown.getByText("digest", { exact: false }).count()).toBe(0)
    expect(
      await shown
        .getByRole("heading", { name: `Webhook created for ${receiver.url}/parley` })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true)
    const secret = await shown.getByLabel("Secret (X-Service-Signature)").inputValue()
    expect(Buffer.from(secret, "base64")).toHaveLength(32)
    // The same key in the form Standard Webhooks libraries take.
    expect(await shown.getByLabel("Signing secret (Standard Webhooks)").inputValue()).toBe(`whsec_${secret}`)
    await shown.getByRole("button", { name: "I have copied it" }).click()
    const row = page.getByRole("row").filter({ hasText: `${receiver.url}/parley` })
    await visible(row.getByText("enabled"))
    await visible(row.getByText("no delivery yet"))
    await admin.watch.expectClean()
  })

  it("shows real deliveries in the log, filters them, redelivers one and replays a window", async () => {
    const { page } = admin
    await page.getByRole("link", { name: `${receiver.url}/parley` }).click()
    await visible(page.getByRole("heading", { name: `Webhook ${receiver.url}/parley`, level: 1 }))
    await visible(page.getByText("No deliveries yet."))

    // A test event of one it does not subscribe to, with its sample, waited for by the log itself.
    const test = page.getByRole("region", { name: "Send a test event" })
    await test.getByLabel("Event").selectOption("message.inbound")
    await test.getByText("The sample data it sends").click()
    await visible(test.getByText(/"from":/))
    await test.getByRole("button", { name: "Send test event" }).click()
    await visible(test.getByText(/Test message\.inbound queued as dlv_/))
    const tested = page
      .getByRole("region", { name: "Delivery attempts" })
      .getByRole("row")
      .filter({ hasText: "message.inbound" })
    await visible(tested.getByText("success"), 20_000)
    const testRequest = receiver.requests.find((r) => r.headers["x-service-event"] === "message.inbound")
    expect(testRequest?.headers["x-service-test"]).toBe("true")

    await visitorLeavesNumber("+1 415 555 0100")
    const delivered = await untilLogShows(page, /lead\.created/)
    await visible(delivered.first().getByText("success"))
    await visible(delivered.first().getByRole("cell", { name: "204", exact: true }))
    expect(receiver.requests.some((r) => r.headers["x-service-event"] === "lead.created")).toBe(true)
    await visible(page.getByRole("region", { name: "Health" }).getByText("success"))

    // One attempt's detail, and a redelivery of it that the log waits for by itself.
    await delivered.first().getByRole("button", { name: "Details of attempt 1 of lead.created" }).click()
    const details = page.getByRole("dialog", { name: "Attempt 1 of lead.created" })
    const deliveryId = await details.locator("dd code").first().textContent()
    expect(deliveryId).toMatch(/^dlv_/)
    await details.getByRole("button", { name: "Close" }).click()
    await delivered.first().getByRole("button", { name: "Redeliver" }).click()
    await visible(page.getByText(/Redelivery of lead\.created queued as dlv_/))
    const rows = page
      .getByRole("region", { name: "Delivery attempts" })
      .getByRole("row")
      .filter({ hasText: /lead\.created/ })
    await eventually(async () => expect(await rows.count()).toBe(2), { timeoutMs: 20_000, intervalMs: 200 })

    // A failing receiver: the attempt is logged failed with the status, and the filter finds it.
    receiver.setHandler(() => ({ status: 500 }))
    await visitorLeavesNumber("+1 415 555 0199")
    await untilLogShows(page, /failed/)
    await page.getByLabel("Show").selectOption("failed")
    const failed = page
      .getByRole("region", { name: "Delivery attempts" })
      .getByRole("row")
      .filter({ hasText: "failed" })
    await visible(failed.first().getByRole("cell", { name: "500", exact: true }))
    await eventually(
      async () =>
        expect(await page.getByRole("region", { name: "Delivery attempts" }).getByText("success").count()).toBe(0),
      { timeoutMs: 10_000 },
    )
    receiver.setHandler(() => ({ status: 204 }))

    // Replaying the last hour's failed deliveries queues at least the one that failed.
    const replay = page.getByRole("region", { name: "Replay a time window" })
    const hourAgo = new Date(Date.now() - 3_600_000 - new Date().getTimezoneOffset() * 60_000)
      .toISOString()
      .slice(0, 16)
    await replay.getByLabel("From").fill(hourAgo)
    await replay.getByRole("button", { name: "Replay window" }).click()
    await visible(replay.getByText(/\d+ deliver(y|ies) queued again\./))
    await expectAccessible(page, { screen: "a webhook with its delivery log" })
    await page.getByRole("heading", { level: 1 }).scrollIntoViewIfNeeded()
    await saveScreenshot(page, "console-webhook")
    await admin.watch.expectClean()
  })

  it("disables and enables, rotates the secret, edits the events and deletes after a confirmation", async () => {
    const { page } = admin
    const health = page.getByRole("region", { name: "Health" })
    await health.getByRole("button", { name: "Disable" }).click()
    await visible(
      page.getByText(
        "Disabled: events are not delivered or queued for it until it is enabled. Test events still go out.",
      ),
    )
    await visible(page.getByText("Test events you send still go out, so you can try your receiver first."))
    await visible(health.getByText("disabled", { exact: true }))
    await health.getByRole("button", { name: "Enable" }).click()
    await visible(page.getByText("Enabled: new events are delivered again."))

    await health.getByRole("button", { name: "Rotate secret" }).click()
    await page.getByRole("dialog", { name: "Rotate the secret?" }).getByRole("button", { name: "Rotate" }).click()
    const shown = page.getByRole("region", { name: "New secret" })
    const secret = await shown.getByLabel("Secret (X-Service-Signature)").inputValue()
    expect(Buffer.from(secret, "base64")).toHaveLength(32)
    expect(await shown.getByLabel("Signing secret (Standard Webhooks)").inputValue()).toBe(`whsec_${secret}`)
    await shown.getByRole("button", { name: "I have copied it" }).click()
    // The next delivery is signed with the new secret.
    const before = receiver.requests.length
    await visitorLeavesNumber("+1 415 555 0142")
    const next = await eventually(
      () => {
        const request = receiver.requests.slice(before).find((r) => r.headers["x-service-event"] === "lead.created")
        if (request === undefined) throw new Error("no delivery yet")
        return request
      },
      { timeoutMs: 15_000 },
    )
    expect(next.headers["x-service-signature"]).toBe(
      `sha256=${createHmac("sha256", secret).update(next.body).digest("hex")}`,
    )

    const edit = page.getByRole("region", { name: "Edit" })
    await edit.getByRole("checkbox", { name: "lead.updated" }).uncheck()
    await edit.getByRole("button", { name: "Save changes" }).click()
    await visible(edit.getByText("Saved. The change applies to events from now on."))
    await visible(health.getByText(/\b1 event$/))

    await health.getByRole("button", { name: "Delete" }).click()
    await page
      .getByRole("dialog", { name: "Delete this webhook?" })
      .getByRole("button", { name: "Delete webhook" })
      .click()
    await visible(page.getByRole("heading", { name: "Webhooks", level: 1 }))
    await visible(page.getByText("No webhooks yet."))
    await admin.watch.expectClean()
  })
})
