import { execFile } from "node:child_process"
import { createHmac } from "node:crypto"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"

/**
 * The library claims to run unchanged on Deno (Web Crypto only, no `node:` imports). This runs a
 * script under the real Deno binary from the `deno` npm package, importing the library's source
 * by relative path (`effect` resolved from node_modules, `--no-config` so no deno.json helps).
 */
const run = promisify(execFile)
const packageDir = fileURLToPath(new URL("..", import.meta.url))
const denoBinary = join(packageDir, "../../node_modules/.bin/deno")
const script = fileURLToPath(new URL("./deno/verify-delivery.ts", import.meta.url))
const denoDir = mkdtempSync(join(tmpdir(), "parley-deno-"))

afterAll(() => rmSync(denoDir, { recursive: true, force: true }))

describe("on Deno", () => {
  it("a delivery signed on Node verifies, and tampering or a bad signature is refused", async () => {
    expect(existsSync(denoBinary)).toBe(true)
    const secret = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80="
    const data = {
      phone: "14155550100",
      name: "Dana",
      type: "BOOKING",
      booking: { date: "2026-11-24", time: "09:30", service: "consultation" },
    }
    const body = JSON.stringify({ event: "lead.updated", timestamp: "2026-11-22T09:30:00.000Z", data })
    const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`
    const input = JSON.stringify({ secret, body, signature, deliveryId: "dlv_4tQ2yK8pX1mN7bV3cZ9wL0" })

    const { stdout } = await run(
      denoBinary,
      [
        "run",
        "--no-config",
        "--no-lock",
        "--node-modules-dir=manual",
        "--allow-env=PARLEY_WEBHOOK_SECRET",
        script,
        input,
      ],
      { cwd: packageDir, env: { ...process.env, DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" } },
    )
    const findings = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")

    expect(findings.runtime).toMatch(/^deno 2\./)
    expect(findings.event).toBe("lead.updated")
    expect(findings.data).toEqual(data)
    expect(findings.bytesEvent).toBe("lead.updated")
    expect(findings.signature).toBe(signature)
    expect(findings.tampered).toBe("InvalidSignature")
    expect(findings.wrongSecret).toBe("InvalidSignature")
    expect(findings.receiverGood).toBe(200)
    expect(findings.receiverRetry).toEqual({ received: "lead.updated", duplicate: true })
    expect(findings.receiverBad).toBe(401)
  })
})
