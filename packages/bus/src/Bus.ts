import { Context, type Effect, Schema, type Scope } from "effect"
import type postgres from "postgres"

/** A record to append: `key` picks the partition, so records with one key stay in order. */
export interface OutgoingRecord {
  readonly topic: string
  readonly key: string
  readonly value: string
  readonly headers?: Record<string, string>
}

/** A record as a consumer sees it: where it sits in the log, and what was appended. */
export interface BusRecord {
  readonly topic: string
  readonly partition: number
  readonly offset: bigint
  readonly key: string
  readonly value: string
  readonly headers: Record<string, string>
  readonly timestamp: Date
}

export interface SubscribeOptions {
  readonly groupId: string
  readonly topics: ReadonlyArray<string>
  /** Records in flight per partition; default 16. */
  readonly window?: number
}

export interface Subscription {
  readonly pause: Effect.Effect<void>
  readonly resume: Effect.Effect<void>
}

/** The bus is unreachable or refused an operation; the caller may retry. */
export class BusError extends Schema.TaggedError<BusError>()("BusError", {
  operation: Schema.String,
  message: Schema.String,
}) {}

/**
 * The message bus port. Delivery is at least once, in order per key; handlers are idempotent. A
 * handler that fails or dies is retried with capped backoff without committing past it, while the
 * records behind it in the window keep flowing; offsets commit only up to the lowest unfinished
 * one. New groups start from the earliest record.
 */
export class Bus extends Context.Service<
  Bus,
  {
    publish(records: ReadonlyArray<OutgoingRecord>): Effect.Effect<void, BusError>
    /** Runs until the Scope closes (then finishes in-flight work, commits, leaves the group). */
    subscribe(
      options: SubscribeOptions,
      handle: (record: BusRecord) => Effect.Effect<void, unknown>,
    ): Effect.Effect<Subscription, BusError, Scope.Scope>
  }
>()("@parley/bus/Bus") {}

export class OutboxWriter extends Context.Service<
  OutboxWriter,
  {
    /** Appends records inside the caller's transaction: they reach the bus iff it commits. */
    append(tx: postgres.TransactionSql, records: ReadonlyArray<OutgoingRecord>): Effect.Effect<void>
    /**
     * True when `append` writes the bus's own log (the single-node bus): the records are on the bus
     * when the transaction commits, with no relay in between. A service that writes a row and then
     * publishes may then do both in one transaction and publish nothing on its own; on Kafka (false)
     * the relay's extra hop would cost more than the transaction it saves.
     */
    readonly direct: boolean
  }
>()("@parley/bus/OutboxWriter") {}
