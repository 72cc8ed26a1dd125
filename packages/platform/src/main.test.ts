import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url))

/** Runs `program` (module code with `runMain`, `jsonFailureReport` and Effect's `Effect` in scope) as a process. */
const run = (program: string) =>
  spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { runMain, jsonFailureReport } from ${JSON.stringify(MAIN)}\nimport { Effect } from "effect"\n${program}`,
    ],
    { encoding: "utf8", cwd: fileURLToPath(new URL("..", import.meta.url)), timeout: 20_000 },
  )

describe("runMain", () => {
  it("reports a deployed service's failure as one JSON line in the shape of its logs, and exits 1", () => {
    const result = run(
      `class InvalidSecretKey extends Error { name = "InvalidSecretKey" }
runMain(Effect.fail(new InvalidSecretKey("PARLEY_SECRET_KEY must be 32 bytes")), { report: jsonFailureReport("webhook-registry") })`,
    )
    expect(result.status).toBe(1)
    const lines = result.stderr.split("\n").filter((line) => line !== "")
    expect(lines).toHaveLength(1)
    const line = JSON.parse(lines[0] as string) as Record<string, unknown>
    expect(line).toMatchObject({
      level: "fatal",
      service: "webhook-registry",
      msg: "webhook-registry stopped: PARLEY_SECRET_KEY must be 32 bytes",
      err: { type: "InvalidSecretKey", message: "PARLEY_SECRET_KEY must be 32 bytes" },
    })
    expect(Number.isNaN(Date.parse(String(line.time)))).toBe(false)
    expect(String((line.err as { stack: string }).stack)).toContain("PARLEY_SECRET_KEY must be 32 bytes")
  })

  it("keeps Effect's readable cause for a program without a reporter (npm start, in a terminal)", () => {
    const result = run(`runMain(Effect.fail(new Error("boom")))`)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("boom")
    expect(() => JSON.parse(result.stderr)).toThrow()
  })

  it("exits 0 when the program ends", () => {
    expect(run(`runMain(Effect.void)`).status).toBe(0)
  })
})
