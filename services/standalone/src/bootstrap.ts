/**
 * First start of the embedded default: a demo organization with an administrator and a full-access
 * API key, created through the public API like any operator would (so the first thing Parley does
 * is exercise its own entry points). A marker under the data dir — holding no secret — makes it
 * happen once; the password and the key are shown once, as the contract promises for keys.
 */
import { randomBytes } from "node:crypto"
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import type postgres from "postgres"
import { request } from "undici"

export interface DemoAccount {
  readonly organizationId: string
  readonly adminEmail: string
  readonly adminPassword: string
  readonly apiKey: string
}

interface BootstrapMarker {
  readonly organizationId: string
  readonly adminEmail: string
  readonly createdAt: string
  /** `databaseIdentity` of the database the demo organization was created in. */
  readonly database?: string
}

/**
 * Names one database for good: its cluster's system identifier (new at every initdb) and its own
 * OID (new whenever it is recreated). A marker written for another database — the PGlite one of
 * earlier versions, or a cluster deleted since — does not count: that database holds no demo org.
 */
export const databaseIdentity = async (sql: postgres.Sql): Promise<string> => {
  const [row] = await sql<Array<{ id: string }>>`
    select (select system_identifier from pg_control_system())::text || '/' || oid::text as id
    from pg_database where datname = current_database()`
  return row?.id ?? ""
}

export const DEMO_ADMIN_EMAIL = "admin@demo.parley.local"

const markerFile = (dataDir: string) => join(dataDir, "bootstrap.json")

/** The marker of the demo organization created in `database`, if there is one. */
export const readBootstrapMarker = async (dataDir: string, database: string): Promise<BootstrapMarker | undefined> => {
  try {
    const marker = JSON.parse(await readFile(markerFile(dataDir), "utf8")) as BootstrapMarker
    return marker.database === database ? marker : undefined
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw error
  }
}

interface Call {
  readonly method: "GET" | "POST"
  readonly headers?: Record<string, string>
  readonly json?: unknown
}

interface Answer {
  readonly headers: Record<string, string | Array<string> | undefined>
  json(): Promise<unknown>
}

/**
 * One call to this process's own API through undici's `request` (the client every service already
 * loads), not the global `fetch`: that is Node's own bundled copy of undici, whose ~2 MB of source
 * and compiled code npm start would otherwise keep for good for these three calls (issue #28's memory
 * target).
 */
const call = async (url: string, init: Call): Promise<Answer> => {
  const headers: Record<string, string> = { ...init.headers }
  if (init.json !== undefined) headers["content-type"] = "application/json"
  const response = await request(url, {
    method: init.method,
    headers,
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    signal: AbortSignal.timeout(15_000),
  })
  if (response.statusCode < 200 || response.statusCode > 299) {
    const body = await response.body.text()
    throw new Error(`demo bootstrap: ${init.method} ${new URL(url).pathname} answered ${response.statusCode} ${body}`)
  }
  return { headers: response.headers, json: () => response.body.json() }
}

/** Creates the demo organization, logs its administrator in and mints a legacy (full-access) key. */
export const createDemoAccount = async (
  baseUrl: string,
  operatorToken: string,
  dataDir: string,
  database: string,
): Promise<DemoAccount> => {
  const adminPassword = randomBytes(12).toString("base64url")
  const created = await call(`${baseUrl}/api/operator/organizations`, {
    method: "POST",
    headers: { authorization: `Bearer ${operatorToken}` },
    json: { name: "Demo", features: ["api_access"], admin: { email: DEMO_ADMIN_EMAIL, password: adminPassword } },
  })
  const { organization } = (await created.json()) as { organization: { id: string } }
  const login = await call(`${baseUrl}/api/auth/login`, {
    method: "POST",
    json: { email: DEMO_ADMIN_EMAIL, password: adminPassword },
  })
  const setCookie = login.headers["set-cookie"]
  const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(";")[0]
  if (cookie === undefined) throw new Error("demo bootstrap: login set no session cookie")
  const keyResponse = await call(`${baseUrl}/api/org/api-keys`, {
    method: "POST",
    headers: { cookie },
    json: { name: "Demo full-access key" },
  })
  const { key } = (await keyResponse.json()) as { key: string }
  const marker: BootstrapMarker = {
    organizationId: organization.id,
    adminEmail: DEMO_ADMIN_EMAIL,
    createdAt: new Date().toISOString(),
    database,
  }
  await writeFile(markerFile(dataDir), `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o600 })
  return { organizationId: organization.id, adminEmail: DEMO_ADMIN_EMAIL, adminPassword, apiKey: key }
}
