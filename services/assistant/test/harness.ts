import { type Bus, type OutboxWriter, SingleNodeBus } from "@parley/bus"
import { KeyId, OrgId, UserId } from "@parley/contracts"
import { Database } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { makeLogger, newId, signPrincipal } from "@parley/platform"
import { Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
import type { LightMyRequestResponse } from "fastify"
import { type AssistantApp, type AssistantAppOptions, makeAssistantApp } from "../src/app.ts"

export const INTERNAL_SECRET = "assistant-test-internal-secret"

/** One test file's infrastructure: its own database and the single-node bus on it. */
export interface TestInfrastructure {
  readonly db: FreshDatabase
  readonly runtime: ManagedRuntime.ManagedRuntime<Database | Bus | OutboxWriter, never>
  close(): Promise<void>
}

export const startInfrastructure = async (): Promise<TestInfrastructure> => {
  const db = await freshDatabase()
  const layer = SingleNodeBus.layer({ timings: { pollMs: 100, heartbeatMs: 200 } }).pipe(
    Layer.provideMerge(Database.layer({ url: db.url })),
  )
  const runtime = ManagedRuntime.make(layer)
  await runtime.runPromise(Effect.void)
  return {
    db,
    runtime,
    close: async () => {
      await runtime.dispose()
      await db.close()
    },
  }
}

/** The assistant's Fastify app (`app`, as tests inject into it) and a way to stop it. */
export interface RunningApp {
  readonly app: AssistantApp["http"]
  stop(): Promise<void>
}

export const startApp = async (
  infra: TestInfrastructure,
  options: Partial<AssistantAppOptions> = {},
): Promise<RunningApp> => {
  const scope = Scope.makeUnsafe()
  const { http } = await infra.runtime.runPromise(
    makeAssistantApp({
      logger: makeLogger({ service: "assistant", level: "silent" }),
      internalSecret: INTERNAL_SECRET,
      ...options,
    }).pipe(Scope.provide(scope)),
  )
  return { app: http, stop: () => infra.runtime.runPromise(Scope.close(scope, Exit.void)) }
}

export const newOrg = (): OrgId => OrgId.make(newId("org"))

type Caller = "widget" | "admin" | "member"

const principalFor = (orgId: OrgId, caller: Caller): string =>
  signPrincipal(INTERNAL_SECRET, {
    orgId,
    role: caller === "admin" ? "admin" : "member",
    actor:
      caller === "member"
        ? { type: "user", userId: UserId.make(newId("usr")) }
        : {
            type: "api_key",
            keyId: KeyId.make(newId("key")),
            scopes: caller === "widget" ? ["chat:write", "chat:read", "bookings:read", "bookings:write"] : [],
          },
    requestId: newId("req"),
  })

/** A request as the gateway forwards it: the body plus the signed principal of `caller`. */
export const call = (
  app: Pick<RunningApp, "app">,
  orgId: OrgId,
  caller: Caller,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> =>
  app.app.inject({
    method,
    url,
    headers: {
      "x-parley-principal": principalFor(orgId, caller),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })

export const widget = (
  app: Pick<RunningApp, "app">,
  orgId: OrgId,
  method: "GET" | "POST",
  url: string,
  body?: unknown,
) => call(app, orgId, "widget", method, url, body)

export const admin = (
  app: Pick<RunningApp, "app">,
  orgId: OrgId,
  method: "GET" | "PUT" | "DELETE",
  url: string,
  body?: unknown,
) => call(app, orgId, "admin", method, url, body)

export interface LeadEvent {
  readonly event: string
  readonly timestamp: string
  readonly data: { phone: string; name: string; type: string; booking: unknown }
}

/** The lead events appended to the bus log for an organization, oldest first. */
export const leadEventsOf = async (infra: TestInfrastructure, orgId: OrgId): Promise<Array<LeadEvent>> => {
  const rows = await infra.db.sql<Array<{ value: string }>>`
    select value from parley_bus.records
    where topic = 'parley.events.lead.v1' and key = ${orgId}
    order by "offset"`
  return rows.map((row) => JSON.parse(row.value) as LeadEvent)
}

export const recordsOn = async (
  infra: TestInfrastructure,
  topic: string,
  key: string,
): Promise<Array<Record<string, unknown>>> => {
  const rows = await infra.db.sql<Array<{ value: string }>>`
    select value from parley_bus.records where topic = ${topic} and key = ${key} order by "offset"`
  return rows.map((row) => JSON.parse(row.value) as Record<string, unknown>)
}

const pad = (n: number) => String(n).padStart(2, "0")

/** A date at least a week ahead (UTC) falling on `weekday` (1 = Monday … 5 = Friday): always bookable. */
export const futureWeekday = (weekday = 1, weeksAhead = 1): string => {
  const at = new Date()
  at.setUTCDate(at.getUTCDate() + 7 * weeksAhead)
  while (at.getUTCDay() !== weekday) at.setUTCDate(at.getUTCDate() + 1)
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`
}

export const pastDate = (): string => {
  const at = new Date()
  at.setUTCDate(at.getUTCDate() - 3)
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`
}
