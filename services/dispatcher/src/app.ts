import { Bus, defineService, type OutgoingRecord, type ServiceApp } from "@parley/bus"
import { Database, loadMigrations, migrate } from "@parley/db"
import { EgressClient, type Resolver } from "@parley/egress"
import { BatchQueue, makeHttpServer, type ParleyLogger, SecretBox } from "@parley/platform"
import { Effect, Redacted, Schedule, type Scope } from "effect"
import packageJson from "../package.json" with { type: "json" }
import { runDispatcherConsumers } from "./bus/consumers.ts"
import { DispatcherConfig } from "./config.ts"
import { AttemptLog } from "./delivery/attempt-log.ts"
import { AttemptRunner } from "./delivery/attempt-runner.ts"
import { ParkedDeliveries } from "./delivery/parked-deliveries.ts"
import { type AttemptDelays, AttemptSchedule, AttemptTimeoutMs } from "./delivery/schedule.ts"
import {
  FirstAttemptsPerWebhook,
  MaxShareWaitMs,
  RetriesPerWebhook,
  SlowAttemptMs,
  WebhookShares,
} from "./delivery/webhook-shares.ts"
import { Keyring } from "./signing/signing.ts"
import { WebhookDirectory } from "./webhooks/webhook-directory.ts"

/** `User-Agent` of every delivery. */
export const UserAgent = `Parley-Webhooks/${packageJson.version}`

/** How often parked deliveries are looked for while some are known, and at idle. */
const ParkedSweepBusyMs = 2_000
const ParkedSweepIdleMs = 15_000

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
}

/**
 * Builds the dispatcher from its dependencies: migrates its schema, then runs the projection of
 * webhooks, the fan-out of events and the three delivery consumers until the Scope closes.
 */
export const makeDispatcher = (options: DispatcherOptions) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const schema = options.schema ?? "dispatcher"
    yield* migrate({ sql, schema, migrations: yield* loadMigrations(new URL("../migrations/", import.meta.url)) })
    const box = SecretBox.fromBase64Key(options.secretKey)
    const egress = yield* Effect.acquireRelease(
      Effect.sync(() =>
        EgressClient.make({
          allowPrivate: options.allowPrivate,
          timeoutMs: options.timeoutMs ?? AttemptTimeoutMs,
          ...(options.resolver === undefined ? {} : { lookup: options.resolver }),
        }),
      ),
      (client) => Effect.promise(() => client.close()),
    )
    const directory = new WebhookDirectory(sql, new Keyring((sealed) => box.open(sealed)), schema)
    const attemptLog = new AttemptLog(sql, schema)
    yield* Effect.tryPromise(() => attemptLog.deleteExpired()).pipe(
      Effect.catch((error) => Effect.logWarning("attempt log cleanup failed", { error: String(error) })),
      Effect.repeat(Schedule.spaced("10 minutes")),
      Effect.forkScoped,
    )
    const schedule = options.schedule ?? AttemptSchedule
    const bus = yield* Bus
    const publisher = new BatchQueue<OutgoingRecord>(async (records) => {
      await Effect.runPromise(bus.publish(records))
      return records.map(() => undefined)
    })
    const parked = new ParkedDeliveries(sql, schema, options.timeoutMs ?? AttemptTimeoutMs)
    const logWith = Effect.runForkWith(yield* Effect.context<never>())
    const runner = new AttemptRunner(
      {
        directory,
        attemptLog,
        parked,
        publish: async (records) => {
          await publisher.submitAll(records)
        },
        attempts: { egress, userAgent: UserAgent, schedule },
        log: (effect) => void logWith(effect),
      },
      (lanes) =>
        new WebhookShares({
          first: FirstAttemptsPerWebhook,
          retry: RetriesPerWebhook,
          slowAttemptMs: SlowAttemptMs,
          maxWaitMs: MaxShareWaitMs,
          ...lanes,
        }),
    )
    // Released after the consumers below have stopped: claims of parked deliveries still running
    // (attempts to a hung endpoint) are given back, so a restart need not wait out their lease.
    yield* Effect.addFinalizer(() => Effect.promise(() => runner.releaseClaims().catch(() => undefined)))
    // Parked deliveries this process does not know of: parked by another instance, or left by one that
    // stopped. Often while any are known, rarely at idle.
    yield* Effect.gen(function* () {
      for (;;) {
        const found = yield* Effect.tryPromise(() => parked.waiting()).pipe(
          Effect.catch((error) =>
            Effect.as(Effect.logWarning("reading parked deliveries failed", { error: String(error) }), {
              work: [],
              any: true,
            }),
          ),
        )
        runner.adopt(found.work)
        yield* Effect.sleep(found.any || runner.hasParkedWork ? ParkedSweepBusyMs : ParkedSweepIdleMs)
      }
    }).pipe(Effect.forkScoped)
    yield* runDispatcherConsumers({
      directory,
      runner,
      groupPrefix: options.groupPrefix ?? "dispatcher.",
      deliveryWindow: options.deliveryWindow ?? 512,
      delayWindow: options.delayWindow ?? 2_048,
    })
    return { directory }
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
    const start = makeDispatcher(options).pipe(
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
