/** The dispatcher's configuration, decoded once by the composition root (`loadConfig`). */
import { databaseUrl, kafkaBrokers, logLevel, optionalString, port, secretKey } from "@parley/platform"
import { Config } from "effect"

export const DispatcherConfig = Config.all({
  databaseUrl,
  kafkaBrokers,
  secretKey,
  /** PARLEY_WEBHOOK_ALLOW_PRIVATE=true delivers to loopback and private addresses (development, tests). */
  allowPrivate: Config.Boolean("PARLEY_WEBHOOK_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
  /** Health and metrics only: the dispatcher serves no API. */
  port: port("PARLEY_DISPATCHER_PORT", 3103),
  logLevel,
  /** KAFKA_IDEMPOTENT=false only for test brokers that cannot serve idempotent producers (the librdkafka mock). */
  /**
   * Longest fetch long-poll on Kafka (ms). A broker answers as soon as a record arrives, so this
   * only matters for brokers that wait it out regardless (the librdkafka mock); unset keeps the bus default.
   */
  kafkaFetchMaxWaitMs: Config.option(Config.Int("KAFKA_FETCH_MAX_WAIT_MS")),
  /** Kafka consumer-group session timeout (ms); unset keeps the bus default (30 s). Tests shorten it. */
  kafkaSessionTimeoutMs: Config.option(Config.Int("KAFKA_SESSION_TIMEOUT_MS")),
  kafkaIdempotent: Config.Boolean("KAFKA_IDEMPOTENT").pipe(Config.withDefault(true)),
  /**
   * Test hook: `0,500,1000` replaces the attempt schedule (ms before attempts 1, 2, 3) so that a
   * test of a real process need not wait 15 s. Unset in every deployment.
   */
  schedule: optionalString("PARLEY_DISPATCH_SCHEDULE_MS"),
})
export type DispatcherConfig = Config.Success<typeof DispatcherConfig>
