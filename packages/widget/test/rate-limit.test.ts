/**
 * A 429 as a visitor meets it (docs/contract.md §3, §15): a Parley of its own with a general limit of 8
 * requests a minute, so that the key runs into the real limit in a few messages. The panel says so
 * with the seconds of `Retry-After`, offers a retry, and loses nothing the visitor typed — not across
 * a retry that is refused again, nor across a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type HostPage, startHostPage } from "../demo/host-page.ts"
import { createWidgetKey } from "../demo/parley-setup.ts"
import { failedLoad, newVisitor, startTestbed, type WidgetTestbed } from "./support/parley.ts"

const LIMIT = 8

let bed: WidgetTestbed
let site: HostPage

beforeAll(async () => {
  bed = await startTestbed({ PARLEY_RATE_GENERAL_PER_MIN: String(LIMIT) })
  const widgetKey = await createWidgetKey(bed.parley.url, bed.adminKey, { scopes: ["chat:write", "chat:read"] })
  site = await startHostPage({ parleyUrl: bed.parley.url, widgetKey })
})
afterAll(async () => {
  await site?.close()
  await bed?.close()
})

describe("a key over its rate limit", () => {
  it("shows the 429 with its Retry-After and a retry, and keeps every message and the draft", async () => {
    const v = await newVisitor(bed.browser, [site.origin, bed.parley.url], {
      // Preflights count against the address's 8 a minute too: after the reload, reading the history
      // back may be refused at its preflight (Chromium reports that as a CORS failure). The history
      // then simply waits; what is tested is that nothing typed is lost.
      expectedConsoleErrors: [failedLoad(429), failedLoad(403), /blocked by CORS policy/, /net::ERR_FAILED/],
    })
    const { page } = v
    const limited: Array<string | null> = []
    page.on("response", (response) => {
      if (response.status() === 429) limited.push(response.headers()["retry-after"] ?? null)
    })
    await page.goto(site.origin)
    await page.getByRole("button", { name: "Open chat" }).click()
    const box = page.getByRole("textbox", { name: "Message" })
    const notice = page.getByRole("alert")
    const notSent = page.getByRole("list", { name: "Conversation" }).locator("li.visitor.failed")

    // Message after message, each answered, until Parley refuses one (a bounded number of tries).
    let sent = 0
    while ((await notice.count()) === 0 && sent < LIMIT + 2) {
      sent += 1
      await box.fill(`Question ${sent}`)
      await box.press("Enter")
      await expect
        .poll(
          async () =>
            (await notice.count()) +
            (await page.locator("parley-widget li.assistant:not(.typing):not(.greeting)").count()),
        )
        .toBeGreaterThanOrEqual(sent)
    }
    await expect.poll(() => notice.textContent()).toMatch(/^Too many messages at once\. You can retry in \d+ s\.Retry$/)
    const seconds = Number(/in (\d+) s/.exec((await notice.textContent()) ?? "")?.[1])
    expect(seconds).toBeGreaterThanOrEqual(1)
    expect(seconds).toBeLessThanOrEqual(60)
    expect(Number(limited[0])).toBeGreaterThanOrEqual(seconds)
    expect(await notSent.count()).toBe(1)
    const refused = `Question ${sent}`
    expect(await notSent.locator(".bubble").textContent()).toBe(refused)

    // Still limited: Retry is refused again, and the message is still there, once.
    await notice.getByRole("button", { name: "Retry" }).click()
    await expect.poll(() => limited.length).toBe(2)
    await expect.poll(() => notice.count()).toBe(1)
    expect(await notSent.locator(".bubble").allTextContents()).toEqual([refused])

    // Another message waits its turn behind the refused one; a half-written draft stays in the box.
    await box.fill("One more thing")
    await box.press("Enter")
    expect(await notSent.locator(".bubble").allTextContents()).toEqual([refused, "One more thing"])
    await box.fill("Half a thought")

    // A reload while limited: the messages not yet sent and the draft come back.
    await page.reload()
    await expect.poll(() => page.getByRole("dialog").isVisible()).toBe(true)
    await expect.poll(() => notSent.locator(".bubble").allTextContents()).toEqual([refused, "One more thing"])
    expect(await box.inputValue()).toBe("Half a thought")
    await v.watch.expectClean()
    await v.context.close()
  })
})
