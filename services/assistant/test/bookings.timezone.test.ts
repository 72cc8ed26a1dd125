import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  newOrg,
  type RunningApp,
  startApp,
  startInfrastructure,
  type TestInfrastructure,
  widget,
} from "./harness.ts"

let infra: TestInfrastructure
let app: RunningApp

beforeAll(async () => {
  infra = await startInfrastructure()
  app = await startApp(infra, { background: false })
})
afterAll(async () => {
  await app?.stop()
  await infra?.close()
})

/** The wall date and time in `timeZone` right now, as the test sees it. */
const wallClock = (timeZone: string, at = new Date()) => {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ""
  return { date: `${part("year")}-${part("month")}-${part("day")}`, time: `${part("hour")}:${part("minute")}` }
}

const ALL_DAY = [["00:00", "23:59"]]
const everyDay = { mon: ALL_DAY, tue: ALL_DAY, wed: ALL_DAY, thu: ALL_DAY, fri: ALL_DAY, sat: ALL_DAY, sun: ALL_DAY }

// UTC+14 and UTC−11: at most moments their "today" differ from each other and from UTC's.
describe.each(["Pacific/Kiritimati", "Pacific/Pago_Pago"])("an organization in %s", (timezone) => {
  it("takes today from its own clock: earlier slots are unavailable, later ones open, yesterday refused", async () => {
    const orgId = newOrg()
    const saved = await admin(app, orgId, "PUT", "/api/bookings/settings", {
      timezone,
      services: ["consultation"],
      slotMinutes: 60,
      capacity: 1,
      hours: everyDay,
    })
    expect(saved.statusCode).toBe(200)
    const now = wallClock(timezone)
    const response = await widget(app, orgId, "GET", `/api/public/bookings/slots?date=${now.date}`)
    expect(response.statusCode).toBe(200)
    const body = response.json() as { timezone: string; slots: Array<{ time: string; available: boolean }> }
    expect(body.timezone).toBe(timezone)
    const after = wallClock(timezone)
    for (const slot of body.slots) {
      // Slots that started before the request are unavailable; those starting after it are open.
      if (slot.time <= now.time) expect(slot.available, slot.time).toBe(false)
      if (slot.time > after.time && after.date === now.date) expect(slot.available, slot.time).toBe(true)
    }
    const yesterday = new Date(`${now.date}T12:00:00.000Z`)
    yesterday.setUTCDate(yesterday.getUTCDate() - 1)
    const refused = await widget(
      app,
      orgId,
      "GET",
      `/api/public/bookings/slots?date=${yesterday.toISOString().slice(0, 10)}`,
    )
    expect(refused.statusCode).toBe(400)
  })
})
