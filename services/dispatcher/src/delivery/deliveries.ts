/**
 * The one service in front of the delivery path (see README.md: plain code for speed). Its Layer
 * builds the path's parts — the SSRF-safe client, the attempt log and its cleanup, the parked
 * deliveries and their sweep, the group commit of what attempts publish, the `AttemptRunner` —
 * and the rest of the dispatcher reaches all of it through `deliver`, one Promise per bus record.
 */
import { Bus, OutboxWriter, type OutgoingRecord } from "@parley/bus"
import type { DeliveryRecord } from "@parley/contracts"
import { atCommit, Database, makeGroupCommit } from "@parley/db"
import { EgressClient, type Resolver } from "@parley/egress"
import { BatchQueue } from "@parley/platform"
import { Context, Effect, Layer, Option, Schedule } from "effect"
import type { DeliveryObserver } from "../metrics.ts"
import { type DispatchTarget, WebhookDirectory } from "../webhooks/webhook-directory.ts"
import { AttemptLog, type LoggedOutcome } from "./attempt-log.ts"
import { AttemptRunner } from "./attempt-runner.ts"
import { ParkedDeliveries } from "./parked-deliveries.ts"
import type { AttemptDelays } from "./schedule.ts"
import {
  FirstAttemptsPerWebhook,
  MaxShareWaitMs,
  RetriesPerWebhook,
  SlowAttemptMs,
  WebhookShares,
} from "./webhook-shares.ts"

/** How often parked deliveries are looked for while some are known, and at idle. */
const ParkedSweepBusyMs = 2_000
const ParkedSweepIdleMs = 15_000

/**
 * On the single-node bus (`OutboxWriter.direct`), an attempt's log row and the records it publishes
 * are one transaction, shared by the attempts that finish together: one commit where there were two
 * (the log's insert, then the bus's append), and the same order for a redelivery to find — the
 * records are on the bus exactly when the log holds the attempt. Both statements go with the COMMIT
 * (`atCommit`), so the transaction makes no more round trips than the two commits did.
 */
const settleInOneTransaction = (attemptLog: AttemptLog, outbox: OutboxWriter["Service"]) =>
  Effect.gen(function* () {
    const commits = yield* makeGroupCommit(
      (tx, items: ReadonlyArray<{ readonly logged: LoggedOutcome; readonly records: ReadonlyArray<OutgoingRecord> }>) =>
        Effect.gen(function* () {
          const logged = items.map((item) => item.logged)
          if (!atCommit(tx, () => attemptLog.insertStatement(tx, logged))) {
            yield* Effect.promise(() => attemptLog.insertStatement(tx, logged).execute())
          }
          yield* outbox.append(
            tx,
            items.flatMap((item) => item.records),
          )
          return items.map(() => undefined)
        }),
      // One at a time: the POST is already made, so waiting out one transaction costs the receiver
      // nothing, and the next batch gathers every attempt that finished meanwhile.
      { maxConcurrent: 1 },
    )
    return (logged: LoggedOutcome, records: ReadonlyArray<OutgoingRecord>): Promise<void> =>
      Effect.runPromise(commits.submit({ logged, records }))
  })

export interface DeliveriesOptions {
  /** The dispatcher's Postgres schema. */
  readonly schema: string
  /** Deliver to loopback and private addresses (development, tests). */
  readonly allowPrivate: boolean
  readonly timeoutMs: number
  readonly schedule: AttemptDelays
  readonly userAgent: string
  readonly resolver?: Resolver | undefined
  /** Told of each attempt and parked delivery: the service's metrics (docs/contract.md §11). */
  readonly observe?: DeliveryObserver | undefined
}

export class Deliveries extends Context.Service<
  Deliveries,
  {
    /** One attempt of a delivery from a bus record; resolves once it was made and published, or parked. */
    readonly deliver: (delivery: DeliveryRecord, target: DispatchTarget) => Promise<void>
  }
>()("@parley/dispatcher/Deliveries") {
  /**
   * The delivery path on the service's Database, Bus and WebhookDirectory; its background work (the
   * attempt log's cleanup, the sweep of parked deliveries) runs, and its claims are held, until the
   * Layer's scope closes.
   */
  static readonly layer = (options: DeliveriesOptions) =>
    Layer.effect(
      Deliveries,
      Effect.gen(function* () {
        const { sql } = yield* Database
        const bus = yield* Bus
        const directory = yield* WebhookDirectory
        const egress = yield* Effect.acquireRelease(
          Effect.sync(() =>
            EgressClient.make({
              allowPrivate: options.allowPrivate,
              timeoutMs: options.timeoutMs,
              ...(options.resolver === undefined ? {} : { lookup: options.resolver }),
            }),
          ),
          (client) => Effect.promise(() => client.close()),
        )
        const attemptLog = new AttemptLog(sql, options.schema)
        yield* Effect.tryPromise(() => attemptLog.deleteExpired()).pipe(
          Effect.catch((error) => Effect.logWarning("attempt log cleanup failed", { error: String(error) })),
          Effect.repeat(Schedule.spaced("10 minutes")),
          Effect.forkScoped,
        )
        const publisher = new BatchQueue<OutgoingRecord>(async (records) => {
          await Effect.runPromise(bus.publish(records))
          return records.map(() => undefined)
        })
        const publish = async (records: ReadonlyArray<OutgoingRecord>) => {
          await publisher.submitAll(records)
        }
        const outbox = yield* Effect.serviceOption(OutboxWriter)
        const settle =
          Option.isSome(outbox) && outbox.value.direct
            ? yield* settleInOneTransaction(attemptLog, outbox.value)
            : async (logged: LoggedOutcome, records: ReadonlyArray<OutgoingRecord>) => {
                await attemptLog.record(logged.deliveryId, logged.attempt, logged.outcome)
                await publish(records)
              }
        const parked = new ParkedDeliveries(sql, options.schema, options.timeoutMs)
        const logWith = Effect.runForkWith(yield* Effect.context<never>())
        const runner = new AttemptRunner(
          {
            directory,
            attemptLog,
            parked,
            publish,
            settle,
            attempts: { egress, userAgent: options.userAgent, schedule: options.schedule },
            log: (effect) => void logWith(effect),
            observe: options.observe,
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
        // Released after the consumers using this service have stopped: claims of parked deliveries
        // still running (attempts to a hung endpoint) are given back, so a restart need not wait out
        // their lease.
        yield* Effect.addFinalizer(() => Effect.promise(() => runner.releaseClaims().catch(() => undefined)))
        // Parked deliveries this process does not know of: parked by another instance, or left by one
        // that stopped. Often while any are known, rarely at idle.
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
        return Deliveries.of({ deliver: (delivery, target) => runner.deliver(delivery, target) })
      }),
    )
}
