import { randomBytes } from "node:crypto"
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"

/**
 * The secrets the embedded default generates on first start and keeps under the data directory,
 * so that a restart finds the same encryption key (webhook secrets and channel tokens stay readable)
 * and the same operator token. The file is private to the user running Parley (mode 0600).
 */
export interface StandaloneSecrets {
  readonly secretKey: string
  readonly internalSecret: string
  readonly operatorToken: string
}

export interface LoadedSecrets {
  readonly secrets: StandaloneSecrets
  readonly file: string
  readonly created: boolean
}

const isSecrets = (value: unknown): value is StandaloneSecrets =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as StandaloneSecrets).secretKey === "string" &&
  typeof (value as StandaloneSecrets).internalSecret === "string" &&
  typeof (value as StandaloneSecrets).operatorToken === "string"

export const generateSecrets = (): StandaloneSecrets => ({
  secretKey: randomBytes(32).toString("base64"),
  internalSecret: randomBytes(32).toString("base64url"),
  operatorToken: `parley_op_${randomBytes(32).toString("base64url")}`,
})

/** Reads `<dataDir>/secrets.json`, creating it (and the directory) with fresh secrets when absent. */
export const loadOrCreateSecrets = async (dataDir: string): Promise<LoadedSecrets> => {
  const file = join(dataDir, "secrets.json")
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  try {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"))
    if (!isSecrets(parsed)) throw new Error(`${file} is not a Parley secrets file; move it away to regenerate`)
    return { secrets: parsed, file, created: false }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
  }
  const secrets = generateSecrets()
  await writeFile(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: "wx" })
  await chmod(file, 0o600)
  return { secrets, file, created: true }
}

export interface LoadedVerifyToken {
  readonly token: string
  readonly file: string
  readonly created: boolean
}

/**
 * The cloud channel's webhook verify token (`PARLEY_CLOUD_VERIFY_TOKEN`, docs/contract.md §10.1), for an
 * operator who did not set one: generated on first start and kept in `<dataDir>/cloud-verify-token`
 * (mode 0600), so the value pasted into the provider's app settings stays valid across restarts. A
 * file of its own rather than a field of `secrets.json`, so installations made before it existed get
 * one without their secrets file being rewritten.
 */
export const loadOrCreateVerifyToken = async (dataDir: string): Promise<LoadedVerifyToken> => {
  const file = join(dataDir, "cloud-verify-token")
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  try {
    const token = (await readFile(file, "utf8")).trim()
    if (token === "") throw new Error(`${file} is empty; delete it to generate a new verify token`)
    return { token, file, created: false }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
  }
  const token = `parley_vt_${randomBytes(24).toString("base64url")}`
  await writeFile(file, `${token}\n`, { mode: 0o600, flag: "wx" })
  await chmod(file, 0o600)
  return { token, file, created: true }
}
