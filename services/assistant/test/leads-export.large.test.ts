import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { KeyId } from "@parley/contracts"
import { newId, signPrincipal } from "@parley/platform"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  INTERNAL_SECRET,
  newOrg,
  type RunningApp,
  startApp,
  startInfrastructure,
  type TestInfrastructure,
} from "./harness.ts"

// A real collection before each heap sample, so the figure is live memory rather than garbage.
setFlagsFromString("--expose-gc")
const collectGarbage = runInNewContext("gc") as () => void

let infra: TestInfrastructure
let app: RunningApp
let baseUrl: string

beforeAll(async () => {
  infra = await startInfrastructure()
  app = await startApp(infra, { background: false })
  baseUrl = await app.app.listen({ host: "127.0.0.1", port: 0 })
})
afterAll(async () => {
  await app?.stop()
  await infra?.close()
})

const LEADS = 100_000

describe("exporting a large organization", () => {
  it(`streams ${LEADS.toLocaleString("en")} leads without holding them in memory`, async () => {
    const orgId = newOrg()
    await infra.db.sql`
      insert into assistant.leads (id, org_id, phone, name, type, last_type, source, created_at, updated_at)
      select 'lead_' || lpad(n::text, 22, '0'), ${orgId}, (4150000000 + n)::text, 'Lead ' || n, 'GENERAL_INQUIRY',
             'GENERAL_INQUIRY', 'chat',
             now() - n * interval '1 second', now()
      from generate_series(1, ${LEADS}) as n`
    collectGarbage()
    const heapBefore = process.memoryUsage().heapUsed
    let peakHeap = heapBefore
    const started = performance.now()
    const response = await fetch(`${baseUrl}/api/leads/export`, {
      headers: {
        "x-parley-principal": signPrincipal(INTERNAL_SECRET, {
          orgId,
          role: "admin",
          actor: { type: "api_key", keyId: KeyId.make(newId("key")), scopes: [] },
          requestId: newId("req"),
        }),
      },
    })
    expect(response.status).toBe(200)
    const reader = response.body?.getReader()
    if (reader === undefined) throw new Error("no body")
    let lines = 0
    let bytes = 0
    let lastPhone = ""
    let chunks = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      bytes += value.byteLength
      const text = Buffer.from(value).toString("utf8")
      for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++
      const match = /,(\d{10}),Lead \d+,[^\r]*\r\n$/.exec(text)
      if (match?.[1] !== undefined) lastPhone = match[1]
      if (++chunks % 25 === 0) {
        collectGarbage()
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
      }
    }
    const seconds = (performance.now() - started) / 1000
    const growthMb = (peakHeap - heapBefore) / 1024 / 1024
    console.info(
      `export of ${LEADS} leads: ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${seconds.toFixed(2)} s, peak heap growth ${growthMb.toFixed(1)} MiB`,
    )
    expect(lines).toBe(LEADS + 1)
    // Newest first: the oldest lead (created n seconds ago, largest n) is the last line.
    expect(lastPhone).toBe(String(4150000000 + LEADS))
    // The whole file is ~12 MiB of text (and several times that as rows); a streamed export holds
    // about one batch of 1,000 rows at a time.
    expect(growthMb).toBeLessThan(8)
  }, 120_000)
})
