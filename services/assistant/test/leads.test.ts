import { setTimeout as sleep } from "node:timers/promises"
import type { OrgId } from "@parley/contracts"
import { withTransaction } from "@parley/db"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordLead } from "../src/leads/record-lead.ts"
import {
  admin,
  call,
  leadEventsOf,
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

type LeadPage = {
  data: Array<{
    id: string
    phone: string
    name: string
    type: string
    booking: unknown
    source: string
    createdAt: string
    updatedAt: string
  }>
  nextCursor: string | null
}

const chat = (orgId: OrgId, message: string) => widget(app, orgId, "POST", "/api/public/chat", { message })

describe("GET /api/leads", () => {
  it("lists leads newest first with every field", async () => {
    const orgId = newOrg()
    await chat(orgId, "I'm Dana, call me on 4155550001")
    await chat(orgId, "demo please, 4155550002")
    const response = await admin(app, orgId, "GET", "/api/leads")
    expect(response.statusCode).toBe(200)
    const page = response.json() as LeadPage
    expect(page.nextCursor).toBeNull()
    expect(page.data.map((l) => [l.phone, l.name, l.type, l.source])).toEqual([
      ["14155550002", "", "DEMO_REQUESTED", "chat"],
      ["14155550001", "Dana", "CALLBACK_REQUESTED", "chat"],
    ])
    expect(page.data[0]).toMatchObject({ id: expect.stringMatching(/^lead_/), booking: null })
    expect(page.data[0]?.createdAt).toMatch(/Z$/)
  })

  it("pages with limit and cursor without skipping or repeating, and filters by type", async () => {
    const orgId = newOrg()
    for (let i = 0; i < 7; i++)
      await chat(orgId, `${i % 2 === 0 ? "call me" : "hello"} at 41555510${String(i).padStart(2, "0")}`)
    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const url: string = `/api/leads?limit=3${cursor === null ? "" : `&cursor=${cursor}`}`
      const page = (await admin(app, orgId, "GET", url)).json() as LeadPage
      expect(page.data.length).toBeLessThanOrEqual(3)
      seen.push(...page.data.map((l) => l.phone))
      cursor = page.nextCursor
    } while (cursor !== null)
    expect(seen).toHaveLength(7)
    expect(new Set(seen).size).toBe(7)
    expect(seen[0]).toBe("14155551006")
    const callbacks = (await admin(app, orgId, "GET", "/api/leads?type=CALLBACK_REQUESTED")).json() as LeadPage
    expect(callbacks.data).toHaveLength(4)
  })

  it.each(["limit=0", "limit=101", "limit=abc", "type=SPAM", "cursor=bm9wZQ"])(
    "refuses ?%s with 400",
    async (query) => {
      const response = await admin(app, newOrg(), "GET", `/api/leads?${query}`)
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ code: "invalid_request" })
    },
  )

  it("shows an organization only its own leads", async () => {
    const owner = newOrg()
    await chat(owner, "call me 4155550003")
    expect((await admin(app, newOrg(), "GET", "/api/leads")).json()).toEqual({ data: [], nextCursor: null })
    expect((await call(app, owner, "widget", "GET", "/api/leads")).statusCode).toBe(403)
  })
})

describe("one lead per phone", () => {
  it("keeps concurrent turns about one number to one lead and one lead.created", async () => {
    const orgId = newOrg()
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        chat(orgId, i % 2 === 0 ? "call me at 4155550555" : "I'm Dana, 415 555 0555"),
      ),
    )
    expect(answers.every((a) => a.statusCode === 200)).toBe(true)
    // Eight conversations: the one that created the lead is told it; the other seven typed a number
    // whose lead another conversation made, and learn nothing of it (docs/contract.md §8).
    const told = answers.map((a) => (a.json() as { lead: { id: string } | null }).lead).filter((lead) => lead !== null)
    expect(told).toHaveLength(1)
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((e) => e.event)).toEqual(["lead.created"])
    const page = (await admin(app, orgId, "GET", "/api/leads")).json() as LeadPage
    expect(page.data).toHaveLength(1)
    expect(page.data[0]?.id).toBe(told[0]?.id)
  })
})

describe("recordLead", () => {
  it("merges into its own lead that another transaction created after its statement began", async () => {
    const orgId = newOrg()
    const phone = "4155550777"
    // Another turn's transaction holds a new lead for the number, not yet committed.
    const other = await infra.db.sql.reserve()
    await other`begin`
    await other`
      insert into assistant.leads (id, org_id, phone, name, type, last_type, source)
      values (${`lead_${orgId.slice(-20)}`}, ${orgId}, ${phone}, 'Dana', 'GENERAL_INQUIRY', 'GENERAL_INQUIRY', 'chat')`
    // This statement's insert waits for it; once it commits, the statement neither creates the lead
    // nor finds it (it began before), and the lead is read again.
    const recorded = infra.runtime.runPromise(
      withTransaction((tx) =>
        recordLead(tx, orgId, {
          phone,
          name: "",
          type: "CALLBACK_REQUESTED",
          booking: null,
          source: "cloud",
          own: true,
        }),
      ),
    )
    await sleep(200)
    await other`commit`
    other.release()
    expect(await recorded).toMatchObject({ outcome: "updated", type: "CALLBACK_REQUESTED", before: { name: "Dana" } })
    const [lead] = await infra.db.sql`select name, type from assistant.leads where org_id = ${orgId}`
    expect(lead).toEqual({ name: "Dana", type: "CALLBACK_REQUESTED" })
    expect((await leadEventsOf(infra, orgId)).map((e) => e.event)).toEqual(["lead.updated"])
  })
})

describe("GET /api/leads/export", () => {
  it("writes every lead as CSV with escaping and the formula guard", async () => {
    const orgId = newOrg()
    await chat(orgId, "my name is Dana, 4155550010")
    await infra.db.sql`
      insert into assistant.leads (id, org_id, phone, name, type, last_type, source)
      values ('lead_formula0000000000001', ${orgId}, '4155550011', '=HYPERLINK("http://evil")', 'GENERAL_INQUIRY', 'GENERAL_INQUIRY', 'chat'),
             ('lead_comma00000000000000001', ${orgId}, '4155550012', 'Scully, Dana', 'GENERAL_INQUIRY', 'GENERAL_INQUIRY', 'chat')`
    const response = await admin(app, orgId, "GET", "/api/leads/export")
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toMatch(/^text\/csv/)
    const lines = response.body.split("\r\n")
    expect(lines[0]).toBe("id,phone,name,type,booking_date,booking_time,booking_service,source,created_at,updated_at")
    expect(lines).toHaveLength(5)
    expect(response.body).toContain(`"'=HYPERLINK(""http://evil"")"`)
    expect(response.body).toContain(`"Scully, Dana"`)
    expect(response.body).toContain(",14155550010,Dana,GENERAL_INQUIRY,,,,chat,")
  })

  it("shows only the organization's leads, and only to an administrator (docs/contract.md §9)", async () => {
    const owner = newOrg()
    await chat(owner, "4155550020")
    const other = await admin(app, newOrg(), "GET", "/api/leads/export")
    expect(other.body.split("\r\n").filter((l) => l !== "")).toHaveLength(1)
    expect((await admin(app, owner, "GET", "/api/leads/export")).body).toContain(",14155550020,")
    for (const url of ["/api/leads/export", "/api/leads"]) {
      const member = await call(app, owner, "member", "GET", url)
      expect(member.statusCode, url).toBe(403)
      expect(member.json(), url).toMatchObject({ code: "admin_required" })
      expect(member.body, url).not.toContain("14155550020")
    }
  })

  it("exports only the leads of ?type=, as the filtered list shows them", async () => {
    const orgId = newOrg()
    await infra.db.sql`
      insert into assistant.leads (id, org_id, phone, name, type, last_type, source)
      values ('lead_typeb0000000000000001', ${orgId}, '4155550031', 'Booker', 'BOOKING', 'BOOKING', 'chat'),
             ('lead_typeg0000000000000001', ${orgId}, '4155550032', 'Asker', 'GENERAL_INQUIRY', 'GENERAL_INQUIRY', 'chat')`
    const response = await admin(app, orgId, "GET", "/api/leads/export?type=BOOKING")
    expect(response.statusCode).toBe(200)
    const rows = response.body.split("\r\n").filter((l) => l !== "")
    expect(rows).toHaveLength(2)
    expect(rows[1]).toContain(",4155550031,Booker,BOOKING,")
    expect((await admin(app, orgId, "GET", "/api/leads/export?type=NOPE")).statusCode).toBe(400)
  })
})
