/**
 * One identity service per test file: a fresh database, the single-node bus on it, the app built
 * by `makeIdentityApp` exactly as standalone builds it, and a collected log. Requests go through
 * Fastify (`app.inject`) with principals signed by @parley/platform, as the gateway would send them.
 */
import { Writable } from "node:stream"
import { Bus, type BusRecord, type OutgoingRecord, SingleNodeBus } from "@parley/bus"
import { OrgId, type Principal, UserId } from "@parley/contracts"
import { Database } from "@parley/db"
import { freshDatabase } from "@parley/db/testing"
import { internalCallHeaders, makeLogger, PRINCIPAL_HEADER, sha256Hex, signPrincipal } from "@parley/platform"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import type { FastifyInstance, LightMyRequestResponse } from "fastify"
import type postgres from "postgres"
import { makeIdentityApp } from "../src/app.ts"

export const OPERATOR_TOKEN = `op_${crypto.randomUUID()}`
export const INTERNAL_SECRET = `internal-${crypto.randomUUID()}`

export interface Harness {
  readonly app: FastifyInstance
  readonly sql: postgres.Sql
  readonly logs: Array<string>
  /** Publishes on the service's bus, as a gateway would. */
  readonly publish: (records: ReadonlyArray<OutgoingRecord>) => Promise<void>
  /** Every record of `topic` from the beginning, collected as a new consumer group sees them. */
  readonly collect: (topic: string) => Promise<Array<BusRecord>>
  readonly close: () => Promise<void>
}

export interface HarnessOptions {
  readonly operatorToken?: string | undefined
  readonly publicUrl?: string
}

export const startIdentity = async (options: HarnessOptions = { operatorToken: OPERATOR_TOKEN }): Promise<Harness> => {
  const db = await freshDatabase()
  const logs: Array<string> = []
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk))
      done()
    },
  })
  const logger = makeLogger({ service: "identity", level: "debug", destination })
  const scope = Effect.runSync(Scope.make())
  const layer = SingleNodeBus.layer({ timings: {} }).pipe(Layer.provideMerge(Database.layer({ url: db.url })))
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const { http: app } = await Effect.runPromise(
    Effect.gen(function* () {
      return yield* makeIdentityApp({
        logger,
        internalSecret: Redacted.make(INTERNAL_SECRET),
        operatorToken: options.operatorToken === undefined ? undefined : Redacted.make(options.operatorToken),
        publicUrl: options.publicUrl ?? "http://localhost:3000",
        // A cheaper scrypt keeps the suite fast; the parameters travel with each hash either way.
        passwordCost: { log2N: 12, r: 8, p: 1 },
        keyUsageBatching: { lingerMs: 20, maxBatch: 100 },
      }).pipe(Effect.provideContext(context), Scope.provide(scope))
    }),
  )
  return {
    app,
    sql: db.sql,
    logs,
    publish: (records) =>
      Effect.runPromise(Bus.use((bus) => bus.publish(records)).pipe(Effect.provideContext(context))),
    collect: async (topic) => {
      const seen: Array<BusRecord> = []
      await Effect.runPromise(
        Bus.use((bus) =>
          bus.subscribe({ groupId: `test-${crypto.randomUUID()}`, topics: [topic] }, (record) =>
            Effect.sync(() => {
              seen.push(record)
            }),
          ),
        ).pipe(Effect.provideContext(context), Scope.provide(scope)),
      )
      return seen
    },
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await db.close()
    },
  }
}

export const principalHeader = (principal: Omit<Principal, "requestId">): Record<string, string> => ({
  [PRINCIPAL_HEADER]: signPrincipal(INTERNAL_SECRET, { ...principal, requestId: crypto.randomUUID() } as Principal),
})

export const operatorHeaders = { authorization: `Bearer ${OPERATOR_TOKEN}` }

export interface TestOrganization {
  readonly orgId: OrgId
  readonly adminId: UserId
  readonly adminEmail: string
  readonly adminPassword: string
  /** Headers of the admin's dashboard session, as the gateway forwards it. */
  readonly admin: Record<string, string>
}

let counter = 0
export const uniqueEmail = (label = "user"): string =>
  `${label}.${Date.now().toString(36)}.${counter++}.${Math.random().toString(36).slice(2, 8)}@example.com`

/** An organization made through the operator API, with `api_access` unless told otherwise. */
export const createOrganization = async (
  harness: Harness,
  options: { features?: Array<string>; name?: string } = {},
): Promise<TestOrganization> => {
  const adminEmail = uniqueEmail("admin")
  const adminPassword = `pw-${crypto.randomUUID()}`
  const response = await harness.app.inject({
    method: "POST",
    url: "/api/operator/organizations",
    headers: operatorHeaders,
    payload: {
      name: options.name ?? "Acme",
      features: options.features ?? ["api_access"],
      admin: { email: adminEmail, password: adminPassword },
    },
  })
  if (response.statusCode !== 201) throw new Error(`createOrganization: ${response.statusCode} ${response.body}`)
  const body = response.json() as { organization: { id: string }; admin: { id: string } }
  const orgId = OrgId.make(body.organization.id)
  const adminId = UserId.make(body.admin.id)
  return {
    orgId,
    adminId,
    adminEmail,
    adminPassword,
    admin: principalHeader({ orgId, role: "admin", actor: { type: "user", userId: adminId } }),
  }
}

/** Adds a member (through the API) and returns its id, password and principal headers. */
export const addMember = async (
  harness: Harness,
  org: TestOrganization,
  role: "admin" | "member" = "member",
): Promise<{ id: UserId; email: string; password: string; headers: Record<string, string> }> => {
  const email = uniqueEmail(role)
  const password = `pw-${crypto.randomUUID()}`
  const response = await harness.app.inject({
    method: "POST",
    url: "/api/org/members",
    headers: org.admin,
    payload: { email, password, role },
  })
  if (response.statusCode !== 201) throw new Error(`addMember: ${response.statusCode} ${response.body}`)
  const id = UserId.make((response.json() as { id: string }).id)
  return {
    id,
    email,
    password,
    headers: principalHeader({ orgId: org.orgId, role, actor: { type: "user", userId: id } }),
  }
}

export const createKey = async (
  harness: Harness,
  org: TestOrganization,
  payload: Record<string, unknown> = { name: "server" },
): Promise<LightMyRequestResponse> =>
  harness.app.inject({ method: "POST", url: "/api/org/api-keys", headers: org.admin, payload })

export const internalPost = (harness: Harness, url: string, payload: unknown): Promise<LightMyRequestResponse> =>
  harness.app.inject({
    method: "POST",
    url,
    headers: internalCallHeaders(INTERNAL_SECRET, { method: "POST", path: url }),
    payload: payload as Record<string, unknown>,
  })

export const cookieToken = (response: LightMyRequestResponse): string => {
  const header = String(response.headers["set-cookie"])
  const match = /parley_session=([^;]*)/.exec(header)
  if (match === null) throw new Error(`no session cookie in ${header}`)
  return match[1] as string
}

export const digestOf = sha256Hex
