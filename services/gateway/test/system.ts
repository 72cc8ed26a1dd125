/**
 * A small Parley for the gateway's tests: the real identity service (built by its own
 * `makeIdentityApp`) on a fresh database with the single-node bus, a loopback HTTP server standing
 * in for the services outside the gateway's area (it records what reaches it), and any number of
 * gateway instances — each with its own bus client on the shared database, as separate processes
 * would have.
 */
import type { AddressInfo } from "node:net"
import { Writable } from "node:stream"
import { Bus, type BusRecord, type OutgoingRecord, SingleNodeBus } from "@parley/bus"
import { Database } from "@parley/db"
import { freshDatabase } from "@parley/db/testing"
import { makeIdentityApp } from "@parley/identity"
import { makeLogger, pinoLoggerLayer } from "@parley/platform"
import { type StubHandler, type StubServer, startHttpServer } from "@parley/platform/testing"
import { type Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import type postgres from "postgres"
import { type GatewayApp, type GatewayOptions, makeGatewayApp } from "../src/app.ts"

export const OPERATOR_TOKEN = `op_${crypto.randomUUID()}`
export const INTERNAL_SECRET = `internal-${crypto.randomUUID()}`
export const PUBLIC_URL = "http://localhost:3000"

const collectingLogger = (service: string, lines: Array<string>) =>
  makeLogger({
    service,
    level: "debug",
    destination: new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    }),
  })

export interface RunningGateway {
  readonly url: string
  readonly metricsUrl: string
  readonly gateway: GatewayApp
  readonly logs: Array<string>
  /** Publishes on this instance's bus. */
  readonly publish: (records: ReadonlyArray<OutgoingRecord>) => Promise<void>
  /** Every record of `topic` from the beginning, as a new consumer group sees them (live). */
  readonly collect: (topic: string) => Promise<ReadonlyArray<BusRecord>>
  readonly flushKeyUsage: () => Promise<void>
  readonly close: () => Promise<void>
}

export interface TestSystem {
  readonly identityUrl: string
  readonly upstream: StubServer
  readonly sql: postgres.Sql
  readonly identityLogs: Array<string>
  startGateway(options?: Partial<GatewayOptions>): Promise<RunningGateway>
  close(): Promise<void>
}

const busLayer = (url: string) => SingleNodeBus.layer().pipe(Layer.provideMerge(Database.layer({ url })))

const listen = async (app: {
  listen(o: { host: string; port: number }): Promise<string>
  server: { address(): unknown }
}) => {
  await app.listen({ host: "127.0.0.1", port: 0 })
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
}

export const startSystem = async (upstreamHandler?: StubHandler): Promise<TestSystem> => {
  const db = await freshDatabase()
  const identityLogs: Array<string> = []
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(busLayer(db.url), scope))
  const { http: identity } = await Effect.runPromise(
    makeIdentityApp({
      logger: collectingLogger("identity", identityLogs),
      internalSecret: Redacted.make(INTERNAL_SECRET),
      operatorToken: Redacted.make(OPERATOR_TOKEN),
      publicUrl: PUBLIC_URL,
      passwordCost: { log2N: 12, r: 8, p: 1 },
    }).pipe(Effect.provideContext(context), Scope.provide(scope)),
  )
  const identityUrl = await listen(identity)
  const upstream = await startHttpServer(upstreamHandler ?? (() => ({ status: 200, body: { ok: true } })))
  const gateways: Array<RunningGateway> = []

  const startGateway = async (options: Partial<GatewayOptions> = {}): Promise<RunningGateway> => {
    const logs: Array<string> = []
    const gatewayScope = Effect.runSync(Scope.make())
    const busContext: Context.Context<Bus> = await Effect.runPromise(
      Layer.buildWithScope(busLayer(db.url), gatewayScope),
    )
    const logger = collectingLogger("gateway", logs)
    const gateway = await Effect.runPromise(
      makeGatewayApp({
        services: {
          identity: identityUrl,
          webhookRegistry: upstream.url,
          assistant: upstream.url,
          messaging: upstream.url,
        },
        internalSecret: INTERNAL_SECRET,
        publicUrl: PUBLIC_URL,
        logger,
        keyUsageFlushMs: 60_000,
        ...options,
      }).pipe(Effect.provideContext(busContext), Scope.provide(gatewayScope), Effect.provide(pinoLoggerLayer(logger))),
    )
    const url = await listen(gateway.http)
    const metricsUrl = await listen(gateway.metricsHttp)
    const running: RunningGateway = {
      url,
      metricsUrl,
      gateway,
      logs,
      publish: (records) =>
        Effect.runPromise(Bus.use((bus) => bus.publish(records)).pipe(Effect.provideContext(busContext))),
      collect: async (topic) => {
        const seen: Array<BusRecord> = []
        await Effect.runPromise(
          Bus.use((bus) =>
            bus.subscribe({ groupId: `test-${crypto.randomUUID()}`, topics: [topic] }, (record) =>
              Effect.sync(() => {
                seen.push(record)
              }),
            ),
          ).pipe(Effect.provideContext(busContext), Scope.provide(gatewayScope)),
        )
        return seen
      },
      flushKeyUsage: () => Effect.runPromise(gateway.flushKeyUsage.pipe(Effect.provideContext(busContext))),
      close: async () => {
        const index = gateways.indexOf(running)
        if (index >= 0) gateways.splice(index, 1)
        await Effect.runPromise(Scope.close(gatewayScope, Exit.void))
      },
    }
    gateways.push(running)
    return running
  }

  return {
    identityUrl,
    upstream,
    sql: db.sql,
    identityLogs,
    startGateway,
    close: async () => {
      for (const gateway of gateways) await gateway.close().catch(() => undefined)
      await upstream.close()
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await db.close()
    },
  }
}

// ---- tenant set-up through the gateway, as a real operator and admin would ----

export interface Organization {
  readonly orgId: string
  readonly adminEmail: string
  readonly adminPassword: string
  /** `parley_session=<token>` of the admin's dashboard session. */
  readonly cookie: string
}

let counter = 0
const uniqueEmail = (label: string) => `${label}.${Date.now().toString(36)}.${counter++}@example.com`

export const createOrganization = async (gatewayUrl: string, features = ["api_access"]): Promise<Organization> => {
  const adminEmail = uniqueEmail("admin")
  const adminPassword = `pw-${crypto.randomUUID()}`
  const created = await fetch(`${gatewayUrl}/api/operator/organizations`, {
    method: "POST",
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Acme", features, admin: { email: adminEmail, password: adminPassword } }),
  })
  if (created.status !== 201) throw new Error(`create organization: ${created.status} ${await created.text()}`)
  const { organization } = (await created.json()) as { organization: { id: string } }
  const login = await fetch(`${gatewayUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: adminEmail, password: adminPassword }),
  })
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`)
  const cookie = /parley_session=[^;]*/.exec(login.headers.get("set-cookie") ?? "")?.[0]
  if (cookie === undefined) throw new Error("login set no session cookie")
  return { orgId: organization.id, adminEmail, adminPassword, cookie }
}

export interface CreatedKey {
  readonly id: string
  readonly key: string
  readonly prefix: string
}

export const createKey = async (
  gatewayUrl: string,
  org: Organization,
  options: { scopes?: Array<string>; allowedOrigins?: Array<string> } = {},
): Promise<CreatedKey> => {
  const response = await fetch(`${gatewayUrl}/api/org/api-keys`, {
    method: "POST",
    headers: { cookie: org.cookie, "content-type": "application/json" },
    body: JSON.stringify({ name: "test key", ...options }),
  })
  if (response.status !== 201) throw new Error(`create key: ${response.status} ${await response.text()}`)
  return (await response.json()) as CreatedKey
}

export const revokeKey = async (gatewayUrl: string, org: Organization, keyId: string): Promise<void> => {
  const response = await fetch(`${gatewayUrl}/api/org/api-keys/${keyId}`, {
    method: "DELETE",
    headers: { cookie: org.cookie },
  })
  if (response.status !== 200) throw new Error(`revoke key: ${response.status} ${await response.text()}`)
}
