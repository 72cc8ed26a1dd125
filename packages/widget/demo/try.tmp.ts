import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { launchChromium } from "@parley/browser-testing"
import { embeddedEnvironment, firstStartCredentials, startStandaloneProcess } from "@parley/standalone/testing"
import { startHostPage } from "./host-page.ts"
import { createWidgetKey } from "./parley-setup.ts"

const label = process.argv[2] ?? "now"
const dataDir = await mkdtemp(join(tmpdir(), "asst-try-"))
const parley = await startStandaloneProcess(await embeddedEnvironment(dataDir), { timeoutMs: 240_000 })
const admin = firstStartCredentials(parley.output())!.apiKey
const put = (path: string, body: unknown) =>
  fetch(new URL(path, parley.url), { method: "PUT", headers: { "x-api-key": admin, "content-type": "application/json" }, body: JSON.stringify(body) })
const wk = [["09:00", "17:00"]]
await put("/api/bookings/settings", { timezone: "America/New_York", country: "US", services: ["cleaning", "check-up"], slotMinutes: 30, capacity: 1, hours: { mon: wk, tue: wk, wed: wk, thu: wk, fri: wk, sat: [["10:00", "14:00"]], sun: [["10:00", "13:00"]] } })
await put("/api/assistant/profile", { businessName: "Harbour Dental", languages: ["en", "fr", "es"], about: "Harbour Dental is a family dental practice. You'll find us at 12 Quay Street, Portland, above the bakery.", faqs: [{ question: "Is there parking?", answer: "Yes, free parking behind the building on Mill Lane." }] })
const widgetKey = await createWidgetKey(parley.url, admin)
const site = await startHostPage({ parleyUrl: parley.url, widgetKey })
const browser = await launchChromium()
for (const width of [1280, 375]) {
  const context = await browser.newContext({ viewport: { width, height: width === 375 ? 740 : 800 } })
  const page = await context.newPage()
  await page.goto(site.origin)
  await page.getByRole("button", { name: "Open chat" }).click()
  await page.getByRole("dialog").waitFor()
  await page.waitForTimeout(800)
  await page.screenshot({ path: `/tmp/asst-shots/${label}-${width}-open.png` })
  const box = page.getByRole("textbox", { name: "Message" })
  const turns = ["Are you open now?", "Is parking easy round there, or should I take the bus?", "Where are you located?", "Can I book a cleaning tomorrow at 10? I'm Sam, (415) 555-0188", "Bonjour, je voudrais un rendez-vous demain à 14h", "move it to 12:00"]
  for (const [i, t] of turns.entries()) {
    await box.fill(t)
    await box.press("Enter")
    await page.locator("parley-widget li.assistant:not(.typing):not(.greeting)").nth(i).waitFor({ timeout: 30000 })
  }
  await page.waitForTimeout(300)
  await page.screenshot({ path: `/tmp/asst-shots/${label}-${width}-chat.png` })
  const texts = await page.locator("parley-widget li .bubble").allTextContents()
  console.log(`--- ${label} ${width}px\n${texts.join("\n")}`)
  await context.close()
}
await browser.close()
await site.close()
await parley.stop()
