import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { serviceEnvironment } from "./environment.ts"
import { generateSecrets, loadOrCreateSecrets, loadOrCreateVerifyToken } from "./secrets.ts"

const dirs: string[] = []
const freshDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "parley-secrets-"))
  dirs.push(dir)
  return join(dir, "data")
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

describe("standalone secrets", () => {
  it("creates a private secrets file with a 32-byte encryption key on first start", async () => {
    const dataDir = await freshDir()
    const loaded = await loadOrCreateSecrets(dataDir)
    expect(loaded.created).toBe(true)
    expect(Buffer.from(loaded.secrets.secretKey, "base64")).toHaveLength(32)
    expect(loaded.secrets.operatorToken).toMatch(/^parley_op_[A-Za-z0-9_-]{43}$/)
    expect((await stat(loaded.file)).mode & 0o777).toBe(0o600)
  })

  it("keeps the same secrets across restarts", async () => {
    const dataDir = await freshDir()
    const first = await loadOrCreateSecrets(dataDir)
    const second = await loadOrCreateSecrets(dataDir)
    expect(second.created).toBe(false)
    expect(second.secrets).toEqual(first.secrets)
  })

  it("refuses a secrets file that is not Parley's instead of silently replacing it", async () => {
    const dataDir = await freshDir()
    const { file } = await loadOrCreateSecrets(dataDir)
    await writeFile(file, JSON.stringify({ something: "else" }))
    await expect(loadOrCreateSecrets(dataDir)).rejects.toThrow(/not a Parley secrets file/)
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ something: "else" })
  })
})

describe("the cloud webhook verify token", () => {
  it("is generated once into a private file under the data directory and kept across restarts", async () => {
    const dataDir = await freshDir()
    const first = await loadOrCreateVerifyToken(dataDir)
    expect(first.created).toBe(true)
    expect(first.token).toMatch(/^parley_vt_[A-Za-z0-9_-]{32}$/)
    expect(first.file).toBe(join(dataDir, "cloud-verify-token"))
    expect((await stat(first.file)).mode & 0o777).toBe(0o600)
    const second = await loadOrCreateVerifyToken(dataDir)
    expect(second).toEqual({ ...first, created: false })
  })

  it("is given to the services only when the operator set none", () => {
    const secrets = generateSecrets()
    const generated = { cloudVerifyToken: "parley_vt_generated" }
    expect(serviceEnvironment({}, secrets, "/data", generated).PARLEY_CLOUD_VERIFY_TOKEN).toBe("parley_vt_generated")
    expect(
      serviceEnvironment({ PARLEY_CLOUD_VERIFY_TOKEN: "mine" }, secrets, "/data", generated).PARLEY_CLOUD_VERIFY_TOKEN,
    ).toBe("mine")
  })
})
