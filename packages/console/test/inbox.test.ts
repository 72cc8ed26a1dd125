/**
 * The Inbox (docs/contract.md §17) in a real browser against `npm start`: two people of one organization
 * in two browser contexts and a visitor's widget on a business's page in a third. The visitor asks
 * for a person; both people see the conversation arrive, waiting, without a reload; one takes it
 * over and the other sees it taken; the reply reaches the widget within seconds, marked as from a
 * person, and stays after a reload; the assistant stays quiet until the conversation is released.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { expectAccessible, saveScreenshot } from "@parley/browser-testing"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ConsolePage, type Parley, startParley, visible } from "./support/parley.ts"

let parley: Parley
let site: { origin: string; server: Server }
const BOB = { email: "bob@example.test", password: "bob-password-1" }

beforeAll(async () => {
  parley = await startParley()
  const created = await parley.api("POST", "/api/org/members", { ...BOB, role: "member" })
  expect(created.status).toBe(201)
  const key = await parley.api("POST", "/api/org/api-keys", { name: "Website", scopes: ["chat:write", "chat:read"] })
  const widgetKey = (key.body as { key: string }).key
  const page = `<!doctype html><html lang="en"><head><title>Bakery</title></head><body><h1>The bakery</h1><script src="${parley.origin}/widget.js" data-parley-key="${widgetKey}" async></script></body></html>`
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  site = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
})
afterAll(async () => {
  site?.server.close()
  await parley?.close()
})

const openInbox = async (page: Page) => {
  await page.goto(`${parley.origin}/console/inbox`)
  await visible(page.getByRole("heading", { name: "Inbox", level: 1 }))
  await visible(page.getByRole("status").filter({ hasText: "Live" }))
}

const conversations = (page: Page) => page.getByRole("list", { name: "Conversations" })

describe("the inbox", () => {
  it("lets one person take a conversation over while another sees it taken, and the visitor gets the reply", async () => {
    const alice: ConsolePage = await parley.newPage()
    await parley.signIn(alice.page, parley.demo.adminEmail, parley.demo.adminPassword)
    const bob: ConsolePage = await parley.newPage({ viewport: "phone", colorScheme: "dark" })
    await parley.signIn(bob.page, BOB.email, BOB.password)
    await openInbox(alice.page)
    await openInbox(bob.page)
    await visible(alice.page.getByText("No conversations here yet."))

    // A visitor on the business's page, in a third context.
    const visitorContext = await parley.browser.newContext()
    const visitor = await visitorContext.newPage()
    await visitor.goto(site.origin)
    await visitor.getByRole("button", { name: "Open chat" }).click()
    const box = visitor.getByRole("textbox", { name: "Message" })
    const chatLog = visitor.getByRole("list", { name: "Conversation" })
    await box.fill("Hi, I'd like to talk to a person please")
    await box.press("Enter")
    await visible(chatLog.getByText("a person will answer you here shortly"))

    // Both people see it arrive, waiting for a person, without reloading.
    for (const page of [alice.page, bob.page]) {
      await visible(conversations(page).getByText("Waiting for a person"))
      await visible(page.getByText("1 waiting for a person"))
    }
    await expectAccessible(alice.page, { screen: "inbox with a customer waiting" })
    await expectAccessible(bob.page, { screen: "inbox with a customer waiting (phone, dark)" })
    await saveScreenshot(bob.page, "console-inbox-list-phone-dark")

    // Alice opens it (keyboard) and takes it over.
    await conversations(alice.page).getByRole("link").first().focus()
    await alice.page.keyboard.press("Enter")
    await visible(alice.page.getByRole("heading", { name: "Website visitor", level: 2 }))
    await visible(alice.page.getByText("talk to a person please"))
    await alice.page.getByRole("button", { name: "Take over", exact: true }).click()
    await visible(alice.page.getByRole("status").getByText("Held by You"))

    // Bob sees it taken, live, and may not reply.
    await visible(conversations(bob.page).getByText(`Held by ${parley.demo.adminEmail}`))
    await conversations(bob.page).getByRole("link").first().click()
    await visible(bob.page.getByText(`${parley.demo.adminEmail} holds this conversation`))
    expect(await bob.page.getByRole("textbox", { name: "Reply" }).count()).toBe(0)
    expect(await bob.page.getByRole("button", { name: "Take over", exact: true }).count()).toBe(0)
    await expectAccessible(bob.page, { screen: "inbox conversation held by another person (phone, dark)" })
    await saveScreenshot(bob.page, "console-inbox-phone")

    // Alice answers with the keyboard (Ctrl+Enter); the visitor sees it within seconds, from a person.
    const reply = alice.page.getByRole("textbox", { name: "Reply" })
    await reply.fill("Hello! I'm Alice from the bakery, how can I help?")
    await reply.press("Control+Enter")
    await visible(alice.page.getByRole("region", { name: "Messages" }).getByText("I'm Alice from the bakery"))
    await visible(chatLog.getByText("I'm Alice from the bakery, how can I help?"), 10_000)
    await visible(chatLog.getByText("A person from the team"))
    await visible(bob.page.getByRole("region", { name: "Messages" }).getByText("I'm Alice from the bakery"))

    // After a reload, the widget still shows it as from a person.
    // (the panel that was open opens again by itself after a reload)
    await visitor.reload()
    await visible(chatLog.getByText("I'm Alice from the bakery, how can I help?"))
    await visible(chatLog.getByText("A person from the team"))

    // The visitor writes again: no assistant reply, and Alice sees it arrive.
    const assistantBubbles = await visitor.locator("parley-widget li.assistant").count()
    await visitor.getByRole("textbox", { name: "Message" }).fill("Do you have sourdough today?")
    await visitor.getByRole("textbox", { name: "Message" }).press("Enter")
    await visible(alice.page.getByRole("region", { name: "Messages" }).getByText("Do you have sourdough today?"))
    expect(await visitor.locator("parley-widget li.assistant").count()).toBe(assistantBubbles)
    // The visitor is told, once, who answers while a person holds the conversation.
    const heldNote = chatLog.getByText("A person from the team will reply here.")
    await visible(heldNote)
    await visitor.getByRole("textbox", { name: "Message" }).fill("And rye bread?")
    await visitor.getByRole("textbox", { name: "Message" }).press("Enter")
    await visible(alice.page.getByRole("region", { name: "Messages" }).getByText("And rye bread?"))
    expect(await heldNote.count()).toBe(1)
    await saveScreenshot(alice.page, "console-inbox")

    // Released: Bob sees it back with the assistant, which answers again.
    await alice.page.getByRole("button", { name: "Release to the assistant" }).click()
    await visible(bob.page.getByRole("status").getByText("The assistant is answering"))
    await visitor.getByRole("textbox", { name: "Message" }).fill("What are your opening hours?")
    await visitor.getByRole("textbox", { name: "Message" }).press("Enter")
    await expect
      .poll(() => visitor.locator("parley-widget li.assistant:not(.typing)").count(), { timeout: 15_000 })
      .toBeGreaterThan(assistantBubbles)

    // Alice's stream drops and Parley refuses her first tries (429): the inbox says so, keeps
    // trying by itself, and once back shows what came meanwhile.
    await alice.page.route("**/api/conversations/events", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        body: '{"error":"Too many requests, slow down","code":"rate_limited"}',
      }),
    )
    await alice.page.evaluate(() => window.stop())
    await visible(alice.page.getByRole("status").filter({ hasText: "Reconnecting" }))
    await visitor.getByRole("textbox", { name: "Message" }).fill("Are you still there?")
    await visitor.getByRole("textbox", { name: "Message" }).press("Enter")
    await alice.page.unroute("**/api/conversations/events")
    await visible(alice.page.getByRole("status").filter({ hasText: "Live" }), 30_000)
    await visible(alice.page.getByRole("region", { name: "Messages" }).getByText("Are you still there?"))

    await alice.watch.expectClean()
    await bob.watch.expectClean()
    await visitorContext.close()
  })
})
