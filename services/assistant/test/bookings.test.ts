import type { OrgId } from "@parley/contracts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  call,
  futureWeekday,
  leadEventsOf,
  newOrg,
  pastDate,
  type RunningApp,
  recordsOn,
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

const book = (orgId: OrgId, body: Record<string, unknown>) =>
  widget(app, orgId, "POST", "/api/public/bookings", {
    name: "Dana Scully",
    phone: "+1 415 555 0100",
    service: "consultation",
    ...body,
  })

type Slots = {
  date: string
  timezone: string
  services: Array<string>
  slots: Array<{ time: string; available: boolean }>
}

describe("slots", () => {
  it("offers the defaults to a new organization: UTC, Monday–Friday 09:00–17:00 in 30-minute slots", async () => {
    const date = futureWeekday(1)
    const response = await widget(app, newOrg(), "GET", `/api/public/bookings/slots?date=${date}&service=consultation`)
    expect(response.statusCode).toBe(200)
    const body = response.json() as Slots
    expect(body.date).toBe(date)
    expect(body.timezone).toBe("UTC")
    // The widget's booking form lists the services from here (the public surface has no other way).
    expect(body.services).toEqual(["consultation"])
    expect(body.slots).toHaveLength(16)
    expect(body.slots[0]).toEqual({ time: "09:00", available: true })
    expect(body.slots.at(-1)).toEqual({ time: "16:30", available: true })
  })

  it("shows the defaults as the settings of a new organization", async () => {
    const response = await admin(app, newOrg(), "GET", "/api/bookings/settings")
    expect(response.json()).toEqual({
      timezone: "UTC",
      country: "US",
      services: ["consultation"],
      slotMinutes: 30,
      capacity: 1,
      hours: {
        mon: [["09:00", "17:00"]],
        tue: [["09:00", "17:00"]],
        wed: [["09:00", "17:00"]],
        thu: [["09:00", "17:00"]],
        fri: [["09:00", "17:00"]],
        sat: [],
        sun: [],
      },
    })
  })

  it("offers nothing on a weekend by default", async () => {
    const response = await widget(app, newOrg(), "GET", `/api/public/bookings/slots?date=${futureWeekday(6)}`)
    expect((response.json() as Slots).slots).toEqual([])
  })

  it.each([
    ["date=2026-13-01", 400],
    ["date=tomorrow", 400],
    ["", 400],
    [`date=${pastDate()}`, 400],
    [`date=${futureWeekday(1)}&service=massage`, 409],
  ])("answers ?%s with %i", async (query, status) => {
    const response = await widget(app, newOrg(), "GET", `/api/public/bookings/slots?${query}`)
    expect(response.statusCode).toBe(status)
  })

  it("computes slots in the organization's time zone from its own settings", async () => {
    const orgId = newOrg()
    const settings = {
      timezone: "Pacific/Auckland",
      country: "NZ",
      services: ["haircut", "colour"],
      slotMinutes: 60,
      capacity: 2,
      hours: {
        sat: [
          ["10:00", "12:00"],
          ["13:00", "15:00"],
        ],
      },
    }
    const saved = await admin(app, orgId, "PUT", "/api/bookings/settings", settings)
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toMatchObject({
      timezone: "Pacific/Auckland",
      country: "NZ",
      capacity: 2,
      hours: { mon: [], sat: settings.hours.sat },
    })
    // The country other services read numbers with goes out with the save (messaging's projection).
    expect(await recordsOn(infra, "parley.assistant.settings.v1", orgId)).toEqual([
      { orgId, country: "NZ", changedAt: expect.stringMatching(/Z$/) },
    ])
    const response = await widget(
      app,
      orgId,
      "GET",
      `/api/public/bookings/slots?date=${futureWeekday(6)}&service=colour`,
    )
    expect(response.json()).toMatchObject({
      timezone: "Pacific/Auckland",
      slots: [
        { time: "10:00", available: true },
        { time: "11:00", available: true },
        { time: "13:00", available: true },
        { time: "14:00", available: true },
      ],
    })
  })
})

describe("booking settings validation", () => {
  const valid = { timezone: "Europe/Berlin", services: ["consultation"], slotMinutes: 30, capacity: 1, hours: {} }
  it.each([
    [{ ...valid, timezone: "Mars/Olympus" }, "timezone"],
    [{ ...valid, services: [] }, "services"],
    [{ ...valid, slotMinutes: 0 }, "slotMinutes"],
    [{ ...valid, slotMinutes: 12.5 }, "slotMinutes"],
    [{ ...valid, capacity: 0 }, "capacity"],
    [{ ...valid, hours: { mon: [["9:00", "17:00"]] } }, "hours.mon[0][0]"],
    [{ ...valid, hours: { mon: [["17:00", "09:00"]] } }, "hours.mon[0]"],
    [{ ...valid, hours: { tue: [["09:00", "24:00"]] } }, "hours.tue[0][1]"],
    [{ ...valid, country: "us" }, "country"],
    [{ ...valid, country: "USA" }, "country"],
    [{ ...valid, country: "XX" }, "country"],
  ])("refuses %j naming %s", async (body, field) => {
    const response = await admin(app, newOrg(), "PUT", "/api/bookings/settings", body)
    expect(response.statusCode).toBe(400)
    const error = response.json() as { code: string; issues: Array<{ path: string }> }
    expect(error.code).toBe("invalid_request")
    expect(error.issues.map((i) => i.path)).toContain(field)
  })

  it("is for administrators only", async () => {
    const response = await call(app, newOrg(), "member", "PUT", "/api/bookings/settings", valid)
    expect(response.statusCode).toBe(403)
    expect(response.json()).toMatchObject({ code: "admin_required" })
  })
})

describe("bookings", () => {
  it("confirms a booking and records the lead as a BOOKING with lead.created", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    const response = await book(orgId, { date, time: "11:00", notes: "first visit" })
    expect(response.statusCode, response.body).toBe(201)
    const body = response.json() as Record<string, unknown>
    expect(body).toEqual({
      id: expect.stringMatching(/^bkg_/),
      name: "Dana Scully",
      phone: "14155550100",
      date,
      time: "11:00",
      service: "consultation",
      status: "confirmed",
      // A form booking with no session starts one, for the chat to move or cancel it (issue #23).
      sessionId: expect.stringMatching(/^ses_/),
    })
    expect(await leadEventsOf(infra, orgId)).toMatchObject([
      {
        event: "lead.created",
        data: {
          phone: "14155550100",
          name: "Dana Scully",
          type: "BOOKING",
          booking: { date, time: "11:00", service: "consultation" },
        },
      },
    ])
    const listed = await admin(app, orgId, "GET", `/api/bookings?date=${date}`)
    // The list is unchanged: the session is the widget's, not the dashboard's.
    const { sessionId: _sessionId, ...booking } = body
    expect((listed.json() as { data: Array<unknown> }).data).toEqual([
      { ...booking, notes: "first visit", createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/) },
    ])
  })

  it("updates a known lead with lead.updated when it books", async () => {
    const orgId = newOrg()
    await widget(app, orgId, "POST", "/api/public/chat", { message: "call me back at +1 415 555 0100" })
    await book(orgId, { date: futureWeekday(4), time: "12:00" })
    expect((await leadEventsOf(infra, orgId)).map((e) => [e.event, e.data.type])).toEqual([
      ["lead.created", "CALLBACK_REQUESTED"],
      ["lead.updated", "BOOKING"],
    ])
  })

  it("answers a repeated booking of the same slot by the same phone with the booking it holds in the session that made it, and as full to anyone else", async () => {
    const orgId = newOrg()
    const date = futureWeekday(5)
    const first = await book(orgId, { date, time: "15:00" })
    expect(first.statusCode).toBe(201)
    const { id, sessionId } = first.json() as { id: string; sessionId: string }
    const again = await book(orgId, { date, time: "15:00", phone: "+1 (415) 555-0100", sessionId })
    expect(again.statusCode).toBe(201)
    expect((again.json() as { id: string }).id).toBe(id)
    // Someone else typing that number and slot learns nothing of the booking: the slot is full to them.
    const stranger = await book(orgId, { date, time: "15:00", phone: "+1 (415) 555-0100", name: "Mallory" })
    expect(stranger.statusCode).toBe(409)
    expect(stranger.json()).toMatchObject({ code: "conflict" })
    expect(stranger.body).not.toContain(id)
    expect(stranger.body).not.toContain("Dana")
    expect((await leadEventsOf(infra, orgId)).map((e) => e.event)).toEqual(["lead.created"])
    const listed = await admin(app, orgId, "GET", `/api/bookings?date=${date}`)
    expect((listed.json() as { data: Array<unknown> }).data).toHaveLength(1)
  })

  it("answers 409 when the slot is full and the slot turns unavailable", async () => {
    const orgId = newOrg()
    const date = futureWeekday(2)
    expect((await book(orgId, { date, time: "09:00" })).statusCode).toBe(201)
    const second = await book(orgId, { date, time: "09:00", phone: "4155550199" })
    expect(second.statusCode).toBe(409)
    expect(second.json()).toMatchObject({ code: "conflict" })
    const slots = (await widget(app, orgId, "GET", `/api/public/bookings/slots?date=${date}`)).json() as Slots
    expect(slots.slots.find((s) => s.time === "09:00")?.available).toBe(false)
  })

  it("gives exactly one of two simultaneous bookings of the last place", async () => {
    const orgId = newOrg()
    const date = futureWeekday(3)
    for (let round = 0; round < 5; round++) {
      const time = `1${round}:00`
      const answers = await Promise.all([
        book(orgId, { date, time, phone: `41555501${round}1` }),
        book(orgId, { date, time, phone: `41555501${round}2` }),
      ])
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409])
    }
    const listed = await admin(app, orgId, "GET", `/api/bookings?date=${date}`)
    expect((listed.json() as { data: Array<unknown> }).data).toHaveLength(5)
  })

  it.each([
    [{ time: "09:15" }, 409, "conflict"],
    [{ time: "17:00" }, 409, "conflict"],
    [{ service: "massage" }, 409, "conflict"],
    [{ date: pastDate() }, 409, "conflict"],
    [{ date: "2026-02-30" }, 400, "invalid_request"],
    [{ time: "9am" }, 400, "invalid_request"],
    [{ phone: "123" }, 400, "invalid_request"],
    [{ name: "" }, 400, "invalid_request"],
    [{ name: "   " }, 400, "invalid_request"],
  ])("refuses %j with %i %s", async (change, status, code) => {
    const response = await book(newOrg(), { date: futureWeekday(1), time: "10:00", ...change })
    expect(response.statusCode).toBe(status)
    expect(response.json()).toMatchObject({ code })
  })

  it("never lists another organization's bookings", async () => {
    const owner = newOrg()
    const date = futureWeekday(5)
    await book(owner, { date, time: "10:00" })
    const listed = await admin(app, newOrg(), "GET", `/api/bookings?date=${date}`)
    expect(listed.json()).toEqual({ data: [], nextCursor: null })
    const slots = (await widget(app, newOrg(), "GET", `/api/public/bookings/slots?date=${date}`)).json() as Slots
    expect(slots.slots.find((s) => s.time === "10:00")?.available).toBe(true)
  })

  it("lists bookings newest first a page at a time, each once, with or without a date", async () => {
    const orgId = newOrg()
    const [monday, tuesday] = [futureWeekday(1), futureWeekday(2)]
    const made: Array<string> = []
    for (const [i, date] of [monday, monday, tuesday, monday, tuesday].entries()) {
      const answer = await book(orgId, { date, time: `1${i}:00`, phone: `+1 415 555 01${i}0` })
      expect(answer.statusCode).toBe(201)
      made.push((answer.json() as { id: string }).id)
    }
    const pages = async (query: string) => {
      const ids: Array<string> = []
      const sizes: Array<number> = []
      let cursor: string | null = null
      do {
        const url = `/api/bookings?${query}limit=2${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
        const answer = await admin(app, orgId, "GET", url)
        expect(answer.statusCode).toBe(200)
        const body = answer.json() as { data: Array<{ id: string }>; nextCursor: string | null }
        ids.push(...body.data.map((booking) => booking.id))
        sizes.push(body.data.length)
        cursor = body.nextCursor
      } while (cursor !== null)
      return { ids, sizes }
    }
    expect(await pages("")).toEqual({ ids: [...made].reverse(), sizes: [2, 2, 1] })
    expect(await pages(`date=${monday}&`)).toEqual({ ids: [made[3], made[1], made[0]], sizes: [2, 1] })
    // Without `limit`, 50 at most (docs/contract.md §1); a cursor this API did not issue is a 400.
    const all = (await admin(app, orgId, "GET", "/api/bookings")).json() as { data: Array<unknown>; nextCursor: null }
    expect([all.data.length, all.nextCursor]).toEqual([5, null])
    for (const query of ["limit=0", "limit=101", "cursor=not-a-cursor"]) {
      const refused = await admin(app, orgId, "GET", `/api/bookings?${query}`)
      expect([query, refused.statusCode, (refused.json() as { code: string }).code]).toEqual([
        query,
        400,
        "invalid_request",
      ])
    }
  })

  it("lists bookings to an administrator only (docs/contract.md §9): a member, a widget key and a member's cancel are refused", async () => {
    const orgId = newOrg()
    expect((await call(app, orgId, "admin", "GET", "/api/bookings")).json()).toEqual({ data: [], nextCursor: null })
    const member = await call(app, orgId, "member", "GET", "/api/bookings")
    expect(member.statusCode).toBe(403)
    expect(member.json()).toMatchObject({ code: "admin_required" })
    expect((await call(app, newOrg(), "widget", "GET", "/api/bookings")).statusCode).toBe(403)
    expect((await call(app, orgId, "member", "DELETE", "/api/bookings/bkg_000000000000000000000")).statusCode).toBe(403)
  })
})
