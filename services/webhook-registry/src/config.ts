/** The webhook registry's configuration, decoded once by the composition root (`loadConfig`). */
import { secretKey, serviceBasics } from "@parley/platform"
import { Config } from "effect"

/** PARLEY_WEBHOOK_ALLOW_PRIVATE=true accepts loopback and private webhook URLs (development, tests). */
export const allowPrivateWebhooks = Config.Boolean("PARLEY_WEBHOOK_ALLOW_PRIVATE").pipe(Config.withDefault(false))

export const WebhookRegistryConfig = Config.all({
  ...serviceBasics("WEBHOOK_REGISTRY", 3102),
  secretKey,
  allowPrivate: allowPrivateWebhooks,
})
export type WebhookRegistryConfig = Config.Success<typeof WebhookRegistryConfig>
