import { databaseUrl, dataDir, kafkaBrokers, type LogLevelName, logLevel, publicUrl } from "@parley/platform"
import { Config, type Option, type Redacted } from "effect"

/**
 * Everything the messaging service reads from its environment, decoded once. Secrets stay
 * `Redacted` so that logging the config cannot leak them.
 */
export interface MessagingConfig {
  /** Signs the provider's webhook posts (`X-Hub-Signature-256`); unset → every post is refused. */
  readonly cloudAppSecret: Option.Option<Redacted.Redacted<string>>
  /** Answers the provider's subscription challenge; unset → every challenge is refused. */
  readonly cloudVerifyToken: Option.Option<Redacted.Redacted<string>>
  readonly cloudApiUrl: string
  /** PARLEY_PUBLIC_URL: the provider's callback URL shown to tenants is built from it (§10.1). */
  readonly publicUrl: string
  readonly cloudApiVersion: string
  /** 32-byte base64 key sealing channel access tokens and bridge tokens (AES-256-GCM). */
  readonly secretKey: Redacted.Redacted<string>
  /** Verifies the principal the gateway signs for each forwarded request. */
  readonly internalSecret: Redacted.Redacted<string>
  readonly databaseUrl: string | undefined
  readonly kafkaBrokers: ReadonlyArray<string> | undefined
  readonly logLevel: LogLevelName
  readonly dataDir: string
  readonly port: number
  readonly host: string
  /**
   * Campaign sends per second per sending number, shared by every instance (PARLEY_CLOUD_SEND_RATE,
   * docs/contract.md §9; the provider allows 80/s per number by default).
   */
  readonly campaignRatePerSecond: number
  /** Lets a bridge `outboundUrl` point at loopback or private addresses (development and tests). */
  readonly allowPrivateUrls: boolean
}

export const MessagingConfig: Config.Config<MessagingConfig> = Config.all({
  cloudAppSecret: Config.option(Config.Redacted("PARLEY_CLOUD_APP_SECRET")),
  cloudVerifyToken: Config.option(Config.Redacted("PARLEY_CLOUD_VERIFY_TOKEN")),
  cloudApiUrl: Config.String("PARLEY_CLOUD_API_URL").pipe(Config.withDefault("https://graph.facebook.com")),
  cloudApiVersion: Config.String("PARLEY_CLOUD_API_VERSION").pipe(Config.withDefault("v21.0")),
  publicUrl,
  secretKey: Config.Redacted("PARLEY_SECRET_KEY"),
  internalSecret: Config.Redacted("PARLEY_INTERNAL_SECRET"),
  databaseUrl,
  kafkaBrokers,
  logLevel,
  dataDir,
  port: Config.Port("PARLEY_MESSAGING_PORT").pipe(Config.withDefault(3105)),
  // The container image and the Helm chart set PARLEY_HOST=0.0.0.0 for every service.
  host: Config.String("PARLEY_MESSAGING_HOST").pipe(
    Config.orElse(() => Config.String("PARLEY_HOST")),
    Config.withDefault("127.0.0.1"),
  ),
  campaignRatePerSecond: Config.Int("PARLEY_CLOUD_SEND_RATE").pipe(Config.withDefault(50)),
  allowPrivateUrls: Config.Boolean("PARLEY_WEBHOOK_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
})
