/** The webhook registry's configuration, decoded once by the composition root (`loadConfig`). */
import { databaseUrl, internalSecret, kafkaBrokers, logLevel, port, secretKey, serviceHost } from "@parley/platform"
import { Config } from "effect"

/** PARLEY_WEBHOOK_ALLOW_PRIVATE=true accepts loopback and private webhook URLs (development, tests). */
export const allowPrivateWebhooks = Config.Boolean("PARLEY_WEBHOOK_ALLOW_PRIVATE").pipe(Config.withDefault(false))

export const WebhookRegistryConfig = Config.all({
  databaseUrl,
  kafkaBrokers,
  internalSecret,
  secretKey,
  allowPrivate: allowPrivateWebhooks,
  host: serviceHost("PARLEY_WEBHOOK_REGISTRY_HOST"),
  port: port("PARLEY_WEBHOOK_REGISTRY_PORT", 3102),
  logLevel,
})
export type WebhookRegistryConfig = Config.Success<typeof WebhookRegistryConfig>
