import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  asTenant,
  newOrg,
  type RunningApp,
  setCountry,
  startApp,
  startInfrastructure,
  type TestInfrastructure,
  testConfig,
} from "./harness.ts"

let infra: TestInfrastructure
let app: RunningApp
const orgId = newOrg()
const otherOrg = newOrg()

beforeAll(async () => {
  infra = await startInfrastructure()
  app = await startApp(infra, { config: testConfig("http://127.0.0.1:9"), background: false })
})

afterAll(async () => {
  await app?.stop()
  await infra?.close()
})

const importCsv = (csv: string | Buffer, org = orgId, contentType = "text/csv") =>
  asTenant(app, org, "POST", "/api/contacts/import", csv, { "content-type": contentType })

describe("importing contacts", () => {
  it("imports phone and name columns, reading national numbers with the organization's country, and reports per-line errors", async () => {
    const csv = [
      "Name,Phone,Notes",
      "Dana,+1 (415) 555-0100,vip",
      '"Lee, Sam",415.555.0101,',
      "Nobody,not a number,",
      ",,",
      "Dup,14155550100,",
      "Empty,,",
      '"Multi\nLine",+44 7700 900123,"say ""hi"""',
    ].join("\r\n")
    const response = await importCsv(csv)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      imported: 3,
      skipped: 1,
      errors: [
        { line: 4, error: "phone is not a phone number (digits, spaces, + ( ) . - only)" },
        { line: 7, error: "phone is empty" },
      ],
    })
    const listed = await asTenant(app, orgId, "GET", "/api/contacts")
    const byPhone = new Map(listed.json().data.map((c: { phone: string; name: string }) => [c.phone, c.name]))
    expect(byPhone).toEqual(
      new Map([
        ["14155550100", "Dana"],
        // 415.555.0101 in a US organization (the default country), not a Swiss 41… number.
        ["14155550101", "Lee, Sam"],
        ["447700900123", "Multi\nLine"],
      ]),
    )
  })

  it("reports, saying why, a number of a right length that the organization's country and no other plan has", async () => {
    const org = newOrg()
    await setCountry(infra, org, "GB")
    const response = await importCsv("phone,name\n(415) 555-0110,Dana\n07700 900123,Sam\n+1 123 456 7890,Lee\n", org)
    expect(response.json()).toEqual({
      imported: 1,
      skipped: 0,
      errors: [
        { line: 2, error: "phone (415) 555-0110 is not a number in GB's plan nor an international one" },
        { line: 4, error: "phone +1 123 456 7890 is not a number in any country's plan" },
      ],
    })
    const listed = await asTenant(app, org, "GET", "/api/contacts")
    expect(listed.json().data.map((c: { phone: string }) => c.phone)).toEqual(["447700900123"])
  })

  it("counts rows that change nothing as skipped and updates changed names", async () => {
    const response = await importCsv("phone,name\n14155550100,Dana\n4155550101,Sam Lee\n")
    expect(response.json()).toEqual({ imported: 1, skipped: 1, errors: [] })
  })

  it("refuses a file without a phone column with 400 and writes nothing", async () => {
    const response = await importCsv("name,mobile\nDana,14155550199\n")
    expect(response.statusCode).toBe(400)
    const rows = await infra.db.sql`select count(*)::int as n from messaging.contacts where phone = '14155550199'`
    expect(rows[0]?.n).toBe(0)
  })

  it("answers 415 to another content type and 413 above 10 MiB", async () => {
    expect((await importCsv("phone\n14155550100\n", orgId, "application/json")).statusCode).toBe(415)
    expect((await importCsv("phone\n14155550100\n", orgId, "text/plain")).statusCode).toBe(415)
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, "1")
    const tooLarge = await importCsv(big)
    expect(tooLarge.statusCode).toBe(413)
    expect(tooLarge.json()).toMatchObject({ code: "payload_too_large" })
  })

  it("imports a file of exactly 10 MiB, the limit itself, rather than answering 413", async () => {
    // ~10,000 contacts with a long ignored column fill the limit to the byte; trailing blanks pad
    // the rest (a blank last line is no row). Long rows keep the parse and the upserts fast.
    const limit = 10 * 1024 * 1024
    const notes = "x".repeat(1000)
    const lines = ["phone,name,notes\n"]
    let size = lines[0]?.length ?? 0
    for (let i = 0; ; i++) {
      const line = `+1 651 ${String(i).padStart(7, "0")},N${i},${notes}\n`
      if (size + line.length > limit) break
      lines.push(line)
      size += line.length
    }
    const file = Buffer.from(lines.join("") + " ".repeat(limit - size))
    expect(file.length).toBe(limit)
    const response = await importCsv(file, newOrg())
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ imported: lines.length - 1, skipped: 0, errors: [] })
  })

  it("imports 50,000 rows in one request", async () => {
    const lines = [
      "phone,name",
      ...Array.from({ length: 50_000 }, (_, i) => `+1 650 ${String(i).padStart(7, "0")},N${i}`),
    ]
    const started = performance.now()
    const response = await importCsv(lines.join("\n"), newOrg())
    const seconds = (performance.now() - started) / 1000
    console.info(`contacts import: 50000 rows in ${seconds.toFixed(2)} s`)
    expect(response.json()).toMatchObject({ imported: 50_000, skipped: 0, errors: [] })
  })

  it("pages contacts newest first and shows another organization none of them", async () => {
    const first = await asTenant(app, orgId, "GET", "/api/contacts?limit=2")
    expect(first.json().data).toHaveLength(2)
    const next = await asTenant(app, orgId, "GET", `/api/contacts?limit=2&cursor=${first.json().nextCursor}`)
    expect(next.json().data).toHaveLength(1)
    expect(next.json().nextCursor).toBeNull()
    expect((await asTenant(app, otherOrg, "GET", "/api/contacts")).json()).toEqual({ data: [], nextCursor: null })
  })
})

describe("uploading media", () => {
  it("stores an image and answers 201 with its id, type, size and sha256", async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
    const response = await asTenant(app, orgId, "POST", "/api/media", bytes, { "content-type": "image/png" })
    expect(response.statusCode).toBe(201)
    const body = response.json()
    expect(body).toEqual({
      id: expect.stringMatching(/^med_/),
      contentType: "image/png",
      size: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    })
    const [row] = await infra.db.sql`select org_id, bytes from messaging.media where id = ${body.id}`
    expect(row?.org_id).toBe(orgId)
    expect(Buffer.compare(row?.bytes as Buffer, bytes)).toBe(0)
  })

  it("accepts video, audio and PDF, and answers 415 to anything else", async () => {
    for (const type of ["video/mp4", "audio/ogg", "application/pdf"]) {
      expect(
        (await asTenant(app, orgId, "POST", "/api/media", Buffer.from("x"), { "content-type": type })).statusCode,
      ).toBe(201)
    }
    for (const type of ["text/plain", "application/zip", "application/json"]) {
      const response = await asTenant(app, orgId, "POST", "/api/media", Buffer.from("{}"), { "content-type": type })
      expect(response.statusCode).toBe(type === "application/json" ? 415 : 415)
    }
  })

  it("stores an upload of exactly 16 MiB, the limit itself, with 201 and every byte", async () => {
    const bytes = Buffer.alloc(16 * 1024 * 1024, 0xab)
    const response = await asTenant(app, orgId, "POST", "/api/media", bytes, { "content-type": "video/mp4" })
    expect(response.statusCode).toBe(201)
    expect(response.json()).toMatchObject({
      contentType: "video/mp4",
      size: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    })
    const [row] = await infra.db
      .sql`select octet_length(bytes) as n from messaging.media where id = ${response.json().id}`
    expect(row?.n).toBe(bytes.length)
  })

  it("answers 413 above 16 MiB and stores nothing", async () => {
    const response = await asTenant(app, orgId, "POST", "/api/media", Buffer.alloc(16 * 1024 * 1024 + 1), {
      "content-type": "video/mp4",
    })
    expect(response.statusCode).toBe(413)
    const rows = await infra.db.sql`select count(*)::int as n from messaging.media where size > 16777216`
    expect(rows[0]?.n).toBe(0)
  })
})
