import { Effect, Layer } from "effect"
import { Bus, BusError } from "../Bus.ts"
import { tracedBus } from "../tracing.ts"
import type { KafkaClientOptions } from "./client.ts"
import { type ConsumerTuning, startConsumer } from "./consumer.ts"
import { connectProducer, disconnectQuietly, type ProducerOptions } from "./producer.ts"

export interface KafkaBusOptions extends KafkaClientOptions, ProducerOptions, ConsumerTuning {
  /** Tests only: lets a test kill this bus's clients abruptly, as if its process died. */
  readonly crashSwitch?: CrashSwitch
}

/** Collects a bus's clients so a test can kill them all without a commit or a graceful stop. */
export class CrashSwitch {
  readonly #kills: Array<() => Promise<void>> = []
  register(kill: () => Promise<void>): void {
    this.#kills.push(kill)
  }
  async crash(): Promise<void> {
    await Promise.all(this.#kills.splice(0).map((kill) => kill().catch(() => undefined)))
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The Bus on Kafka. One idempotent producer for the layer's lifetime; every `subscribe` is its own
 * consumer-group member on its own `Kafka` instance, stopped gracefully when its Scope closes.
 */
export const makeKafkaBus = Effect.fnUntraced(function* (options: KafkaBusOptions) {
  const context = yield* Effect.context<never>()
  const producer = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () => connectProducer(options, context),
      catch: (error) => new BusError({ operation: "connect", message: `Kafka producer: ${message(error)}` }),
    }),
    disconnectQuietly,
  )
  options.crashSwitch?.register(() => producer.disconnect())
  return Bus.of(
    tracedBus({
      publish: (records) =>
        Effect.tryPromise({
          try: () => producer.send(records),
          catch: (error) => new BusError({ operation: "publish", message: message(error) }),
        }),
      subscribe: (subscription, handle) =>
        Effect.gen(function* () {
          const consumer = yield* Effect.acquireRelease(
            Effect.tryPromise({
              try: () => startConsumer(options, subscription, handle, context),
              catch: (error) =>
                new BusError({ operation: "subscribe", message: `${subscription.groupId}: ${message(error)}` }),
            }),
            (running) =>
              Effect.promise(() => running.stop()).pipe(
                Effect.catchCause((cause) =>
                  Effect.logWarning("kafka consumer did not stop cleanly", { groupId: subscription.groupId, cause }),
                ),
              ),
          )
          options.crashSwitch?.register(consumer.abort)
          return { pause: Effect.sync(consumer.pause), resume: Effect.sync(consumer.resume) }
        }),
    }),
  )
})

export const layer = (options: KafkaBusOptions): Layer.Layer<Bus, BusError> => Layer.effect(Bus, makeKafkaBus(options))
