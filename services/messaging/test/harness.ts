import { Bus, SingleNodeBus } from "@parley/bus"
import { encodeBusValue, KeyId, OrganizationSettingsChanged, OrgId, Topics } from "@parley/contracts"
import { Database } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { hmacSha256Hex, makeLogger, newId, signPrincipal } from "@parley/platform"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { Effect, Exit, Layer, ManagedRuntime, Option, Redacted, Scope } from "effect"
import type { LightMyRequestResponse } from "fastify"
import { type MessagingApp, type MessagingAppOptions, makeMessagingApp } from "../src/app.ts"
import type { MessagingConfig } from "../src/config.ts"

export const APP_SECRET = "test-app-secret"
export const VERIFY_TOKEN = "test-verify-token"
export const INTERNAL_SECRET = "test-internal-secret-0123456789"
export const API_VERSION = "v21.0"

/**
 * A stand-in for the provider's Graph API on loopback: answers sends with a fresh `wamid`, template
 * submissions with an id, and records every request. `failNext` queues answers (rate limits,
 * refusals) to give before the normal ones.
 */
export interface FakeProvider {
  readonly server: StubServer
  readonly sends: () => Array<{ phoneNumberId: string; body: Record<string, unknown>; auth: string }>
  /** Queues answers given, in order, to the next requests whatever they are (failures, odd successes). */
  failNext(...answers: Array<{ status: number; body: unknown }>): void
  /** Refuses every send to this number as undeliverable (Graph code 131026). */
  refuseRecipient(to: string): void
  setLatencyMs(ms: number): void
  /** Called as each send arrives, before it is answered (e.g. to kill the sender mid-batch). */
  onSend(listener: ((to: string) => void) | undefined): void
  /**
   * From now on only `token` can read `phoneNumberId` (`GET /<version>/<id>`); any other token gets
   * the provider's "does not exist, or missing permissions" (code 100). Unrestricted numbers are
   * readable by any token but one starting with `invalid`, which the provider refuses (code 190).
   */
  ownNumber(phoneNumberId: string, token: string): void
  /** The `GET /<version>/<id>` reads, with the token each presented. */
  numberReads(): Array<{ phoneNumberId: string; auth: string }>
  /**
   * Refuses every `n`th send for throughput, in turn HTTP 429, code 130429 and code 131056, as the
   * provider does when a number or a customer pair is over its rate (0: never).
   */
  throttleEvery(n: number): void
  /** Sends the provider accepted (answered with a message id), with when: what a customer received. */
  readonly accepted: () => ReadonlyArray<{ to: string; at: number }>
}

const THROTTLE_ANSWERS = [
  { status: 429, body: { error: { message: "(#4) Application request limit reached", code: 4 } } },
  { status: 400, body: { error: { message: "(#130429) Rate limit hit", code: 130429 } } },
  { status: 400, body: { error: { message: "(#131056) Pair rate limit hit", code: 131056 } } },
]

export const startFakeProvider = async (): Promise<FakeProvider> => {
  const queued: Array<{ status: number; body: unknown }> = []
  const refused = new Set<string>()
  let counter = 0
  let latencyMs = 0
  let sendListener: ((to: string) => void) | undefined
  const owners = new Map<string, string>()
  let throttleEvery = 0
  let sendCount = 0
  const accepted: Array<{ to: string; at: number }> = []
  const server = await startHttpServer(async (request) => {
    const read = /^\/[^/]+\/([0-9]+)$/.exec(request.path)
    if (request.method === "GET" && read !== null) {
      const id = read[1] as string
      const token = String(request.headers.authorization).replace(/^Bearer /, "")
      const failure = queued.shift()
      if (failure !== undefined) return { status: failure.status, body: failure.body as object }
      if (token.startsWith("invalid")) {
        return {
          status: 401,
          body: {
            error: {
              message: "Invalid OAuth access token - Cannot parse access token",
              type: "OAuthException",
              code: 190,
              fbtrace_id: "Atest",
            },
          },
        }
      }
      const owner = owners.get(id)
      if (owner !== undefined && owner !== token) {
        return {
          status: 400,
          body: {
            error: {
              message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
              type: "GraphMethodException",
              code: 100,
              error_subcode: 33,
              fbtrace_id: "Atest",
            },
          },
        }
      }
      return {
        status: 200,
        body: { verified_name: "Test Business", display_phone_number: "+1 555-010-0000", quality_rating: "GREEN", id },
      }
    }
    if (/\/messages$/.test(request.path)) sendListener?.(String((request.json() as { to?: string }).to))
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs))
    const failure = queued.shift()
    if (failure !== undefined) return { status: failure.status, body: failure.body as object }
    if (/\/messages$/.test(request.path)) {
      counter++
      const body = request.json() as { to?: string }
      sendCount++
      if (throttleEvery > 0 && sendCount % throttleEvery === 0) {
        return THROTTLE_ANSWERS[(sendCount / throttleEvery) % THROTTLE_ANSWERS.length] as {
          status: number
          body: object
        }
      }
      if (refused.has(String(body.to))) {
        return { status: 400, body: { error: { message: "(#131026) Message undeliverable", code: 131026 } } }
      }
      accepted.push({ to: String(body.to), at: performance.now() })
      return {
        status: 200,
        body: {
          messaging_product: "whatsapp",
          contacts: [{ input: body.to, wa_id: body.to }],
          messages: [{ id: `wamid.test${counter}` }],
        },
      }
    }
    if (/\/message_templates$/.test(request.path)) {
      counter++
      const { category } = request.json() as { category?: string }
      return { status: 200, body: { id: String(900000 + counter), status: "PENDING", category } }
    }
    return { status: 404, body: { error: { message: "unknown path", code: 100 } } }
  })
  return {
    server,
    sends: () =>
      server.requests
        .filter((r) => /\/messages$/.test(r.path))
        .map((r) => ({
          phoneNumberId: r.path.split("/")[2] ?? "",
          body: r.json() as Record<string, unknown>,
          auth: String(r.headers.authorization),
        })),
    failNext: (...answers) => queued.push(...answers),
    refuseRecipient: (to) => refused.add(to),
    setLatencyMs: (ms) => {
      latencyMs = ms
    },
    onSend: (listener) => {
      sendListener = listener
    },
    ownNumber: (phoneNumberId, token) => {
      owners.set(phoneNumberId, token)
    },
    numberReads: () =>
      server.requests
        .filter((r) => r.method === "GET" && /^\/[^/]+\/[0-9]+$/.test(r.path))
        .map((r) => ({ phoneNumberId: r.path.split("/")[2] ?? "", auth: String(r.headers.authorization) })),
    throttleEvery: (n) => {
      throttleEvery = n
    },
    accepted: () => accepted,
  }
}

export const testConfig = (providerUrl: string, overrides: Partial<MessagingConfig> = {}): MessagingConfig => ({
  cloudAppSecret: Option.some(Redacted.make(APP_SECRET)),
  cloudVerifyToken: Option.some(Redacted.make(VERIFY_TOKEN)),
  cloudApiUrl: providerUrl,
  cloudApiVersion: API_VERSION,
  publicUrl: "http://localhost:3000",
  secretKey: Redacted.make(Buffer.alloc(32, 7).toString("base64")),
  internalSecret: Redacted.make(INTERNAL_SECRET),
  databaseUrl: undefined,
  kafkaBrokers: undefined,
  logLevel: "silent",
  dataDir: ".parley",
  port: 0,
  host: "127.0.0.1",
  campaignRatePerSecond: 1000,
  allowPrivateUrls: true,
  ...overrides,
})

/** The infrastructure one test file shares: its own database and the single-node bus on it. */
export interface TestInfrastructure {
  readonly db: FreshDatabase
  readonly runtime: ManagedRuntime.ManagedRuntime<
    Database | import("@parley/bus").Bus | import("@parley/bus").OutboxWriter,
    never
  >
  close(): Promise<void>
}

export const startInfrastructure = async (): Promise<TestInfrastructure> => {
  const db = await freshDatabase()
  const layer = SingleNodeBus.layer().pipe(Layer.provideMerge(Database.layer({ url: db.url })))
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

export interface RunningApp extends MessagingApp {
  stop(): Promise<void>
}

/** Starts the service on the shared infrastructure; `stop()` closes its scope like a shutdown would. */
export const startApp = async (
  infra: TestInfrastructure,
  options: Omit<MessagingAppOptions, "logger"> & { logger?: MessagingAppOptions["logger"] },
): Promise<RunningApp> => {
  const scope = Scope.makeUnsafe()
  const app = await infra.runtime.runPromise(
    makeMessagingApp({ logger: makeLogger({ service: "messaging", level: "silent" }), ...options }).pipe(
      Scope.provide(scope),
    ),
  )
  return { ...app, stop: () => infra.runtime.runPromise(Scope.close(scope, Exit.void)) }
}

export const newOrg = (): OrgId => OrgId.make(newId("org"))

export const principalHeader = (orgId: OrgId, role: "admin" | "member" = "admin"): string =>
  signPrincipal(INTERNAL_SECRET, {
    orgId,
    role,
    actor: { type: "api_key", keyId: KeyId.make(newId("key")), scopes: [] },
    requestId: newId("req"),
  })

/** A request as the gateway forwards it: the tenant's body plus the signed principal. */
export const asTenant = (
  app: MessagingApp,
  orgId: OrgId,
  method: "GET" | "POST" | "PUT",
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> =>
  app.http.inject({
    method,
    url,
    headers: {
      "x-parley-principal": principalHeader(orgId),
      ...(body === undefined || typeof body === "string" || Buffer.isBuffer(body)
        ? {}
        : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined
      ? {}
      : { payload: typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
  })

/** Posts a provider payload signed as the provider signs it. */
export const postCloudWebhook = (app: MessagingApp, payload: unknown, secret = APP_SECRET) => {
  const raw = JSON.stringify(payload)
  return app.http.inject({
    method: "POST",
    url: "/channels/cloud/webhook",
    headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${hmacSha256Hex(secret, raw)}` },
    payload: raw,
  })
}

/** The event records appended to the bus log for an organization, oldest first. */
export const eventsOf = async (
  infra: TestInfrastructure,
  orgId: OrgId,
  event?: string,
): Promise<Array<{ event: string; data: Record<string, unknown>; timestamp: string }>> => {
  const rows = await infra.db.sql<Array<{ value: string }>>`
    select value from parley_bus.records
    where topic like 'parley.events.%' and key = ${orgId}
    order by created_at, "offset"`
  return rows
    .map((row) => JSON.parse(row.value) as { event: string; data: Record<string, unknown>; timestamp: string })
    .filter((record) => event === undefined || record.event === event)
}

export const recordsOn = async (infra: TestInfrastructure, topic: string, key: string): Promise<Array<unknown>> => {
  const rows = await infra.db.sql<Array<{ value: string }>>`
    select value from parley_bus.records where topic = ${topic} and key = ${key} order by created_at, "offset"`
  return rows.map((row) => JSON.parse(row.value) as unknown)
}

/** Connects a cloud channel for the organization through the API. */
export const connectCloud = async (
  app: MessagingApp,
  orgId: OrgId,
  phoneNumberId: string,
  // An account belongs to one organization: each number gets one of its own unless a test names it.
  businessAccountId = `555${phoneNumberId}`,
) => {
  const response = await asTenant(app, orgId, "PUT", "/api/channels/cloud", {
    phoneNumberId,
    businessAccountId,
    accessToken: `token-${orgId}`,
  })
  if (response.statusCode !== 200) throw new Error(`connect cloud: ${response.statusCode} ${response.body}`)
  return response.json() as Record<string, unknown>
}

export const inboundPayload = (
  phoneNumberId: string,
  messages: Array<Record<string, unknown>>,
  contacts: Array<Record<string, unknown>> = [],
) => ({
  object: "whatsapp_business_account",
  entry: [
    {
      id: "5550001",
      changes: [
        {
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "15550000000", phone_number_id: phoneNumberId },
            contacts,
            messages,
          },
        },
      ],
    },
  ],
})

/** A customer message on the cloud channel, through the provider's webhook (opens the 24-hour window). */
export const customerWrites = async (app: MessagingApp, phoneNumberId: string, from: string, text = "hello") => {
  const response = await postCloudWebhook(
    app,
    inboundPayload(phoneNumberId, [
      { from, id: `wamid.in-${newId("m")}`, timestamp: "1700000000", type: "text", text: { body: text } },
    ]),
  )
  if (response.statusCode !== 200) throw new Error(`inbound: ${response.statusCode} ${response.body}`)
}

/**
 * Saves the organization's country as the assistant does (a record on `parley.assistant.settings.v1`)
 * and waits until messaging's projection has it.
 */
export const setCountry = async (infra: TestInfrastructure, orgId: OrgId, country: string) => {
  const changedAt = new Date().toISOString()
  await infra.runtime.runPromise(
    Effect.gen(function* () {
      const bus = yield* Bus
      yield* bus.publish([
        {
          topic: Topics.assistantSettings,
          key: orgId,
          value: encodeBusValue(OrganizationSettingsChanged, { orgId, country, changedAt }),
        },
      ])
    }),
  )
  await eventually(
    async () => {
      const [row] = await infra.db.sql`select country from messaging.org_settings where org_id = ${orgId}`
      if (row?.country !== country) throw new Error(`country not projected yet (${row?.country})`)
    },
    { timeoutMs: 10_000, intervalMs: 20 },
  )
}

/** The provider approving a template (its status webhook, as §10.1 describes it). */
export const approveTemplate = async (
  app: MessagingApp,
  businessAccountId: string,
  name: string,
  language = "en_US",
) => {
  const response = await postCloudWebhook(app, {
    object: "whatsapp_business_account",
    entry: [
      {
        id: businessAccountId,
        changes: [
          {
            field: "message_template_status_update",
            value: { event: "APPROVED", message_template_name: name, message_template_language: language },
          },
        ],
      },
    ],
  })
  if (response.statusCode !== 200) throw new Error(`approve ${name}: ${response.statusCode} ${response.body}`)
}
