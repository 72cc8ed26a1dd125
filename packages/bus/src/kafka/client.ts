import { type Context, Effect } from "effect"
import { Kafka, type KafkaConfig, type logCreator, logLevel } from "kafkajs"

export interface KafkaClientOptions {
  readonly brokers: ReadonlyArray<string>
  readonly clientId: string
  /** kafkajs messages below this level are dropped; default "warn". */
  readonly logLevel?: "debug" | "info" | "warn" | "error" | "nothing"
}

const levels = {
  debug: logLevel.DEBUG,
  info: logLevel.INFO,
  warn: logLevel.WARN,
  error: logLevel.ERROR,
  nothing: logLevel.NOTHING,
} as const

// kafkajs logs these at ERROR while it recovers from them on its own (a rebalance, a coordinator
// moving); they are expected during group changes, so they go out at debug.
const routine = /rebalanc|not the coordinator|REBALANCE_IN_PROGRESS|Restarting the consumer|rejoin|generation id/i

/** Sends kafkajs's own log lines to the Effect logger (the project's logger when it is installed). */
const effectLogCreator =
  (context: Context.Context<never>): logCreator =>
  () =>
  ({ namespace, level, log }) => {
    const { message, ...fields } = log
    const annotations = { kafkajs: namespace, ...fields }
    const text = `kafkajs: ${message}`
    const expected = routine.test(`${message} ${String(fields.error ?? "")}`)
    const effect =
      level === logLevel.ERROR && !expected
        ? Effect.logError(text, annotations)
        : level <= logLevel.WARN && !expected
          ? Effect.logWarning(text, annotations)
          : level === logLevel.INFO
            ? Effect.logInfo(text, annotations)
            : Effect.logDebug(text, annotations)
    Effect.runForkWith(context)(effect)
  }

/**
 * One `Kafka` instance per producer or consumer: kafkajs consumers created from a shared instance
 * share a committed-offset cache and break each other (docs/toolchain.md).
 */
export const makeKafka = (options: KafkaClientOptions, context: Context.Context<never>, suffix: string): Kafka => {
  const config: KafkaConfig = {
    clientId: `${options.clientId}-${suffix}`,
    brokers: [...options.brokers],
    logLevel: levels[options.logLevel ?? "warn"],
    logCreator: effectLogCreator(context),
    retry: { initialRetryTime: 100, maxRetryTime: 5_000, retries: 8 },
  }
  return new Kafka(config)
}
