/**
 * Phone numbers read as people write them on every screen that shows a stored one (Messages,
 * Bookings, the Inbox's list and conversation, a campaign's recipients): `14155550188` shows as
 * "+1 415 555 0188", `447700900456` as "+44 7700 900456" (`ui/phone.ts`). The Messages filter takes
 * the number as a person types it: with spaces and `+`, as digits, or national (the demo organization
 * is in the US). Each screen is also photographed at 1280 px and 375 px with nothing cut off and no
 * sideways scrolling, a table's own region included: on a phone each row is a card whose key fields
 * (phone, name, status, Cancel) are on screen.
 * One Parley with a sandbox channel: a customer writes, a campaign goes out, a booking is taken.
 */
import { expectNothingCutOff, saveScreenshot } from "@parley/browser-testing"
import { eventually } from "@parley/platform/testing"
import type { Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nextMonday } from "./support/days.ts"
import { type ConsolePage, openScreen, type Parley, startParley, visible } from "./support/parley.ts"

let parley: Parley
let admin: ConsolePage

const ok = async (answer: Promise<{ status: number; body: unknown }>, status: number) => {
  const { status: got, body } = await answer
  expect(got, JSON.stringify(body)).toBe(status)
  return body as Record<string, unknown>
}

beforeAll(async () => {
  parley = await startParley()
  await ok(parley.api("PUT", "/api/channels/cloud", { sandbox: true }), 200)
  // A customer writes on the sandbox channel: a message and a conversation with a number.
  await ok(
    parley.api("POST", "/api/sandbox/inbound", { from: "+1 415 555 0188", text: "Is the shop open today?" }),
    202,
  )
  await ok(
    parley.api("POST", "/api/public/bookings", {
      name: "Sam Lee",
      phone: "+44 7700 900456",
      date: nextMonday(),
      time: "09:00",
      service: "consultation",
    }),
    201,
  )
  const template = await ok(
    parley.api("POST", "/api/templates", {
      name: "spring_sale",
      language: "en_US",
      category: "MARKETING",
      components: [{ type: "BODY", text: "Spring sale: 20% off this week." }],
    }),
    201,
  )
  await ok(parley.api("POST", `/api/sandbox/templates/${String(template.id)}`, { status: "APPROVED" }), 202)
  await eventually(
    async () => {
      const campaign = await parley.api("POST", "/api/campaigns", {
        name: "Spring sale",
        template: { name: "spring_sale", language: "en_US" },
        recipients: ["14155550188", "447700900456"],
      })
      expect(campaign.status, JSON.stringify(campaign.body)).toBe(202)
    },
    { timeoutMs: 15_000, intervalMs: 500 },
  )
  admin = await parley.newPage()
  await parley.signIn(admin.page, parley.demo.adminEmail, parley.demo.adminPassword)
}, 180_000)
afterAll(async () => {
  await parley?.close()
})

const open = (page: Page, path: string, heading: string) => openScreen(page, `${parley.origin}${path}`, heading)

/** Drawn, and wholly inside the window's width: seen without scrolling anything sideways. */
const onScreen = async (shown: Locator, width: number) => {
  await visible(shown)
  const box = await shown.boundingBox()
  expect(box, String(shown)).not.toBeNull()
  expect(box?.x ?? -1, String(shown)).toBeGreaterThanOrEqual(0)
  expect((box?.x ?? 0) + (box?.width ?? 0), String(shown)).toBeLessThanOrEqual(width)
}

/**
 * The screen at 1280 px and at 375 px, `shown` scrolled into view: photographed, nothing cut off,
 * nothing scrolling sideways — at 375 px not even a table in its own region, and `keyFields` on screen.
 */
const photograph = async (page: Page, name: string, shown: Locator, keyFields: Array<Locator> = []) => {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 })
    await shown.scrollIntoViewIfNeeded()
    await expectNothingCutOff(page, { screen: `${name} (${width} px)`, scrollable: ".table-scroll" })
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${width} px`,
    ).toBeLessThanOrEqual(width)
    if (width === 375) {
      const overflowing = await page.evaluate(() =>
        [...document.querySelectorAll(".table-scroll")]
          .filter((region) => region.scrollWidth > region.clientWidth)
          .map((region) => region.getAttribute("aria-label")),
      )
      expect(overflowing, `${name}: table regions scrolling sideways at 375 px`).toEqual([])
      for (const field of keyFields) await onScreen(field, width)
      // The photograph shows the card down to its last key field (a booking's Cancel).
      await keyFields.at(-1)?.scrollIntoViewIfNeeded()
    }
    await saveScreenshot(page, `console-phones-${name}-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

describe("stored phone numbers, as people read them", () => {
  it("shows a message's customer number formatted, and filters by it typed as +1 415 555 0188, 14155550188 or (415) 555-0188", async () => {
    const { page } = admin
    await open(page, "/console/messages", "Messages")
    const messages = page.getByRole("region", { name: "Messages" })
    await visible(messages.getByRole("row").filter({ hasText: "Is the shop open today?" }).getByText("+1 415 555 0188"))
    expect(await messages.getByText("14155550188").count()).toBe(0)
    for (const typed of ["+1 415 555 0188", "14155550188", "(415) 555-0188"]) {
      // Every customer first (the campaign's message to +44 7700 900456 among them), then the one typed.
      await page.getByLabel("Customer number").fill("")
      await page.getByRole("button", { name: "Show messages" }).click()
      await visible(page.getByRole("heading", { name: "All messages" }))
      await visible(messages.getByRole("row").filter({ hasText: "+44 7700 900456" }).first())
      await page.getByLabel("Customer number").fill(typed)
      await page.getByRole("button", { name: "Show messages" }).click()
      await visible(page.getByRole("heading", { name: "Conversation with +1 415 555 0188" }))
      await visible(messages.getByRole("row").filter({ hasText: "Is the shop open today?" }))
      // The heading shows the number as typed at once; the other customer's rows leave when the list is read again.
      await messages
        .getByRole("row")
        .filter({ hasText: "+44 7700 900456" })
        .first()
        .waitFor({ state: "detached", timeout: 15_000 })
    }
    // The customer wrote on the sandbox channel (§16): marked so, beside the channel.
    const written = messages.getByRole("row").filter({ hasText: "Is the shop open today?" })
    await visible(written.getByText("Sandbox", { exact: true }))
    await photograph(page, "messages", messages.getByText("+1 415 555 0188").first(), [
      written.getByText("+1 415 555 0188"),
      written.getByText("Is the shop open today?"),
      written.getByText("Sandbox", { exact: true }),
      written.getByRole("cell").last(),
    ])
    await admin.watch.expectClean()
  })

  it("shows a booking's phone formatted", async () => {
    const { page } = admin
    await open(page, "/console/bookings", "Bookings")
    const booking = page.getByRole("row").filter({ hasText: "Sam Lee" })
    const phone = await visible(booking.getByText("+44 7700 900456"))
    await photograph(page, "bookings", phone, [
      phone,
      booking.getByText("Sam Lee", { exact: true }),
      booking.getByText("confirmed", { exact: true }),
      booking.getByRole("button", { name: /^Cancel Sam Lee's booking/ }),
    ])
    await admin.watch.expectClean()
  })

  it("names a conversation without a name by its formatted number, in the list and in the conversation", async () => {
    const { page } = admin
    await open(page, "/console/inbox", "Inbox")
    const list = page.getByRole("list", { name: "Conversations" })
    await visible(list.getByText("+1 415 555 0188"))
    await photograph(page, "inbox-list", list)
    await list.getByRole("link").filter({ hasText: "+1 415 555 0188" }).first().click()
    await visible(page.getByRole("heading", { name: "+1 415 555 0188", level: 2 }))
    const customer = page.getByRole("complementary", { name: "Customer" })
    await visible(customer.getByText("+1 415 555 0188", { exact: true }))
    await photograph(page, "inbox-conversation", customer)
    await admin.watch.expectClean()
  })

  it("shows a campaign's recipients by their formatted numbers", async () => {
    const { page } = admin
    await open(page, "/console/campaigns", "Campaigns")
    const campaign = page.getByRole("article", { name: "Spring sale" })
    await campaign.getByRole("button", { name: "Show recipients of Spring sale" }).click()
    const recipients = campaign.getByRole("region", { name: "Recipients" })
    await visible(recipients.getByRole("row").filter({ hasText: "+1 415 555 0188" }))
    await visible(recipients.getByRole("row").filter({ hasText: "+44 7700 900456" }))
    const recipient = recipients.getByRole("row").filter({ hasText: "+44 7700 900456" })
    await photograph(page, "campaigns", recipients.getByText("+44 7700 900456"), [
      recipient.getByText("+44 7700 900456"),
      recipient.getByRole("cell").nth(1),
    ])
    await admin.watch.expectClean()
  })
})
