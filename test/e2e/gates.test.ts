import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkGates, gateTable, setUpGateCredentials } from "./support/gate-table.ts"
import { type System, startSystem } from "./support/system.ts"

// The heavy limit well under the general one, so the `RateLimit-Limit` a heavy route answers with
// shows that its heavy limit counted it (docs/contract.md §3: the tighter limit answers).
const HEAVY_LIMIT = 1000

describe("one path, one gate: npm start (one process)", () => {
  let system: System

  beforeAll(async () => {
    system = await startSystem({ env: { PARLEY_RATE_HEAVY_PER_MIN: String(HEAVY_LIMIT) } })
  }, 120_000)
  afterAll(async () => {
    await system?.close()
  }, 60_000)

  it("gates every spelling of every declared route as the route it is served as, or answers 404", async () => {
    const credentials = await setUpGateCredentials(system.url, system.operatorToken)
    const rows = gateTable(credentials, HEAVY_LIMIT)
    expect(rows.length).toBeGreaterThan(500)
    const failures = await checkGates(system.url, rows)
    expect(failures, failures.join("\n")).toEqual([])
  }, 120_000)
})
