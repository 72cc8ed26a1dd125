import { execFile } from "node:child_process"
import { createHmac } from "node:crypto"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { EventNames } from "../src/index.ts"
import { sampleEnvelope, sampleEventData } from "../src/testing.ts"

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
  it("a signed delivery of each of the eight events, signed on Node, verifies and decodes, by either signature; tampering, a bad signature or a stale signing time is refused", async () => {
    expect(existsSync(denoBinary)).toBe(true)
    const secret = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80="
    const now = Math.floor(Date.now() / 1000)
    const deliveries = EventNames.map((event, i) => {
      const body = JSON.stringify(sampleEnvelope(event))
      const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`
      const deliveryId = `dlv_deno${i}`
      // Standard Webhooks: keyed with the secret's decoded bytes, over id.timestamp.body.
      const standardAt = (timestamp: number) => ({
        timestamp,
        signature: `v1,${createHmac("sha256", Buffer.from(secret, "base64")).update(`${deliveryId}.${timestamp}.${body}`).digest("base64")}`,
      })
      return { event, body, signature, deliveryId, standard: standardAt(now), stale: standardAt(now - 600) }
    })
    expect(deliveries).toHaveLength(8)
    const input = JSON.stringify({ secret, deliveries })

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
    expect(findings.deliveries).toEqual(
      deliveries.map(({ event, signature, standard }) => ({
        event,
        timestamp: sampleEnvelope(event).timestamp,
        data: sampleEventData[event],
        bytesEvent: event,
        signature,
        tampered: "InvalidSignature",
        wrongSecret: "InvalidSignature",
        receiverGood: 200,
        receiverRetry: { received: event, duplicate: true },
        receiverBad: 401,
        standardSignature: standard.signature,
        standardWhsec: "verified",
        standardRegistered: "verified",
        standardTampered: "InvalidSignature",
        standardStale: "TimestampOutsideTolerance",
      })),
    )
  })
})
