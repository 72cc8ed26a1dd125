/**
 * Configuration every service reads, as Effect `Config` pieces, and `loadConfig`, which decodes a
 * service's whole config once from an env record. Composition roots call `loadConfig(config)`
 * (which reads `process.env` — the only place in the repo that does); tests and `standalone` pass
 * their own record and never touch the process environment.
 */
import { Config, ConfigProvider, type Effect, Option } from "effect"

/** `undefined` when unset or empty (an empty variable means "not configured", as in shells). */
export const optionalString = (name: string): Config.Config<string | undefined> =>
  Config.option(Config.String(name)).pipe(
    Config.map((value) => (Option.isSome(value) && value.value.trim() !== "" ? value.value.trim() : undefined)),
  )

/** Signs principals and internal calls; shared by every service of one deployment. */
export const internalSecret = Config.Redacted("PARLEY_INTERNAL_SECRET")
/** 32-byte base64 key encrypting webhook secrets and channel tokens. */
export const secretKey = Config.Redacted("PARLEY_SECRET_KEY")

export const databaseUrl = optionalString("DATABASE_URL")
export const redisUrl = optionalString("REDIS_URL")

/** `KAFKA_BROKERS=a:9092,b:9092` → `["a:9092", "b:9092"]`; `undefined` selects the single-node bus. */
export const kafkaBrokers: Config.Config<ReadonlyArray<string> | undefined> = optionalString("KAFKA_BROKERS").pipe(
  Config.map((value) => {
    const brokers = value
      ?.split(",")
      .map((broker) => broker.trim())
      .filter((broker) => broker !== "")
    return brokers === undefined || brokers.length === 0 ? undefined : brokers
  }),
)

export const dataDir = Config.String("PARLEY_DATA_DIR").pipe(Config.withDefault(".parley"))

export const logLevel = Config.Literals(
  ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
  "PARLEY_LOG_LEVEL",
).pipe(Config.withDefault("info" as const))

/** The public base URL (cookies, CSRF origin, links), without a trailing slash. */
export const publicUrl = Config.URL("PARLEY_PUBLIC_URL").pipe(
  Config.withDefault(new URL("http://localhost:3000")),
  Config.map((url) => url.href.replace(/\/$/, "")),
)

export const port = (name: string, fallback: number): Config.Config<number> =>
  Config.Port(name).pipe(Config.withDefault(fallback))

export const host = (name: string, fallback = "127.0.0.1"): Config.Config<string> =>
  Config.String(name).pipe(Config.withDefault(fallback))

/**
 * The address a service listens on: its own variable (`PARLEY_IDENTITY_HOST`), else the one the
 * container image and the Helm chart set for every service (`PARLEY_HOST=0.0.0.0`), else loopback.
 */
export const serviceHost = (name: string): Config.Config<string> =>
  Config.String(name).pipe(
    Config.orElse(() => Config.String("PARLEY_HOST")),
    Config.withDefault("127.0.0.1"),
  )

/**
 * What the config of a service behind the gateway starts with (`name`: `IDENTITY`, `ASSISTANT`…):
 * its database and bus, the internal secret, where it listens (`PARLEY_<NAME>_HOST`, see
 * `serviceHost`; `PARLEY_<NAME>_PORT`, else `defaultPort`) and its log level. Spread into its own
 * `Config.all({ ...serviceBasics("IDENTITY", 3101), … })`.
 */
export const serviceBasics = (name: string, defaultPort: number) => ({
  databaseUrl,
  kafkaBrokers,
  internalSecret,
  host: serviceHost(`PARLEY_${name}_HOST`),
  port: port(`PARLEY_${name}_PORT`, defaultPort),
  logLevel,
})

/** A service's own base URL as seen by other services (`PARLEY_IDENTITY_URL`, …). */
export const serviceUrl = (name: string): Config.Config<string> =>
  Config.URL(name).pipe(Config.map((url) => url.href.replace(/\/$/, "")))

export type EnvRecord = Readonly<Record<string, string | undefined>>

/** Decodes `config` once from `env` (default: the process environment). */
export const loadConfig = <A>(config: Config.Config<A>, env?: EnvRecord): Effect.Effect<A, Config.ConfigError> =>
  config.parse(ConfigProvider.fromEnv({ env: definedOnly(env ?? process.env) }))

const definedOnly = (env: EnvRecord): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value
  return out
}
