/**
 * Settings → Webhooks in a real browser against `npm start`: a webhook created with its secret
 * shown once, real events delivered to a receiver on loopback and seen in the delivery log
 * (filtered, redelivered, replayed), then disabled, rotated, edited and deleted.
 */
import { expectAccessible } from "@parley/browser-testing"
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
    const secret = await shown.getByLabel("Secret (X-Service-Signature)").inputValue()
    expect(Buffer.from(secret, "base64")).toHaveLength(32)
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

    await visitorLeavesNumber("+1 415 555 0100")
    const delivered = await untilLogShows(page, /lead\.created/)
    await visible(delivered.first().getByText("success"))
    await visible(delivered.first().getByRole("cell", { name: "204", exact: true }))
    expect(receiver.requests.some((r) => r.headers["x-service-event"] === "lead.created")).toBe(true)
    await visible(page.getByRole("region", { name: "Health" }).getByText("success"))

    // One attempt's detail, and a redelivery of it that the log waits for by itself.
    await delivered.first().getByText("Attempt 1", { exact: true }).click()
    const deliveryId = await delivered.first().locator("dd code").first().textContent()
    expect(deliveryId).toMatch(/^dlv_/)
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
    await admin.watch.expectClean()
  })

  it("disables and enables, rotates the secret, edits the events and deletes after a confirmation", async () => {
    const { page } = admin
    const health = page.getByRole("region", { name: "Health" })
    await health.getByRole("button", { name: "Disable" }).click()
    await visible(page.getByText("Disabled: nothing is delivered or queued for it until it is enabled."))
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
    const { createHmac } = await import("node:crypto")
    expect(next.headers["x-service-signature"]).toBe(
      `sha256=${createHmac("sha256", secret).update(next.body).digest("hex")}`,
    )

    const edit = page.getByRole("region", { name: "Edit" })
    await edit.getByRole("checkbox", { name: "lead.updated" }).uncheck()
    await edit.getByRole("button", { name: "Save changes" }).click()
    await visible(edit.getByText("Saved. The change applies to events from now on."))
    await visible(health.getByText("1 events"))

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
