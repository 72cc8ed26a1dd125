/**
 * The widget as a visitor meets it (docs/contract.md §15): Debian's Chromium on a business's page served
 * from another loopback origin (`http://localhost:<port>`) than Parley's (`http://127.0.0.1:<port>`,
 * `npm start` as a child), under a CSP that names Parley only in script-src and connect-src. Every
 * test ends with the page clean: no console error it did not provoke, no CSP violation, no request to
 * a third origin.
 */
import { expectAccessible, saveScreenshot } from "@parley/browser-testing"
import type { Locator, Page, Route } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type HostPage, hostPageResponse, startHostPage } from "../demo/host-page.ts"
import { createWidgetKey, openEveryDay } from "../demo/parley-setup.ts"
import { failedLoad, newVisitor, startTestbed, type VisitorPage, type WidgetTestbed } from "./support/parley.ts"

let bed: WidgetTestbed
let site: HostPage
let widgetKey = ""

const SERVICES = ["check-up", "cleaning", "whitening"]

/** `YYYY-MM-DD` `days` from today (UTC, the organization's zone here). */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
/** The calendar day after and before `date` (`YYYY-MM-DD`). */
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
/** The day the booking form opens on: today until its last slot (16:30 UTC) has started, then tomorrow. */
const firstFreeDay = () => {
  const now = new Date()
  return dayFromToday(now.getUTCHours() * 60 + now.getUTCMinutes() < 16 * 60 + 30 ? 0 : 1)
}

beforeAll(async () => {
  bed = await startTestbed()
  await openEveryDay(bed.parley.url, bed.adminKey, SERVICES)
  widgetKey = await createWidgetKey(bed.parley.url, bed.adminKey)
  site = await startHostPage({ parleyUrl: bed.parley.url, widgetKey })
})
afterAll(async () => {
  await site?.close()
  await bed?.close()
})

const visitor = (options: Parameters<typeof newVisitor>[2] = {}) =>
  newVisitor(bed.browser, [site.origin, bed.parley.url], options)

const launcher = (page: Page): Locator => page.getByRole("button", { name: /^(Open|Close) chat$/ })
/**
 * The panel, titled by default with the business's name (the testbed's organization is "Demo"), or
 * the widget's own "Chat with us" while Parley has not said it (a key it refuses, say).
 */
const panel = (page: Page): Locator => page.getByRole("dialog", { name: /^(Demo|Chat with us)$/ })
const messageBox = (page: Page): Locator => page.getByRole("textbox", { name: "Message" })
const conversation = (page: Page): Locator => page.getByRole("list", { name: "Conversation" })

const openPanel = async (page: Page) => {
  await launcher(page).click()
  await expect.poll(() => panel(page).isVisible()).toBe(true)
}

/** Types into the message box and presses Enter, as a visitor sends. */
const say = async (page: Page, text: string) => {
  await messageBox(page).fill(text)
  await messageBox(page).press("Enter")
}

/** The text of the n-th assistant reply once it is there (1-based). */
const reply = async (page: Page, n: number): Promise<string> => {
  const replies = conversation(page).locator("li.assistant:not(.typing):not(.greeting) .bubble")
  await expect.poll(() => replies.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(n)
  return (await replies.nth(n - 1).textContent()) ?? ""
}

const done = async ({ context, watch }: VisitorPage) => {
  await watch.expectClean()
  await context.close()
}

describe("the widget on a page of another origin", () => {
  it("draws a launcher from one script tag and loads the panel only on first open, from Parley alone", async () => {
    const v = await visitor()
    const requested: Array<string> = []
    v.page.on("request", (request) => requested.push(new URL(request.url()).pathname))
    await v.page.goto(site.origin)
    await expect.poll(() => launcher(v.page).isVisible()).toBe(true)
    expect(await launcher(v.page).getAttribute("aria-expanded")).toBe("false")
    // The page and the loader, nothing more, until the visitor opens the chat.
    expect(requested.filter((path) => path.startsWith("/widget"))).toEqual(["/widget.js"])
    expect(requested.some((path) => path.startsWith("/api/"))).toBe(false)
    await expectAccessible(v.page, { screen: "host page with the launcher" })

    await openPanel(v.page)
    expect(requested.filter((path) => path.startsWith("/widget/"))).toEqual([
      expect.stringMatching(/^\/widget\/panel-[\w-]+\.js$/),
    ])
    expect(await launcher(v.page).getAttribute("aria-expanded")).toBe("true")
    // Opened by the visitor: the focus is in the message box.
    await expect.poll(() => messageBox(v.page).evaluate((el) => el.matches(":focus"))).toBe(true)
    await expectAccessible(v.page, { screen: "open chat panel" })
    await done(v)
  })

  it("holds a conversation that captures a lead: Enter sends, a typing indicator, replies in a live region, events", async () => {
    const v = await visitor()
    await v.page.goto(site.origin)
    await v.page.evaluate(() => {
      const seen: Array<unknown> = []
      ;(window as unknown as { seen: Array<unknown> }).seen = seen
      window.Parley?.on("message", (m) => seen.push(["message", m.role, m.text]))
      window.Parley?.on("lead", (lead) => seen.push(["lead", lead.type, lead.id]))
    })
    await openPanel(v.page)
    // The reply is held back until the typing indicator has been seen (then Parley answers for real).
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await v.context.route("**/api/public/chat", async (route) => {
      await held
      await route.continue()
    })
    await say(v.page, "Hi, I'm Dana. Please call me back on +1 415 555 0100")
    // The visitor's message is listed at once; the draft is emptied; the assistant is typing.
    await expect.poll(() => conversation(v.page).locator("li.visitor").first().textContent()).toContain("I'm Dana")
    expect(await messageBox(v.page).inputValue()).toBe("")
    await expect.poll(() => conversation(v.page).getByText("Assistant is typing…").count()).toBe(1)
    release()
    const first = await reply(v.page, 1)
    expect(await conversation(v.page).getByText("Assistant is typing…").count()).toBe(0)
    expect(first.length).toBeGreaterThan(0)
    const live = v.page.locator("parley-widget [aria-live=polite]")
    await expect.poll(() => live.textContent()).toBe(first)
    const seen = (await v.page.evaluate(() => (window as unknown as { seen: Array<Array<string>> }).seen)) ?? []
    expect(seen[0]).toEqual(["message", "visitor", "Hi, I'm Dana. Please call me back on +1 415 555 0100"])
    expect(seen[1]).toEqual(["message", "assistant", first])
    expect(seen[2]?.slice(0, 2)).toEqual(["lead", "CALLBACK_REQUESTED"])
    expect(seen[2]?.[2]).toMatch(/^lead_/)
    // Parley recorded that lead, with the number in digits.
    const leads = (await (
      await fetch(`${bed.parley.url}/api/leads`, { headers: { "x-api-key": bed.adminKey } })
    ).json()) as { data: Array<{ id: string; phone: string; name: string }> }
    expect(leads.data.find((lead) => lead.id === seen[2]?.[2])).toMatchObject({ phone: "14155550100", name: "Dana" })
    await saveScreenshot(v.page, "widget-conversation")
    await done(v)
  })

  it("keeps the conversation across a reload and a navigation, and reset() starts over", async () => {
    const v = await visitor()
    await v.page.goto(site.origin)
    await openPanel(v.page)
    await say(v.page, "Do you do teeth whitening?")
    const answer = await reply(v.page, 1)

    // Reloaded: the panel was open in this tab, so it opens again, with the history read back.
    await v.page.reload()
    await expect.poll(() => panel(v.page).isVisible()).toBe(true)
    await expect
      .poll(() => conversation(v.page).locator("li:not(.greeting) .bubble").allTextContents())
      .toEqual(["Do you do teeth whitening?", answer])
    // Another page of the same site: the same conversation, and it goes on.
    await v.page.goto(`${site.origin}/about`)
    await expect.poll(() => conversation(v.page).locator("li:not(.greeting) .bubble").count()).toBe(2)
    await say(v.page, "And a check-up?")
    await reply(v.page, 2)

    const sessionId = await v.page.evaluate(
      () => Object.entries(localStorage).find(([name]) => name.endsWith(":session"))?.[1],
    )
    expect(sessionId).toMatch(/\S/)
    const transcript = async () =>
      (await (
        await fetch(`${bed.parley.url}/api/public/chat/${sessionId}`, { headers: { "x-api-key": widgetKey } })
      ).json()) as { messages: Array<unknown> }
    expect((await transcript()).messages).toHaveLength(4)

    await v.page.evaluate(() => window.Parley?.reset())
    await expect.poll(() => conversation(v.page).locator("li:not(.greeting)").count()).toBe(0)
    expect((await transcript()).messages).toEqual([])
    await v.page.reload()
    await expect.poll(() => panel(v.page).isVisible()).toBe(true)
    expect(await conversation(v.page).locator("li:not(.greeting)").count()).toBe(0)
    await done(v)
  })

  it("takes its options from the script tag and answers the script API: open, close", async () => {
    const styled = await startHostPage({
      parleyUrl: bed.parley.url,
      widgetKey,
      lang: "de",
      attributes: { open: "", title: "Fragen Sie Harbour Dental", position: "left", locale: "de" },
    })
    const v = await newVisitor(bed.browser, [styled.origin, bed.parley.url])
    await v.page.goto(styled.origin)
    // data-parley-open: open from the start, without taking the focus from the page.
    const dialog = v.page.getByRole("dialog", { name: "Fragen Sie Harbour Dental" })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    expect(await v.page.evaluate(() => document.activeElement === document.body)).toBe(true)
    expect(await v.page.getByRole("textbox", { name: "Nachricht" }).getAttribute("placeholder")).toBe(
      "Nachricht schreiben…",
    )
    const box = await v.page.getByRole("button", { name: "Chat schließen" }).boundingBox()
    expect(box?.x).toBeLessThan(100)

    await v.page.evaluate(() => window.Parley?.close())
    await expect.poll(() => dialog.isVisible()).toBe(false)
    await v.page.evaluate(() => window.Parley?.open())
    await expect.poll(() => dialog.isVisible()).toBe(true)
    await expect
      .poll(() => v.page.getByRole("textbox", { name: "Nachricht" }).evaluate((el) => el.matches(":focus")))
      .toBe(true)
    // An unknown event name is a mistake of the page's developer, said at once.
    const refused = await v.page.evaluate(() => {
      try {
        window.Parley?.on("nope" as "message", () => undefined)
        return "accepted"
      } catch (error) {
        return String(error)
      }
    })
    expect(refused).toContain("unknown event nope")
    await done(v)
    await styled.close()
  })

  it("never reads what the visitor or Parley wrote as HTML", async () => {
    const v = await visitor()
    const requested: Array<string> = []
    v.page.on("request", (request) => requested.push(request.url()))
    await v.page.goto(site.origin)
    await openPanel(v.page)
    const markup = `<img src="/x.png" onerror="document.title='pwned'"><b>bold</b> &amp; done`
    await say(v.page, markup)
    await reply(v.page, 1)
    expect(await conversation(v.page).locator("li.visitor .bubble").first().textContent()).toBe(markup)
    const injected = await v.page.evaluate(
      () => document.querySelector("parley-widget")?.shadowRoot?.querySelectorAll("img, b").length,
    )
    expect(injected).toBe(0)
    expect(requested.some((url) => url.includes("x.png"))).toBe(false)
    expect(await v.page.title()).not.toBe("pwned")
    await done(v)
  })
})

const bookTab = (page: Page) => page.getByRole("button", { name: "Book a time" })

describe("booking through the form", () => {
  /** Opens the form and chooses a service, a date and a time. */
  const chooseSlot = async (page: Page, service: string, date: string, time: string) => {
    await bookTab(page).click()
    await page.getByLabel("Service").selectOption(service)
    await page.getByLabel("Date").fill(date)
    await page.getByRole("radio", { name: time }).check()
  }

  it("books a free slot of the chosen day and shows the confirmation", async () => {
    const v = await visitor()
    await v.page.goto(site.origin)
    await v.page.evaluate(() => {
      window.Parley?.on("booking", (booking) => {
        ;(window as unknown as { booked: unknown }).booked = booking
      })
    })
    await openPanel(v.page)
    await expect.poll(() => bookTab(v.page).isVisible()).toBe(true)
    await bookTab(v.page).click()
    // The organization's services, in its order; today's date first while today has a free time.
    expect(await v.page.getByLabel("Service").locator("option").allTextContents()).toEqual(SERVICES)
    await expect.poll(() => v.page.getByLabel("Date").inputValue()).toBe(firstFreeDay())
    await expectAccessible(v.page, { screen: "booking form" })

    const date = dayFromToday(1)
    await v.page.getByLabel("Service").selectOption("cleaning")
    await v.page.getByLabel("Date").fill(date)
    // Opening hours 09:00–17:00 in 30-minute slots: 16 free times on a day nobody booked.
    await expect.poll(() => v.page.getByRole("radio").count()).toBe(16)
    await v.page.getByRole("radio", { name: "10:00" }).check()
    await v.page.getByLabel("Name").fill("Ana Lima")
    await v.page.getByLabel("Phone").fill("+44 7700 900456")
    await saveScreenshot(v.page, "widget-booking")
    await v.page.getByRole("button", { name: "Book", exact: true }).click()

    await expect.poll(() => v.page.getByRole("heading", { name: "You are booked" }).isVisible()).toBe(true)
    const confirmation = await v.page.locator("parley-widget .confirmation").textContent()
    expect(confirmation).toContain("cleaning")
    expect(confirmation).toContain("10:00")
    expect(confirmation).toContain("Ana Lima")
    const booked = await v.page.evaluate(() => (window as unknown as { booked: unknown }).booked)
    expect(booked).toMatchObject({ name: "Ana Lima", phone: "447700900456", date, time: "10:00", service: "cleaning" })
    const listed = (await (
      await fetch(`${bed.parley.url}/api/bookings?date=${date}`, { headers: { "x-api-key": bed.adminKey } })
    ).json()) as { data: Array<{ name: string; time: string; status: string }> }
    expect(listed.data).toContainEqual(
      expect.objectContaining({ name: "Ana Lima", time: "10:00", status: "confirmed" }),
    )
    await done(v)
  })

  it("lets a visitor who booked with the form before writing anything move that booking in the chat", async () => {
    const v = await visitor()
    await v.page.goto(site.origin)
    await openPanel(v.page)
    await expect.poll(() => bookTab(v.page).isVisible()).toBe(true)
    // A day no other test books (a slot holds one booking).
    const date = dayFromToday(5)
    await chooseSlot(v.page, "whitening", date, "09:30")
    await v.page.getByLabel("Name").fill("Rui Costa")
    await v.page.getByLabel("Phone").fill("+44 7700 900457")
    await v.page.getByRole("button", { name: "Book", exact: true }).click()
    await expect.poll(() => v.page.getByRole("heading", { name: "You are booked" }).isVisible()).toBe(true)

    await v.page.locator("parley-widget .confirmation").getByRole("button", { name: "Back to chat" }).click()
    await say(v.page, "Hi, can you move my booking to 11:00?")
    const moved = await reply(v.page, 1)
    expect(moved).toContain("moved")
    expect(moved).toContain("11:00")
    const listed = (await (
      await fetch(`${bed.parley.url}/api/bookings?date=${date}`, { headers: { "x-api-key": bed.adminKey } })
    ).json()) as { data: Array<{ name: string; time: string; status: string }> }
    expect(
      listed.data
        .filter((booking) => booking.name === "Rui Costa")
        .map((b) => [b.time, b.status])
        .sort(),
    ).toEqual([
      ["09:30", "cancelled"],
      ["11:00", "confirmed"],
    ])
    await done(v)
  })

  it("says a slot taken meanwhile was just taken, reads the slots again and keeps what was typed (409)", async () => {
    const v = await visitor({ expectedConsoleErrors: [failedLoad(409)] })
    await v.page.goto(site.origin)
    await openPanel(v.page)
    const date = dayFromToday(2)
    await chooseSlot(v.page, "check-up", date, "11:00")
    await v.page.getByLabel("Name").fill("Sam Okafor")
    await v.page.getByLabel("Phone").fill("+1 415 555 0199")
    // Someone else books 11:00 while the visitor is typing.
    const rival = await fetch(`${bed.parley.url}/api/public/bookings`, {
      method: "POST",
      headers: { "x-api-key": widgetKey, "content-type": "application/json" },
      body: JSON.stringify({ name: "Rival", phone: "+1 415 555 0123", date, time: "11:00", service: "check-up" }),
    })
    expect(rival.status).toBe(201)

    await v.page.getByRole("button", { name: "Book", exact: true }).click()
    const alert = v.page.locator("parley-widget .form-message[role=alert]")
    await expect.poll(() => alert.textContent()).toBe("Sorry, that time was just taken. Please choose another one.")
    // The slots are read again: 11:00 is gone, the 15 others are offered.
    await expect.poll(() => v.page.getByRole("radio").count()).toBe(15)
    expect(await v.page.getByRole("radio", { name: "11:00" }).count()).toBe(0)
    expect(await v.page.getByLabel("Name").inputValue()).toBe("Sam Okafor")
    expect(await v.page.getByLabel("Phone").inputValue()).toBe("+1 415 555 0199")

    await v.page.getByRole("radio", { name: "11:30" }).check()
    await v.page.getByRole("button", { name: "Book", exact: true }).click()
    await expect.poll(() => v.page.getByRole("heading", { name: "You are booked" }).isVisible()).toBe(true)
    expect(await v.page.locator("parley-widget .confirmation").textContent()).toContain("11:30")
    await done(v)
  })

  it("offers Parley's today to book, not the visitor's, when the visitor's clock is days behind", async () => {
    // A phone whose clock stands ten days back: the form's first read asks for a day Parley calls past
    // (400, in the console), which hid the form before; now the answer's Date sets the form's today.
    const v = await visitor({ expectedConsoleErrors: [failedLoad(400)] })
    await v.page.clock.setFixedTime(new Date(Date.now() - 10 * 86_400_000))
    await v.page.goto(site.origin)
    await openPanel(v.page)
    await expect.poll(() => bookTab(v.page).isVisible()).toBe(true)
    await bookTab(v.page).click()
    await expect.poll(() => v.page.getByLabel("Date").inputValue()).toBe(firstFreeDay())
    expect(await v.page.getByLabel("Date").getAttribute("min")).toBe(dayFromToday(0))
    await v.page.getByLabel("Service").selectOption("whitening")
    await v.page.getByLabel("Date").fill(dayFromToday(3))
    await v.page.getByRole("radio", { name: "14:00" }).check()
    await v.page.getByLabel("Name").fill("Noor Haddad")
    await v.page.getByLabel("Phone").fill("+44 7700 900321")
    await v.page.getByRole("button", { name: "Book", exact: true }).click()
    await expect.poll(() => v.page.getByRole("heading", { name: "You are booked" }).isVisible()).toBe(true)
    expect(await v.page.locator("parley-widget .confirmation").textContent()).toContain("14:00")
    await done(v)
  })

  /**
   * A browser and an organization whose dates differ at every moment: UTC−12 and UTC+14 are 26 hours
   * apart. The form must ask Parley for no day it calls past (a 400 would be a console error, which
   * `done` refuses) and offer the organization's today, whichever side the browser is on.
   */
  for (const [browserZone, orgZone, side] of [
    ["Etc/GMT+12", "Etc/GMT-14", "behind"],
    ["Etc/GMT-14", "Etc/GMT+12", "ahead of"],
  ] as const) {
    it(`offers the organization's today, not the browser's, when the browser's date is ${side} it`, async () => {
      await openEveryDay(bed.parley.url, bed.adminKey, SERVICES, orgZone)
      try {
        const v = await visitor({ context: { timezoneId: browserZone } })
        // The browser's clock runs from now: what matters is its zone, and that Parley's clock rules.
        await v.page.clock.install({ time: new Date() })
        await v.page.goto(site.origin)
        const orgToday = new Intl.DateTimeFormat("en-CA", { timeZone: orgZone }).format(new Date())
        const browserToday = await v.page.evaluate(() => new Intl.DateTimeFormat("en-CA").format(new Date()))
        expect(browserToday).not.toBe(orgToday)
        await openPanel(v.page)
        await expect.poll(() => bookTab(v.page).isVisible()).toBe(true)
        await bookTab(v.page).click()
        await expect.poll(() => v.page.getByLabel("Date").getAttribute("min")).toBe(orgToday)
        // Today while it has a free time (the last slot starts at 16:30 there), else the next day.
        const orgMinutes = Number(
          new Intl.DateTimeFormat("en-GB", { timeZone: orgZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
            .format(new Date())
            .replace(":", ""),
        )
        const expected = orgMinutes < 1630 ? orgToday : dayAfter(orgToday)
        await expect.poll(() => v.page.getByLabel("Date").inputValue()).toBe(expected)
        await expect.poll(() => v.page.getByRole("radio").count()).toBeGreaterThan(0)
        expect(await v.page.getByText(`(${orgZone})`).isVisible()).toBe(true)

        // A day before the organization's today, typed in: said in the form, not asked of Parley, and
        // the form goes on working.
        await v.page.getByLabel("Date").fill(dayBefore(orgToday))
        await expect
          .poll(() => v.page.getByRole("alert").filter({ hasText: "Please choose a date from today on." }).isVisible())
          .toBe(true)
        expect(await v.page.getByRole("radio").count()).toBe(0)
        await v.page.getByLabel("Date").fill(dayAfter(orgToday))
        await expect.poll(() => v.page.getByRole("radio").count()).toBeGreaterThan(0)
        expect(await v.page.getByText("Please choose a date from today on.").count()).toBe(0)
        await done(v)
      } finally {
        await openEveryDay(bed.parley.url, bed.adminKey, SERVICES)
      }
    })
  }

  it("opens on the next day with a free time once today's hours are over, and still offers today", async () => {
    // A zone where it is now 20:xx, three hours after the 17:00 closing (Etc/GMT-N is UTC+N).
    let offset = 20 - new Date().getUTCHours()
    if (offset > 14) offset -= 24
    const zone = offset === 0 ? "UTC" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`
    await openEveryDay(bed.parley.url, bed.adminKey, SERVICES, zone)
    try {
      const today = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date())
      const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
      const v = await visitor()
      await v.page.goto(site.origin)
      await openPanel(v.page)
      await expect.poll(() => bookTab(v.page).isVisible()).toBe(true)
      await bookTab(v.page).click()
      await expect.poll(() => v.page.getByLabel("Date").inputValue()).toBe(tomorrow)
      expect(await v.page.getByLabel("Date").getAttribute("min")).toBe(today)
      // Free times to choose (earlier tests booked a few of that day's 16).
      await expect.poll(() => v.page.getByRole("radio").count()).toBeGreaterThan(10)
      expect(await v.page.getByText("No free times on this day").count()).toBe(0)
      await saveScreenshot(v.page, "widget-booking-after-closing")
      await done(v)
    } finally {
      await openEveryDay(bed.parley.url, bed.adminKey, SERVICES)
    }
  })

  it("offers no booking to a key without the booking scopes, and no history without chat:read", async () => {
    const chatOnly = await createWidgetKey(bed.parley.url, bed.adminKey, { name: "chat only", scopes: ["chat:write"] })
    const other = await startHostPage({ parleyUrl: bed.parley.url, widgetKey: chatOnly })
    const v = await newVisitor(bed.browser, [other.origin, bed.parley.url], {
      expectedConsoleErrors: [failedLoad(403)],
    })
    await v.page.goto(other.origin)
    await openPanel(v.page)
    await say(v.page, "Hello there")
    await reply(v.page, 1)
    expect(await v.page.getByRole("button", { name: "Book a time" }).count()).toBe(0)
    // The session goes on after a reload, but its history cannot be read back with this key.
    await v.page.reload()
    await expect.poll(() => panel(v.page).isVisible()).toBe(true)
    await expect.poll(() => conversation(v.page).locator("li.greeting").isVisible()).toBe(true)
    expect(await conversation(v.page).locator("li:not(.greeting)").count()).toBe(0)
    await done(v)
    await other.close()
  })
})

describe("when things go wrong", () => {
  it("shows a lost network with a retry, keeps the message, and sends it once the network is back", async () => {
    const v = await visitor({ expectedConsoleErrors: [/net::ERR_/, /Failed to fetch dynamically imported module/] })
    await v.page.goto(site.origin)

    // The panel's code cannot be fetched on first open: the launcher says so, and a second try loads it.
    await v.context.route("**/widget/panel-*", (route) => route.abort("internetdisconnected"))
    await launcher(v.page).click()
    await expect.poll(() => v.page.getByRole("alert").textContent()).toMatch(/^The chat could not be loaded/)
    expect(await panel(v.page).isVisible()).toBe(false)
    await v.context.unroute("**/widget/panel-*")
    await launcher(v.page).click()
    await expect.poll(() => panel(v.page).isVisible()).toBe(true)
    expect(await v.page.getByRole("alert").count()).toBe(0)

    const notSent = conversation(v.page).locator("li.visitor.failed")
    const notice = v.page.getByRole("alert")

    // The network fails for the chat only: Retry sends again once it works.
    await v.context.route("**/api/public/chat", (route) => route.abort("internetdisconnected"))
    await say(v.page, "Is parking available?")
    await expect.poll(() => notice.textContent()).toContain("You seem to be offline")
    expect(await notSent.textContent()).toContain("Is parking available?")
    expect(await notSent.textContent()).toContain("Not sent")
    const unsent = () =>
      v.page.evaluate(() => Object.entries(localStorage).find(([name]) => name.endsWith(":unsent"))?.[1] ?? "")
    expect(await unsent()).toContain("Is parking available?")
    await v.context.unroute("**/api/public/chat")
    await notice.getByRole("button", { name: "Retry" }).click()
    await reply(v.page, 1)
    expect(await notSent.count()).toBe(0)
    expect(await unsent()).toBe("")

    // The browser goes offline: the message waits, and goes by itself when the browser is back online.
    await v.context.setOffline(true)
    await say(v.page, "And on Sundays?")
    await expect.poll(() => notSent.count()).toBe(1)
    await expect.poll(() => notice.textContent()).toContain("You seem to be offline")
    await v.context.setOffline(false)
    await reply(v.page, 2)
    expect(await notSent.count()).toBe(0)
    expect(await notice.count()).toBe(0)
    await done(v)
  })

  it("never jams: a 5xx is retried, a new message retries what failed, and a reload keeps the unsent with a Retry", async () => {
    const v = await visitor({ expectedConsoleErrors: [failedLoad(500)] })
    await v.page.goto(site.origin)
    await openPanel(v.page)
    const notSent = conversation(v.page).locator("li.visitor.failed")
    const notice = v.page.getByRole("alert")
    // Parley answers 500 to the chat: the message stays, marked, with a Retry.
    await v.context.route("**/api/public/chat", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"boom","code":"internal"}' }),
    )
    await say(v.page, "first question")
    await expect.poll(() => notice.textContent()).toContain("Something went wrong")
    expect(await notice.getByRole("button", { name: "Retry" }).isVisible()).toBe(true)
    await say(v.page, "second question")
    await expect.poll(() => notSent.count()).toBe(2)
    // A reload keeps both, in order, with a way to send them (the panel that was open opens again).
    await v.page.reload()
    await expect.poll(() => panel(v.page).isVisible()).toBe(true)
    await expect
      .poll(() => notSent.allTextContents())
      .toEqual([expect.stringContaining("first question"), expect.stringContaining("second question")])
    await expect.poll(() => notice.textContent()).toContain("haven't been sent yet")
    await v.context.unroute("**/api/public/chat")
    await notice.getByRole("button", { name: "Retry" }).click()
    await reply(v.page, 2)
    expect(await notSent.count()).toBe(0)
    // Writing again is a retry too: a failure followed by a new message sends both once Parley answers.
    await v.context.route("**/api/public/chat", (route) => route.fulfill({ status: 500, body: "" }))
    await say(v.page, "third question")
    await expect.poll(() => notSent.count()).toBe(1)
    await v.context.unroute("**/api/public/chat")
    await say(v.page, "fourth question")
    await reply(v.page, 4)
    expect(await notSent.count()).toBe(0)
    expect(await notice.count()).toBe(0)
    await done(v)
  })

  it("says so when a paste passes the 2,000 characters a message may have, and sends what was kept", async () => {
    const v = await visitor()
    await v.page.goto(site.origin)
    await openPanel(v.page)
    const box = v.page.getByRole("textbox", { name: "Message" })
    await box.focus()
    await v.page.keyboard.insertText(`${"long question ".repeat(150)}end`)
    expect((await box.inputValue()).length).toBe(2000)
    await expect.poll(() => v.page.getByRole("status").filter({ hasText: "2,000 characters at most" }).count()).toBe(1)
    await box.press("Enter")
    await reply(v.page, 1)
    expect(await v.page.getByText("2,000 characters at most").count()).toBe(0)
    await done(v)
  })

  it("sends a message once when Parley had it and its answer was lost: a Retry or a reload finds it arrived", async () => {
    const v = await visitor({ expectedConsoleErrors: [/net::ERR_/] })
    await v.page.goto(site.origin)
    await openPanel(v.page)
    const notSent = conversation(v.page).locator("li.visitor.failed")
    const notice = v.page.getByRole("alert")
    const posted: Array<string> = []
    v.page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/public/chat"))
        posted.push(String((JSON.parse(request.postData() ?? "{}") as { message?: string }).message))
    })
    await say(v.page, "hello")
    await reply(v.page, 1)
    // Parley gets the message and answers it; the answer is lost on its way back.
    const lose = async (route: Route) => {
      await route.fetch()
      await route.abort("connectionreset")
    }
    await v.context.route("**/api/public/chat", lose)
    await say(v.page, "what are your prices?")
    await expect.poll(() => notSent.count()).toBe(1)
    await v.context.unroute("**/api/public/chat", lose)
    // Retry: the transcript has it, so it is shown sent with its reply instead of going twice.
    await notice.getByRole("button", { name: "Retry" }).click()
    await reply(v.page, 2)
    expect(await notSent.count()).toBe(0)
    // Lost again, then a reload before any Retry: read back once, and nothing left to retry.
    await v.context.route("**/api/public/chat", lose)
    await say(v.page, "and on Sundays?")
    await expect.poll(() => notSent.count()).toBe(1)
    await v.context.unroute("**/api/public/chat", lose)
    await v.page.reload()
    await expect.poll(() => panel(v.page).isVisible()).toBe(true)
    await reply(v.page, 3)
    expect(await notSent.count()).toBe(0)
    expect(await notice.count()).toBe(0)
    const said = await conversation(v.page).locator("li.visitor").allTextContents()
    expect(said.filter((text) => text.includes("prices"))).toHaveLength(1)
    expect(said.filter((text) => text.includes("Sundays"))).toHaveLength(1)
    expect(posted).toEqual(["hello", "what are your prices?", "and on Sundays?"])
    await done(v)
  })

  it("opens with the business's greeting under its name as the title, and speaks to visitors, never in API text", async () => {
    const v = await visitor({ expectedConsoleErrors: [failedLoad(400)] })
    await v.page.goto(site.origin)
    await openPanel(v.page)
    // The title defaults to the business's name and its greeting opens the empty conversation.
    await expect.poll(() => v.page.getByRole("heading", { name: "Demo" }).isVisible()).toBe(true)
    await expect.poll(() => conversation(v.page).locator("li.greeting").textContent()).toContain("welcome to Demo")
    await bookTab(v.page).click()
    const date = dayFromToday(3)
    await v.page.getByLabel("Date").fill(date)
    await expect.poll(() => v.page.getByRole("radio").count()).toBeGreaterThan(0)
    await v.page.getByRole("radio", { name: "11:00" }).check()
    await v.page.getByLabel("Name").fill("Kim")
    await v.page.getByLabel("Phone").fill("12")
    await v.page.getByRole("button", { name: "Book", exact: true }).click()
    const said = v.page.locator("parley-widget .form-message")
    await expect.poll(() => said.textContent()).toContain("Please check the phone number")
    expect(await said.textContent()).not.toMatch(/Invalid request|Expected|digits/)
    // The number as the visitor wrote it, not Parley's international digits.
    await v.page.getByLabel("Phone").fill("(415) 555-0188")
    await v.page.getByRole("button", { name: "Book", exact: true }).click()
    await expect.poll(() => v.page.getByRole("heading", { name: "You are booked" }).isVisible()).toBe(true)
    const confirmation = (await v.page.locator("parley-widget .confirmation").textContent()) ?? ""
    expect(confirmation).toContain("(415) 555-0188")
    expect(confirmation).not.toContain("14155550188")
    await done(v)
  })

  it("shows the refusal of a key limited to other sites (allowedOrigins), and works on a site it names", async () => {
    const shop = "https://shop.example"
    const restricted = await createWidgetKey(bed.parley.url, bed.adminKey, {
      name: "shop only",
      allowedOrigins: [shop],
    })
    // The same key on a site it does not name: the http loopback site (allowedOrigins are https only, §2.1).
    const elsewhere = await startHostPage({ parleyUrl: bed.parley.url, widgetKey: restricted })
    // The https site it names is served to Chromium by request interception (no certificate needed).
    // A public site using a Parley on loopback is what Chromium's Local Network Access asks the
    // visitor about; in production Parley is public too. Granted here, as a visitor would.
    const v = await newVisitor(bed.browser, [shop, elsewhere.origin, bed.parley.url], {
      expectedConsoleErrors: [failedLoad(403)],
      context: { permissions: ["local-network-access"] },
    })
    await v.context.route(`${shop}/**`, (route) =>
      route.fulfill(
        hostPageResponse({ parleyUrl: bed.parley.url, widgetKey: restricted }, new URL(route.request().url()).pathname),
      ),
    )
    await v.page.goto(`${shop}/`)
    await openPanel(v.page)
    await say(v.page, "Hello from the shop")
    expect((await reply(v.page, 1)).length).toBeGreaterThan(0)

    // On the site it does not name, Parley refuses (403 origin_not_allowed) and the panel says so.
    const warnings: Array<string> = []
    v.page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text())
    })
    await v.page.goto(elsewhere.origin)
    await openPanel(v.page)
    await say(v.page, "Hello from elsewhere")
    await expect.poll(() => v.page.getByRole("alert").textContent()).toBe("This chat is not available on this website.")
    expect(await v.page.getByRole("alert").getByRole("button").count()).toBe(0)
    expect(warnings).toContain("Parley widget: Origin not allowed for this API key")
    await done(v)
    await elsewhere.close()
  })
})

describe("for every visitor", () => {
  it("is used with the keyboard alone: focus trapped in the open panel, Escape closes it, a visible focus", async () => {
    const v = await visitor()
    await v.page.goto(site.origin)
    await launcher(v.page).focus()
    await v.page.keyboard.press("Enter")
    await expect.poll(() => panel(v.page).isVisible()).toBe(true)
    const focusInPanel = () =>
      v.page.evaluate(() => {
        const root = document.querySelector("parley-widget")?.shadowRoot
        const active = root?.activeElement
        return (
          active !== null && active !== undefined && root?.querySelector("[role=dialog]")?.contains(active) === true
        )
      })
    await expect.poll(focusInPanel).toBe(true)
    for (const key of ["Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
      await v.page.keyboard.press(key)
      expect(await focusInPanel(), `after ${key}`).toBe(true)
    }
    // Typing and sending with the keyboard only.
    await messageBox(v.page).focus()
    await v.page.keyboard.type("What are your opening hours?")
    await v.page.keyboard.press("Enter")
    await reply(v.page, 1)

    await v.page.keyboard.press("Escape")
    await expect.poll(() => panel(v.page).isVisible()).toBe(false)
    const focused = await v.page.evaluate(() => {
      const active = document.querySelector("parley-widget")?.shadowRoot?.activeElement
      if (!(active instanceof HTMLElement)) return undefined
      const style = getComputedStyle(active)
      return { label: active.getAttribute("aria-label"), outline: `${style.outlineStyle} ${style.outlineWidth}` }
    })
    expect(focused).toEqual({ label: "Open chat", outline: "solid 3px" })
    await done(v)
  })

  it("follows a right-to-left page, takes the page's colour with readable text, and fills a phone's screen", async () => {
    const rtl = await startHostPage({
      parleyUrl: bed.parley.url,
      widgetKey,
      dir: "rtl",
      attributes: { color: "#ffd400", title: "اسألنا" },
    })
    const v = await newVisitor(bed.browser, [rtl.origin, bed.parley.url], {
      context: { viewport: { width: 360, height: 740 }, reducedMotion: "reduce" },
    })
    await v.page.goto(rtl.origin)
    await expect.poll(() => launcher(v.page).isVisible()).toBe(true)
    const box = await launcher(v.page).boundingBox()
    // No data-parley-position: the inline end of a right-to-left page is its left.
    expect(box?.x).toBeLessThan(100)
    const colours = await launcher(v.page).evaluate((el) => {
      const style = getComputedStyle(el)
      return [style.backgroundColor, style.color]
    })
    expect(colours).toEqual(["rgb(255, 212, 0)", "rgb(17, 17, 17)"])

    await launcher(v.page).click()
    const dialog = v.page.getByRole("dialog", { name: "اسألنا" })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    // Below 480 px the panel is the whole screen; it runs right to left; it does not animate.
    expect(await dialog.boundingBox()).toEqual({ x: 0, y: 0, width: 360, height: 740 })
    const style = await dialog.evaluate((el) => [getComputedStyle(el).direction, getComputedStyle(el).animationName])
    expect(style).toEqual(["rtl", "none"])
    await say(v.page, "مرحبا، هل أنتم مفتوحون يوم السبت؟")
    await reply(v.page, 1)
    await expectAccessible(v.page, { screen: "panel on a phone, right to left, pale accent" })
    await saveScreenshot(v.page, "widget-phone-rtl")
    await done(v)
    await rtl.close()
  })

  it("looks and works the same on a page whose styles reach for everything", async () => {
    const v = await visitor()
    await v.page.goto(`${site.origin}/hostile`)
    await expect.poll(() => launcher(v.page).isVisible()).toBe(true)
    const look = await launcher(v.page).evaluate((el) => {
      const style = getComputedStyle(el)
      const box = el.getBoundingClientRect()
      return { size: [box.width, box.height], background: style.backgroundColor }
    })
    expect(look).toEqual({ size: [56, 56], background: "rgb(31, 95, 191)" })
    await openPanel(v.page)
    await say(v.page, "Hello")
    await reply(v.page, 1)
    const text = await conversation(v.page)
      .locator("li.assistant:not(.greeting) .bubble")
      .first()
      .evaluate((el) => {
        const style = getComputedStyle(el)
        return { font: style.fontFamily, color: style.color, shown: el.getClientRects().length > 0 }
      })
    expect(text).toEqual({ font: expect.stringMatching(/^system-ui/), color: "rgb(26, 26, 26)", shown: true })
    // …and the page's own text is still what its styles made it: the widget did not touch it.
    expect(await v.page.locator("h1").evaluate((el) => getComputedStyle(el).color)).toBe("rgb(255, 0, 255)")
    await done(v)
  })
})
