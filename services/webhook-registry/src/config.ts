/** The webhook registry's configuration, decoded once by the composition root (`loadConfig`). */
import { databaseUrl, internalSecret, kafkaBrokers, logLevel, port, secretKey } from "@parley/platform"
import { Config } from "effect"

/** PARLEY_WEBHOOK_ALLOW_PRIVATE=true accepts loopback and private webhook URLs (development, tests). */
export const allowPrivateWebhooks = Config.Boolean("PARLEY_WEBHOOK_ALLOW_PRIVATE").pipe(Config.withDefault(false))

export const WebhookRegistryConfig = Config.all({
  databaseUrl,
  kafkaBrokers,
  internalSecret,
  secretKey,
  allowPrivate: allowPrivateWebhooks,
  port: port("PARLEY_WEBHOOK_REGISTRY_PORT", 3102),
  logLevel,
  /** KAFKA_IDEMPOTENT=false only for test brokers that cannot serve idempotent producers (the librdkafka mock). */
  kafkaIdempotent: Config.Boolean("KAFKA_IDEMPOTENT").pipe(Config.withDefault(true)),
})
export type WebhookRegistryConfig = Config.Success<typeof WebhookRegistryConfig>
