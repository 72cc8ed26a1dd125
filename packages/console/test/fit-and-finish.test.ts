/**
 * What a first-time administrator trips over (issue #26), in a real browser against `npm start`:
 * every screen — dialogs open — walked at 1280 px and 360 px in both themes with nothing cut off or
 * overflowing (`expectNothingCutOff`) and axe clean; feedback beside the button pressed; forms that
 * do not carry a server scope over; bookings with their weekday and a cancel dialog that names its
 * buttons; the leads export of the filter shown; members who change roles and their own password and
 * see no list of leads or bookings; a webhook log that shows tests, redeliveries, the request and the response.
 */
import { readFile } from "node:fs/promises"
import { expectAccessible, expectNothingCutOff, saveScreenshot } from "@parley/browser-testing"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nextMonday, weekdayDate } from "./support/days.ts"
import { type ConsolePage, openScreen, type Parley, startParley, visible } from "./support/parley.ts"

let parley: Parley
let receiver: StubServer
let webhookId = ""
let bookingDay = ""
const member = { email: `front.desk.${Date.now()}@example.com`, password: "front desk passphrase" }

const ok = async (answer: Promise<{ status: number; body: unknown }>, status: number) => {
  const { status: got, body } = await answer
  expect(got, JSON.stringify(body)).toBe(status)
  return body as Record<string, unknown>
}

beforeAll(async () => {
  // The receiver fails a delivery's first attempt with a body, then accepts: the log has both.
  receiver = await startHttpServer((request) =>
    request.headers["x-service-attempt"] === "1" ? { status: 500, body: { error: "database down" } } : { status: 204 },
  )
  parley = await startParley()
  // What an organization has after a week: keys of each kind (one revoked), a webhook with a log,
  // leads of two types, a booking, a member.
  await ok(
    parley.api("POST", "/api/org/api-keys", {
      name: "Website chat",
      scopes: ["chat:write", "chat:read", "bookings:read", "bookings:write"],
      allowedOrigins: ["https://www.example.com", "https://shop.example.com"],
    }),
    201,
  )
  await ok(parley.api("POST", "/api/org/api-keys", { name: "CRM sync", scopes: ["messages:send"] }), 201)
  const old = await ok(parley.api("POST", "/api/org/api-keys", { name: "Old integration" }), 201)
  await ok(parley.api("DELETE", `/api/org/api-keys/${old.id}`), 200)
  webhookId = String(
    (await ok(parley.api("POST", "/api/org/webhooks", { url: `${receiver.url}/hooks/parley` }), 201)).id,
  )
  await ok(parley.api("POST", `/api/org/webhooks/${webhookId}/test`, { event: "lead.created" }), 202)
  await ok(parley.api("POST", "/api/public/chat", { message: "I'm Dana, please call me back at +1 415 555 0100" }), 200)
  bookingDay = nextMonday()
  await ok(
    parley.api("POST", "/api/public/bookings", {
      name: "Sam Lee",
      phone: "+1 415 555 0177",
      date: bookingDay,
      time: "09:00",
      service: "consultation",
    }),
    201,
  )
  await ok(parley.api("POST", "/api/org/members", { ...member, role: "member" }), 201)
  // The test delivery's retry (attempt 2, about 5 s after the first failed) is in the log before the walk.
  await eventually(
    async () => {
      const log = (await parley.api("GET", `/api/org/webhooks/${webhookId}/deliveries`)).body as {
        data: Array<{ status: string }>
      }
      expect(log.data.some((a) => a.status === "success")).toBe(true)
    },
    { timeoutMs: 30_000, intervalMs: 500 },
  )
}, 180_000)
afterAll(async () => {
  await parley?.close()
  await receiver?.close()
})

const open = (page: Page, path: string, heading: string | RegExp) =>
  openScreen(page, `${parley.origin}${path}`, heading)

/** Whether `locator` is inside the window as it is scrolled now (seen without scrolling). */
const inView = (page: Page, text: string) =>
  page.getByText(text).evaluate((element) => {
    const box = element.getBoundingClientRect()
    return box.top >= 0 && box.bottom <= window.innerHeight
  })

interface Stop {
  readonly path: string
  readonly heading: string | RegExp
  readonly shot: string
  /** Something to open before the check (a dialog), closed again after. */
  readonly open?: (page: Page) => Promise<void>
}

const STOPS: ReadonlyArray<Stop> = [
  { path: "/console/", heading: "Overview", shot: "overview" },
  { path: "/console/settings/api-keys", heading: "API keys", shot: "api-keys" },
  {
    path: "/console/settings/api-keys",
    heading: "API keys",
    shot: "api-keys-revoke",
    open: async (page) => {
      await page.getByRole("button", { name: "Revoke Website chat" }).click()
      await visible(page.getByRole("dialog", { name: "Revoke “Website chat”?" }))
    },
  },
  { path: "/console/settings/webhooks", heading: "Webhooks", shot: "webhooks" },
  { path: "/console/settings/webhooks/:id", heading: /^Webhook http/, shot: "webhook" },
  {
    path: "/console/settings/webhooks/:id",
    heading: /^Webhook http/,
    shot: "webhook-log",
    open: async (page) => {
      await page.getByRole("region", { name: "Delivery attempts" }).scrollIntoViewIfNeeded()
    },
  },
  {
    path: "/console/settings/webhooks/:id",
    heading: /^Webhook http/,
    shot: "webhook-attempt",
    open: async (page) => {
      const failed = page
        .getByRole("region", { name: "Delivery attempts" })
        .getByRole("row")
        .filter({ hasText: "failed" })
      await failed
        .first()
        .getByRole("button", { name: /^Details of attempt/ })
        .click()
      await visible(page.getByRole("dialog").getByText("database down"))
    },
  },
  { path: "/console/members", heading: "Members", shot: "members" },
  { path: "/console/channels", heading: "Channels", shot: "channels" },
  { path: "/console/assistant", heading: "Assistant", shot: "assistant" },
  {
    path: "/console/assistant",
    heading: "Assistant",
    shot: "assistant-hours",
    open: async (page) => {
      await page.getByRole("group", { name: "Opening hours" }).scrollIntoViewIfNeeded()
    },
  },
  { path: "/console/leads", heading: "Leads", shot: "leads" },
  { path: "/console/bookings", heading: "Bookings", shot: "bookings" },
  {
    path: "/console/bookings",
    heading: "Bookings",
    shot: "bookings-cancel",
    open: async (page) => {
      await page.getByRole("button", { name: /^Cancel Sam Lee's booking/ }).click()
      await visible(page.getByRole("dialog", { name: "Cancel Sam Lee's booking?" }))
    },
  },
  { path: "/console/messages", heading: "Messages", shot: "messages" },
  { path: "/console/templates", heading: "Templates", shot: "templates" },
  { path: "/console/campaigns", heading: "Campaigns", shot: "campaigns" },
]

describe("every screen, at 1280 px and 360 px, light and dark", () => {
  it("has nothing cut off or overflowing its container, dialogs included, and no serious axe violation", async () => {
    for (const variant of [
      { viewport: "desktop", colorScheme: "light", axe: true },
      { viewport: "phone", colorScheme: "dark", axe: true },
      { viewport: "desktop", colorScheme: "dark", axe: false },
      { viewport: "phone", colorScheme: "light", axe: false },
    ] as const) {
      const { page, watch } = await parley.newPage(variant)
      await parley.signIn(page, parley.demo.adminEmail, parley.demo.adminPassword)
      for (const stop of STOPS) {
        const where = `${stop.shot} (${variant.viewport}, ${variant.colorScheme})`
        await open(page, stop.path.replace(":id", webhookId), stop.heading)
        await stop.open?.(page)
        // On a phone a wide table scrolls sideways in its own region (reachable by keyboard); on a
        // desktop nothing scrolls sideways.
        await expectNothingCutOff(page, {
          screen: where,
          ...(variant.viewport === "phone" ? { scrollable: ".table-scroll" } : {}),
        })
        if (variant.axe) await expectAccessible(page, { screen: where })
        await saveScreenshot(page, `console-fit-${stop.shot}-${variant.viewport}-${variant.colorScheme}`)
      }
      await watch.expectClean()
    }
  }, 300_000)
})

describe("feedback and forms", () => {
  let admin: ConsolePage
  beforeAll(async () => {
    admin = await parley.newPage()
    await parley.signIn(admin.page, parley.demo.adminEmail, parley.demo.adminPassword)
  })

  it("says “saved” beside the button pressed, not at the top of the form out of sight", async () => {
    const { page } = admin
    await open(page, "/console/assistant", "Assistant")
    await page.getByRole("button", { name: "Save booking settings" }).click()
    await visible(page.getByText("Booking settings saved."))
    expect(await inView(page, "Booking settings saved.")).toBe(true)
    await page.getByRole("button", { name: "Save profile" }).click()
    const saved = "The assistant's profile is saved; it answers with it from the next message."
    await visible(page.getByText(saved))
    expect(await inView(page, saved)).toBe(true)
    // Every weekday's hours show whole.
    for (const day of ["Monday", "Wednesday", "Friday", "Sunday"]) {
      const fits = await page
        .getByRole("region", { name: "Booking settings" })
        .getByLabel(day, { exact: true })
        .evaluate((input) => input.scrollWidth <= input.clientWidth)
      expect(fits, day).toBe(true)
    }
    await admin.watch.expectClean()
  })

  it("starts the next key from the widget scopes again after a server key, so it cannot silently become one", async () => {
    const { page } = admin
    await open(page, "/console/settings/api-keys", "API keys")
    const scopes = page.getByRole("group", { name: "Scopes" })
    await page.getByLabel("Name", { exact: false }).fill("Billing sync")
    await scopes.getByRole("checkbox", { name: "messages:send" }).check()
    await page.getByRole("button", { name: "Create key" }).click()
    const shown = page.getByRole("region", { name: "Your new key “Billing sync”" })
    await visible(shown)
    expect(await scopes.getByRole("checkbox", { name: "messages:send" }).isChecked()).toBe(false)
    expect(await scopes.getByRole("checkbox", { name: "chat:write" }).isChecked()).toBe(true)
    await visible(page.getByText("A widget key: it works only on the website widget"))
    await shown.getByRole("button", { name: "I have copied it" }).click()
    // Back to ten keys at most: the walk's organization keeps its own.
    const keys = (await parley.api("GET", "/api/org/api-keys")).body as { data: Array<{ id: string; name: string }> }
    const billing = keys.data.find((k) => k.name === "Billing sync")
    await ok(parley.api("DELETE", `/api/org/api-keys/${billing?.id}`), 200)
    await admin.watch.expectClean()
  })

  it("writes booking days with their weekday, and the cancel dialog offers “Keep booking” or “Cancel booking”", async () => {
    const { page } = admin
    await open(page, "/console/bookings", "Bookings")
    const row = page.getByRole("row").filter({ hasText: "Sam Lee" })
    await visible(row.getByText(`${weekdayDate(bookingDay)} 9:00 AM`))
    await row.getByRole("button", { name: `Cancel Sam Lee's booking on ${weekdayDate(bookingDay)} at 9:00 AM` }).click()
    const dialog = page.getByRole("dialog", { name: "Cancel Sam Lee's booking?" })
    expect(await dialog.getByRole("button").allTextContents()).toEqual(["Keep booking", "Cancel booking"])
    await dialog.getByRole("button", { name: "Keep booking" }).click()
    expect(await dialog.isVisible()).toBe(false)
    await visible(row.getByText("confirmed"))
    await admin.watch.expectClean()
  })

  it("exports the leads of the type shown, not every lead", async () => {
    const { page } = admin
    await open(page, "/console/leads", "Leads")
    await page.getByLabel("Type").selectOption("BOOKING")
    await visible(page.getByRole("row").filter({ hasText: "+1 415 555 0177" }))
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export “Booking” leads as CSV" }).click(),
    ])
    const csv = await readFile((await download.path()) as string, "utf8")
    expect(csv).toContain("14155550177")
    expect(csv).not.toContain("14155550100")
    expect(download.suggestedFilename()).toMatch(/^leads-booking-\d{4}-\d{2}-\d{2}\.csv$/)
    await admin.watch.expectClean()
  })
})

describe("leads on a phone", () => {
  it("reads each lead at 375 px as a card, with the number written for reading and the source in words", async () => {
    const { page, context, watch } = await parley.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await parley.signIn(page, parley.demo.adminEmail, parley.demo.adminPassword)
    await open(page, "/console/leads", "Leads")
    const dana = page.getByRole("row").filter({ hasText: "Dana" })
    await visible(dana)
    // Every column of the row is there to read, none cut off: the type included.
    await visible(dana.getByRole("link", { name: "+1 415 555 0100" }))
    await visible(dana.getByText("Callback requested"))
    await visible(dana.getByText("Website chat"))
    await visible(page.getByRole("row").filter({ hasText: "Sam Lee" }).getByText("Website booking"))
    expect(await page.getByRole("cell", { name: "chat", exact: true }).count()).toBe(0)
    // Nothing scrolls sideways, not even the table's own region (no `scrollable` allowed here).
    await expectNothingCutOff(page, { screen: "leads at 375 px" })
    await saveScreenshot(page, "console-leads-phone")
    await watch.expectClean()
    await context.close()
  })
})

describe("members", () => {
  it("an administrator makes a member an administrator and back", async () => {
    const { page, watch } = await parley.newPage()
    await parley.signIn(page, parley.demo.adminEmail, parley.demo.adminPassword)
    await open(page, "/console/members", "Members")
    const row = page.getByRole("row").filter({ hasText: member.email })
    await row.getByRole("button", { name: `Make administrator ${member.email}` }).click()
    await visible(page.getByText(`${member.email} is now an administrator.`))
    await visible(row.getByRole("cell", { name: "Administrator", exact: true }))
    await row.getByRole("button", { name: `Make member ${member.email}` }).click()
    await page
      .getByRole("dialog", { name: `Make ${member.email} a member?` })
      .getByRole("button", { name: "Make member" })
      .click()
    await visible(page.getByText(`${member.email} is now a member: they read, and no longer manage.`))
    await visible(row.getByRole("cell", { name: "Member", exact: true }))
    // The demo's only other administrator is the one signed in: no role change offered for oneself.
    await visible(
      page
        .getByRole("row")
        .filter({ hasText: parley.demo.adminEmail })
        .getByText("Another administrator can change you."),
    )
    await watch.expectClean()
  })

  it("a member works the inbox, is shown no list of leads or bookings (an administrator's, §9), and changes their own password", async () => {
    const elsewhere = await parley.newPage()
    await parley.signIn(elsewhere.page, member.email, member.password)
    const { page, watch } = await parley.newPage({ viewport: "phone" })
    await parley.signIn(page, member.email, member.password)
    await visible(page.getByRole("heading", { name: "What you can see" }))
    expect(await page.getByText("Invite your team").count()).toBe(0)
    const nav = page.getByRole("navigation", { name: "Console" })
    await visible(nav.getByRole("link", { name: "Inbox" }))
    expect(await nav.getByRole("link", { name: "Leads" }).count()).toBe(0)
    expect(await nav.getByRole("link", { name: "Bookings" }).count()).toBe(0)
    // Typed in, the screen says whose it is, and no customer's number reaches the page.
    await page.goto(`${parley.origin}/console/leads`)
    await visible(page.getByText("Only an administrator of your organization can see this."))
    expect(await page.getByText("+1 415 555 0100").count()).toBe(0)

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Members" }).click()
    const form = page.getByRole("region", { name: "Your password" })
    await form.getByLabel("Current password").fill("not my password")
    await form.getByLabel(/^New password \(required\)/).fill("a brand new front desk phrase")
    await form.getByLabel("New password again").fill("a brand new front desk phrase")
    await form.getByRole("button", { name: "Change password" }).click()
    // One sentence at the field, in words (the API's field names never reach a person).
    await visible(form.getByText("Your current password is not right.", { exact: true }))
    expect(await form.getByText("Your current password is not right.").count()).toBe(1)
    expect(await form.getByText(/currentPassword/).count()).toBe(0)
    await eventually(async () =>
      expect(await form.getByLabel("Current password").evaluate((el) => el === document.activeElement)).toBe(true),
    )
    await form.getByLabel("Current password").fill(member.password)
    await form.getByRole("button", { name: "Change password" }).click()
    await visible(form.getByText("Your password is changed. Your other sessions have ended; this one stays signed in."))
    await expectNothingCutOff(page, { screen: "a member's Members screen (phone)", scrollable: ".table-scroll" })
    await expectAccessible(page, { screen: "a member's Members screen (phone)" })
    await saveScreenshot(page, "console-fit-members-member-phone-light")
    // The other browser's session ended: its next request finds itself signed out.
    await elsewhere.page.goto(`${parley.origin}/console/leads`)
    await visible(elsewhere.page.getByRole("heading", { name: "Sign in to the console" }))
    member.password = "a brand new front desk phrase"
    await watch.expectClean()
  })
})

describe("the webhook's delivery log", () => {
  it("marks tests and redeliveries, and shows the request sent and the response received", async () => {
    const { page, watch } = await parley.newPage()
    await parley.signIn(page, parley.demo.adminEmail, parley.demo.adminPassword)
    await open(page, `/console/settings/webhooks/${webhookId}`, /^Webhook http/)
    const log = page.getByRole("region", { name: "Delivery attempts" })
    // The test event's first attempt: failed, and marked a test.
    const failed = log
      .getByRole("row")
      .filter({ hasText: "failed" })
      .filter({ has: page.getByText("test", { exact: true }) })
      .first()
    await visible(failed)
    await failed.getByRole("button", { name: "Details of attempt 1 of lead.created" }).click()
    const dialog = page.getByRole("dialog", { name: /^Attempt 1 of lead\.created/ })
    await visible(dialog.getByText("A test event: sent with X-Service-Test: true."))
    const body = await dialog.getByRole("figure", { name: "Request body" }).locator("pre").textContent()
    expect(JSON.parse(body ?? "")).toMatchObject({ event: "lead.created", data: { phone: expect.any(String) } })
    expect(await dialog.getByRole("figure", { name: "Request headers" }).textContent()).toContain(
      "x-service-test: true",
    )
    await visible(dialog.getByText("HTTP 500"))
    expect(await dialog.getByRole("figure", { name: "Response body" }).locator("pre").textContent()).toBe(
      '{"error":"database down"}',
    )
    expect(await dialog.textContent()).not.toMatch(/whsec_/)
    await dialog.getByRole("button", { name: "Close" }).click()

    await failed.getByRole("button", { name: "Redeliver" }).click()
    await visible(page.getByText(/Redelivery of lead\.created queued as dlv_/))
    await visible(log.getByRole("row").filter({ hasText: "test · redelivery" }).first(), 20_000)
    // On a phone each attempt is a card: its outcome and buttons show without scrolling sideways.
    await page.setViewportSize({ width: 375, height: 800 })
    const card = log.getByRole("row").filter({ hasText: "failed" }).first()
    await card.scrollIntoViewIfNeeded()
    for (const shown of [card.getByText("failed", { exact: true }), card.getByRole("button", { name: /^Redeliver/ })]) {
      const box = await shown.boundingBox()
      expect(box !== null && box.x >= 0 && box.x + box.width <= 375).toBe(true)
    }
    await page.setViewportSize({ width: 1280, height: 800 })

    // Disabled: the banner says test events still go out, and one does.
    await page.getByRole("region", { name: "Health" }).getByRole("button", { name: "Disable" }).click()
    await visible(page.getByText("Test events you send still go out, so you can try your receiver first."))
    const before = receiver.requests.length
    await page
      .getByRole("region", { name: "Send a test event" })
      .getByRole("button", { name: "Send test event" })
      .click()
    await eventually(() => expect(receiver.requests.length).toBeGreaterThan(before), { timeoutMs: 15_000 })
    await watch.expectClean()
  })
})
