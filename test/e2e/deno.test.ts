import { execFile } from "node:child_process"
import { createHmac, randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { SecretBox } from "@parley/platform"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const run = promisify(execFile)
const repoRoot = fileURLToPath(new URL("../../", import.meta.url))
const denoBinary = join(repoRoot, "node_modules/.bin/deno")

// The core of Parley runs unchanged on Deno: the real Deno binary (the `deno` npm package) runs
// test/deno/core.ts, which imports the TypeScript sources themselves — @parley/platform's ids,
// hashing and secret box, @parley/contracts, the dispatcher's envelope signing and the assistant's
// deterministic engine — with only an import map for the package names (no deno.json, no build).
describe("Parley's core on Deno", () => {
  let denoDir: string
  let findings: Record<string, unknown>
  const secretKey = randomBytes(32).toString("base64")
  const box = SecretBox.fromBase64Key(secretKey)
  const plaintext = "channel access token sealed on Node"

  beforeAll(async () => {
    expect(existsSync(denoBinary), "node_modules/.bin/deno (the deno npm package)").toBe(true)
    denoDir = await mkdtemp(join(tmpdir(), "parley-deno-core-"))
    const input = JSON.stringify({
      sealedOnNode: box.seal(plaintext),
      secretKey,
      secretPlaintext: plaintext,
      today: "2026-11-22",
    })
    const { stdout } = await run(
      denoBinary,
      [
        "run",
        "--no-config",
        "--no-lock",
        "--node-modules-dir=manual",
        "--import-map=test/deno/import-map.json",
        "test/deno/core.ts",
        input,
      ],
      { cwd: repoRoot, env: { ...process.env, DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" } },
    )
    findings = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>
  }, 60_000)

  afterAll(async () => {
    if (denoDir !== undefined) await rm(denoDir, { recursive: true, force: true })
  })

  it("really ran on Deno 2", () => {
    expect(findings.runtime).toMatch(/^deno 2\./)
  })

  it("makes prefixed 128-bit ids, all different", () => {
    const ids = findings.ids as Array<string>
    expect(ids).toHaveLength(3)
    for (const id of ids) expect(id).toMatch(/^(wh|dlv)_[0-9A-Za-z]{22}$/)
    expect(new Set(ids).size).toBe(3)
  })

  it("hashes and signs exactly as Node does", () => {
    expect(findings.sha256).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    expect(findings.hmac).toBe("f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
    expect(findings.constantTime).toEqual([true, false])
  })

  it("opens a secret sealed on Node, and Node opens one sealed on Deno", () => {
    expect(findings.openedFromNode).toBe(plaintext)
    expect(box.open(findings.sealedHere as string)).toBe("sealed on deno")
  })

  it("parses API keys by their checksum and refuses a mistyped one", () => {
    expect(findings.parsedKey).toBe("A1b2C3d4E5f6")
    expect(findings.mistypedKey).toBeNull()
  })

  it("signs the dispatcher's envelope so that Node's HMAC and @parley/webhooks on Deno agree", () => {
    const body = findings.body as string
    expect(JSON.parse(body)).toEqual({
      event: "lead.created",
      timestamp: "2026-11-22T09:30:00.000Z",
      data: { phone: "14155550100", name: "Dana", type: "CALLBACK_REQUESTED", booking: null },
    })
    const secret = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80="
    expect(findings.signature).toBe(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`)
    expect(findings.verifiedEvent).toBe("lead.created")
    // The Standard Webhooks headers, signed on Deno with the current and a previous key, verified on
    // Deno by either key; here their signatures are checked against Node's HMAC.
    const headers = findings.attemptHeaders as Record<string, string>
    expect(headers["x-service-signature"]).toBe(findings.signature)
    expect(headers["webhook-id"]).toBe("dlv_4tQ2yK8pX1mN7bV3cZ9wL0")
    const standard = (key: Buffer) =>
      `v1,${createHmac("sha256", key).update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`).digest("base64")}`
    expect(headers["webhook-signature"]).toBe(
      `${standard(Buffer.from(secret, "base64"))} ${standard(Buffer.from("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", "base64"))}`,
    )
    expect(findings.standardVerified).toEqual(["lead.created", "lead.created"])
  })

  it("runs the assistant's deterministic engine: a callback lead, then a booking", () => {
    expect(findings.firstReply).toEqual(expect.stringMatching(/\S/))
    expect(findings.firstLead).toMatchObject({
      phone: "14155550100",
      name: "Dana",
      type: "CALLBACK_REQUESTED",
      booking: null,
    })
    expect(findings.secondRequest).toEqual({ kind: "book", date: "2026-11-24", time: "09:30", service: "consultation" })
    expect(findings.secondReply).toContain("booked")
    expect(findings.secondLead).toMatchObject({
      phone: "14155550100",
      type: "BOOKING",
      booking: { date: "2026-11-24", time: "09:30", service: "consultation" },
    })
  })
})
