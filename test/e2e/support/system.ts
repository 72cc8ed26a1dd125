/**
 * The whole of Parley in this test process (`startStandalone`, on a fresh Postgres database and the
 * local Redis), a loopback stand-in for the messaging provider, and helpers that act as a tenant
 * would — through the gateway's HTTP only: create an organization through the operator API, log its
 * administrator in, add members, mint keys of every kind.
 */
import { createHmac, randomBytes } from "node:crypto"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type DatabaseLink, type FreshDatabase, freshDatabase, startDatabaseLink } from "@parley/db/testing"
import { freePort, type StubServer, startHttpServer } from "@parley/platform/testing"
import { type RunningStandalone, startStandalone } from "@parley/standalone"
import { cloudProviderHandler } from "@parley/standalone/testing"
import { Effect, Exit, Scope } from "effect"

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The body parsed as JSON, `undefined` when it is not JSON; tests read it as a tenant would. */
  // biome-ignore lint/suspicious/noExplicitAny: any answer of the contract, narrowed by each assertion
  readonly body: any
}

export interface CallOptions {
  /** Sent as `X-API-Key`. */
  readonly key?: string
  /** The session cookie value (`parley_session=…`). */
  readonly cookie?: string
  /** Serialized as JSON with `Content-Type: application/json`. */
  readonly json?: unknown
  /** Sent as is; give `contentType` with it. */
  readonly raw?: string | Uint8Array
  readonly contentType?: string
  readonly headers?: Record<string, string>
  /** Abort (the call rejects) when no answer came within this time. */
  readonly timeoutMs?: number
}

/** A caller bound to a credential: `tenant.admin.post("/api/org/webhooks", { url })`. */
export interface Client {
  get(path: string, options?: CallOptions): Promise<Answer>
  delete(path: string, options?: CallOptions): Promise<Answer>
  post(path: string, json?: unknown, options?: CallOptions): Promise<Answer>
  put(path: string, json?: unknown, options?: CallOptions): Promise<Answer>
  patch(path: string, json?: unknown, options?: CallOptions): Promise<Answer>
}

export interface Member {
  readonly id: string
  readonly email: string
  readonly password: string
  readonly cookie: string
  readonly client: Client
}

export interface MintedKey {
  readonly id: string
  readonly key: string
  readonly record: Record<string, unknown>
  readonly client: Client
}

export interface Tenant {
  readonly orgId: string
  readonly name: string
  /** The administrator's session. */
  readonly admin: Member
  /** Adds a user of the organization and logs them in. */
  addMember(role?: "admin" | "member"): Promise<Member>
  /** Mints a key through the administrator's session (201 required). */
  mintKey(scopes?: ReadonlyArray<string>, allowedOrigins?: ReadonlyArray<string>): Promise<MintedKey>
}

export interface System {
  readonly url: string
  /** `PARLEY_PUBLIC_URL`: the one origin sessions may send. */
  readonly publicUrl: string
  readonly operatorToken: string
  readonly provider: StubServer
  readonly running: RunningStandalone
  /** The fresh database the system runs on. */
  readonly database: FreshDatabase
  /** The TCP hop between the services and Postgres, to take the database away and bring it back. */
  readonly databaseLink: DatabaseLink
  call(method: string, path: string, options?: CallOptions): Promise<Answer>
  client(credential: { key?: string; cookie?: string }): Client
  /** A new organization (with `api_access` unless `features` says otherwise) and its logged-in administrator. */
  createTenant(options?: { features?: ReadonlyArray<string>; name?: string }): Promise<Tenant>
  login(email: string, password: string): Promise<string>
  /** The cloud provider calling Parley back: a payload signed with `PARLEY_CLOUD_APP_SECRET`. */
  /** `headers`: more to send (a `traceparent`, say) beside the provider's signature. */
  providerCallback(payload: unknown, headers?: Record<string, string>): Promise<Answer>
  close(): Promise<void>
}

export interface SystemOptions {
  /** Extra environment (e.g. a small `PARLEY_RATE_GENERAL_PER_MIN`). */
  readonly env?: Record<string, string>
}

const CLOSE_BUDGET_MS = 20_000

const unique = () => randomBytes(6).toString("hex")

export const startSystem = async (options: SystemOptions = {}): Promise<System> => {
  const root = await mkdtemp(join(tmpdir(), "parley-system-"))
  const db: FreshDatabase = await freshDatabase()
  const link = await startDatabaseLink(db.url)
  const databaseUrl = link.url
  const provider = await startHttpServer(cloudProviderHandler)
  const scope = Effect.runSync(Scope.make())
  const port = await freePort()
  const publicUrl = `http://127.0.0.1:${port}`
  const operatorToken = randomBytes(24).toString("base64url")
  const env: Record<string, string> = {
    PARLEY_DATA_DIR: join(root, "data"),
    PARLEY_HOST: "127.0.0.1",
    PARLEY_PORT: String(port),
    PARLEY_METRICS_PORT: String(await freePort()),
    PARLEY_PUBLIC_URL: publicUrl,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
    PARLEY_OPERATOR_TOKEN: operatorToken,
    PARLEY_SECRET_KEY: randomBytes(32).toString("base64"),
    PARLEY_INTERNAL_SECRET: randomBytes(32).toString("base64url"),
    PARLEY_CLOUD_APP_SECRET: randomBytes(16).toString("hex"),
    PARLEY_CLOUD_VERIFY_TOKEN: randomBytes(8).toString("hex"),
    PARLEY_CLOUD_API_URL: provider.url,
    // Unauthenticated requests are counted per client IP, and every test of the machine is
    // 127.0.0.1 on the same Redis: only the rate-limit test's own system runs with a small limit.
    PARLEY_RATE_GENERAL_PER_MIN: "1000000",
    PARLEY_RATE_HEAVY_PER_MIN: "1000000",
    PARLEY_LOG_LEVEL: "warn",
    ...options.env,
  }
  let running: RunningStandalone
  try {
    running = await Effect.runPromise(startStandalone(env).pipe(Scope.provide(scope)))
  } catch (error) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await provider.close()
    await link.close()
    await db.close()
    throw error
  }
  const url = running.url

  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...o.headers }
    if (o.key !== undefined) headers["x-api-key"] = o.key
    if (o.cookie !== undefined) headers.cookie = o.cookie
    let body: string | Uint8Array | undefined
    if (o.json !== undefined) {
      body = JSON.stringify(o.json)
      headers["content-type"] = o.contentType ?? "application/json"
    } else if (o.raw !== undefined) {
      body = o.raw
      if (o.contentType !== undefined) headers["content-type"] = o.contentType
    }
    const signal = o.timeoutMs === undefined ? undefined : AbortSignal.timeout(o.timeoutMs)
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      // A fresh ArrayBuffer-backed copy: fetch's types take Uint8Array<ArrayBuffer> only.
      body: typeof body === "string" || body === undefined ? body : new Uint8Array(body),
      ...(signal === undefined ? {} : { signal }),
    })
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = text === "" ? undefined : JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { status: response.status, headers: response.headers, text, body: parsed }
  }

  const client = (credential: { key?: string; cookie?: string }): Client => ({
    get: (path, o) => call("GET", path, { ...credential, ...o }),
    delete: (path, o) => call("DELETE", path, { ...credential, ...o }),
    post: (path, json, o) => call("POST", path, { ...credential, ...(json === undefined ? {} : { json }), ...o }),
    put: (path, json, o) => call("PUT", path, { ...credential, ...(json === undefined ? {} : { json }), ...o }),
    patch: (path, json, o) => call("PATCH", path, { ...credential, ...(json === undefined ? {} : { json }), ...o }),
  })

  const login = async (email: string, password: string): Promise<string> => {
    const answer = await call("POST", "/api/auth/login", { json: { email, password } })
    if (answer.status !== 200) throw new Error(`login of ${email}: ${answer.status} ${answer.text}`)
    const cookie = /parley_session=[^;]+/.exec(answer.headers.get("set-cookie") ?? "")?.[0]
    if (cookie === undefined) throw new Error(`login of ${email}: no parley_session cookie`)
    return cookie
  }

  const createTenant = async (o: { features?: ReadonlyArray<string>; name?: string } = {}): Promise<Tenant> => {
    const name = o.name ?? `Org ${unique()}`
    const email = `admin-${unique()}@example.com`
    const password = `pw-${randomBytes(12).toString("hex")}`
    const created = await call("POST", "/api/operator/organizations", {
      headers: { authorization: `Bearer ${operatorToken}` },
      json: { name, features: o.features ?? ["api_access"], admin: { email, password } },
    })
    if (created.status !== 201) throw new Error(`create organization: ${created.status} ${created.text}`)
    const cookie = await login(email, password)
    const admin: Member = { id: created.body.admin.id, email, password, cookie, client: client({ cookie }) }
    return {
      orgId: created.body.organization.id,
      name,
      admin,
      addMember: async (role = "member") => {
        const memberEmail = `${role}-${unique()}@example.com`
        const memberPassword = `pw-${randomBytes(12).toString("hex")}`
        const added = await admin.client.post("/api/org/members", {
          email: memberEmail,
          password: memberPassword,
          role,
        })
        if (added.status !== 201) throw new Error(`add member: ${added.status} ${added.text}`)
        const memberCookie = await login(memberEmail, memberPassword)
        return {
          id: added.body.id,
          email: memberEmail,
          password: memberPassword,
          cookie: memberCookie,
          client: client({ cookie: memberCookie }),
        }
      },
      mintKey: async (scopes, allowedOrigins) => {
        const minted = await admin.client.post("/api/org/api-keys", {
          name: `key ${unique()}`,
          ...(scopes === undefined ? {} : { scopes }),
          ...(allowedOrigins === undefined ? {} : { allowedOrigins }),
        })
        if (minted.status !== 201) throw new Error(`mint key: ${minted.status} ${minted.text}`)
        return {
          id: minted.body.id,
          key: minted.body.key,
          record: minted.body,
          client: client({ key: minted.body.key }),
        }
      },
    }
  }

  return {
    url,
    publicUrl,
    operatorToken,
    provider,
    running,
    database: db,
    databaseLink: link,
    call,
    client,
    createTenant,
    login,
    providerCallback: (payload, headers = {}) => {
      const raw = JSON.stringify(payload)
      const signature = createHmac("sha256", env.PARLEY_CLOUD_APP_SECRET as string)
        .update(raw)
        .digest("hex")
      return call("POST", "/channels/cloud/webhook", {
        raw,
        contentType: "application/json",
        headers: { ...headers, "x-hub-signature-256": `sha256=${signature}` },
      })
    },
    close: async () => {
      // A shutdown that hangs is a finding, not a reason to hold the suite for a hook's minute:
      // wait 20 s, clean up what is ours, then say so.
      let timer: NodeJS.Timeout | undefined
      const closed = await Promise.race([
        Effect.runPromise(Scope.close(scope, Exit.void)).then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), CLOSE_BUDGET_MS)
        }),
      ])
      clearTimeout(timer)
      await provider.close()
      await link.close()
      await db.close()
      await rm(root, { recursive: true, force: true })
      if (!closed) throw new Error(`startStandalone's scope did not close within ${CLOSE_BUDGET_MS / 1000} s`)
    },
  }
}

/** Every error body is exactly `{ error, code }` or `{ error, code, issues }` (docs/contract.md §1). */
export const errorShape = (answer: Answer): { status: number; code: unknown; error: unknown; keys: string } => ({
  status: answer.status,
  code: answer.body?.code,
  error: answer.body?.error,
  keys: Object.keys(answer.body ?? {})
    .filter((k) => k !== "issues")
    .sort()
    .join(","),
})
