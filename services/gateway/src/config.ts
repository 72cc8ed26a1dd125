/**
 * The gateway's configuration, decoded once by `main.ts` from the environment (tests and
 * `standalone` build a `GatewayOptions` directly).
 */
import {
  dataDir,
  host,
  internalSecret,
  kafkaBrokers,
  logLevel,
  optionalString,
  port,
  publicUrl,
  redisUrl,
  serviceUrl,
} from "@parley/platform"
import { Config, ConfigProvider, Effect } from "effect"
import { parseTrustedProxies } from "./http/trusted-proxies.ts"

// A limit of 0 or less would refuse everything: read as "at least 1".
const positiveInt = (name: string, fallback: number) =>
  Config.Int(name).pipe(
    Config.withDefault(fallback),
    Config.map((n) => Math.max(1, n)),
  )

const configError = (message: string) => new Config.ConfigError(new ConfigProvider.SourceError({ message }))

const trustedProxyList = optionalString("PARLEY_GATEWAY_TRUSTED_PROXIES").pipe(
  Config.mapEffect((value) =>
    Effect.try({
      try: () => parseTrustedProxies(value),
      catch: (error) => configError(`PARLEY_GATEWAY_TRUSTED_PROXIES: ${(error as Error).message}`),
    }),
  ),
)

/**
 * The boolean of earlier versions trusted every peer's `X-Forwarded-For`, so any client could pick
 * the address it was rate limited under. It is no longer read; `true` refuses to start, naming its
 * replacement, rather than silently counting every client behind the proxy as one.
 */
const refuseLegacyTrustProxy = Config.Boolean("PARLEY_GATEWAY_TRUST_PROXY").pipe(
  Config.withDefault(false),
  Config.mapEffect((trusted) =>
    trusted
      ? Effect.fail(
          configError(
            "PARLEY_GATEWAY_TRUST_PROXY is no longer read (it trusted every peer): list the proxies' addresses or CIDRs in PARLEY_GATEWAY_TRUSTED_PROXIES",
          ),
        )
      : Effect.void,
  ),
)

export const GatewayConfig = Config.all({
  port: port("PARLEY_PORT", 3000),
  host: host("PARLEY_HOST"),
  metricsPort: port("PARLEY_GATEWAY_METRICS_PORT", 9464),
  metricsHost: host("PARLEY_GATEWAY_METRICS_HOST"),
  publicUrl,
  internalSecret,
  redisUrl,
  kafkaBrokers,
  databaseUrl: optionalString("DATABASE_URL"),
  dataDir,
  logLevel,
  generalPerMin: positiveInt("PARLEY_RATE_GENERAL_PER_MIN", 300),
  heavyPerMin: positiveInt("PARLEY_RATE_HEAVY_PER_MIN", 20),
  /** Addresses and CIDRs of the proxies in front (`gateway.trustedProxies` in the chart); none by default. */
  trustedProxies: Config.all([trustedProxyList, refuseLegacyTrustProxy]).pipe(Config.map(([list]) => list)),
  /**
   * Names this instance's consumer group of key changes. Unset: a fresh id per process (always
   * correct; an abandoned group per restart is left behind). Set it only to a value no other running
   * instance shares (a StatefulSet pod name, "standalone"): two instances in one group would each
   * miss half of the revocations.
   */
  instanceId: optionalString("PARLEY_GATEWAY_INSTANCE_ID"),
})
export type GatewayConfig = Config.Success<typeof GatewayConfig>

/**
 * Where the gateway alone (`main.ts`) finds each service. Apart from the rest of its configuration
 * because `npm start` runs the services in the gateway's process and passes them in directly.
 */
export const GatewayServiceUrls = Config.all({
  identity: serviceUrl("PARLEY_IDENTITY_URL"),
  webhookRegistry: serviceUrl("PARLEY_WEBHOOK_REGISTRY_URL"),
  assistant: serviceUrl("PARLEY_ASSISTANT_URL"),
  messaging: serviceUrl("PARLEY_MESSAGING_URL"),
})
