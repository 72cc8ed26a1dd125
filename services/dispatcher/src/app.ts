import { type Bus, defineService, type ServiceApp } from "@parley/bus"
import { Database, loadMigrations, migrate } from "@parley/db"
import type { Resolver } from "@parley/egress"
import { makeHttpServer, type ParleyLogger, SecretBox, type ServiceMetrics } from "@parley/platform"
import { Context, Effect, Layer, Redacted, type Scope } from "effect"
import packageJson from "../package.json" with { type: "json" }
import { runDispatcherConsumers } from "./bus/consumers.ts"
import { DispatcherConfig } from "./config.ts"
import { Deliveries } from "./delivery/deliveries.ts"
import { type AttemptDelays, AttemptSchedule, AttemptTimeoutMs } from "./delivery/schedule.ts"
import { deliveryObserver } from "./metrics.ts"
import { Keyring } from "./signing/signing.ts"
import { WebhookDirectory } from "./webhooks/webhook-directory.ts"

/** `User-Agent` of every delivery. */
export const UserAgent = `Parley-Webhooks/${packageJson.version}`

export interface DispatcherOptions {
  /** PARLEY_SECRET_KEY, to open the sealed webhook secrets. */
  readonly secretKey: string
  /** PARLEY_WEBHOOK_ALLOW_PRIVATE: deliver to loopback and private addresses (development, tests). */
  readonly allowPrivate: boolean
  /** Own Postgres schema (tests may run several dispatchers on one database). */
  readonly schema?: string
  /** Consumer-group name prefix (tests sharing one Kafka broker keep their groups apart). */
  readonly groupPrefix?: string
  readonly schedule?: AttemptDelays
  readonly timeoutMs?: number
  readonly resolver?: Resolver
  readonly deliveryWindow?: number
  readonly delayWindow?: number
  /** The registry `/metrics` serves: attempts, failures and parked deliveries are counted on it. */
  readonly metrics?: ServiceMetrics
}

/**
 * Builds the dispatcher from its dependencies: migrates its schema, composes its services (the
 * Keyring, the WebhookDirectory projection, the Deliveries path) and runs the projection of
 * webhooks, the fan-out of events and the three delivery consumers on them until the Scope closes.
 */
export const makeDispatcher = (options: DispatcherOptions) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const schema = options.schema ?? "dispatcher"
    yield* migrate({ sql, schema, migrations: yield* loadMigrations(new URL("../migrations/", import.meta.url)) })
    const box = SecretBox.fromBase64Key(options.secretKey)
    const services = Deliveries.layer({
      schema,
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs ?? AttemptTimeoutMs,
      schedule: options.schedule ?? AttemptSchedule,
      userAgent: UserAgent,
      resolver: options.resolver,
      observe: options.metrics === undefined ? undefined : deliveryObserver(options.metrics),
    }).pipe(
      Layer.provideMerge(WebhookDirectory.layer(schema)),
      Layer.provide(Keyring.layer((sealed) => box.open(sealed))),
    )
    // Built in this Scope before the consumers start, so it is released after they stop.
    const context = yield* Layer.build(services)
    yield* runDispatcherConsumers({
      groupPrefix: options.groupPrefix ?? "dispatcher.",
      deliveryWindow: options.deliveryWindow ?? 512,
      delayWindow: options.delayWindow ?? 2_048,
    }).pipe(Effect.provideContext(context))
    return { directory: Context.get(context, WebhookDirectory) }
  })

export type DispatcherRequirements = Bus | Database

const parseSchedule = (text: string | undefined): AttemptDelays | undefined => {
  if (text === undefined) return undefined
  const [first, second, third] = text.split(",").map((part) => Number.parseInt(part, 10))
  if ([first, second, third].some((n) => n === undefined || !Number.isFinite(n) || n < 0)) {
    throw new Error("PARLEY_DISPATCH_SCHEDULE_MS must be three non-negative integers: 0,5000,10000")
  }
  return [first as number, second as number, third as number]
}

/**
 * The dispatcher as a service: its HTTP server has health and metrics only, and answers them while
 * its consumers start (`start`): joining a Kafka group can wait out a dead member's session, and
 * readiness says "not ready" until they run.
 */
export const makeDispatcherApp = (
  options: DispatcherOptions & { readonly logger: ParleyLogger },
): Effect.Effect<ServiceApp<DispatcherRequirements>, never, Database | Scope.Scope> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    let consuming = false
    const http = makeHttpServer({
      service: "dispatcher",
      logger: options.logger,
      readiness: [
        { name: "postgres", check: () => sql`select 1` },
        {
          name: "consumers",
          check: () => {
            if (!consuming) throw new Error("consumers not started yet")
          },
        },
      ],
    })
    yield* Effect.addFinalizer(() => Effect.promise(() => http.close()))
    const start = makeDispatcher({ ...options, metrics: http.metrics }).pipe(
      Effect.tap(() =>
        Effect.sync(() => {
          consuming = true
        }),
      ),
      Effect.asVoid,
    )
    return { http, start }
  })

export const dispatcherService = defineService({
  name: "dispatcher",
  infrastructure: { kind: "database" },
  config: DispatcherConfig,
  make: (config, logger) => {
    const schedule = parseSchedule(config.schedule)
    return makeDispatcherApp({
      logger,
      secretKey: Redacted.value(config.secretKey),
      allowPrivate: config.allowPrivate,
      ...(schedule === undefined ? {} : { schedule }),
    })
  },
})
