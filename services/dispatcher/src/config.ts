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
  /** Its own variable, else PARLEY_HOST, else every interface (only probes and metrics listen there). */
  host: Config.String("PARLEY_DISPATCHER_HOST").pipe(
    Config.orElse(() => Config.String("PARLEY_HOST")),
    Config.withDefault("0.0.0.0"),
  ),
  logLevel,
  /**
   * Test hook: `0,500,1000` replaces the attempt schedule (ms before attempts 1, 2, 3) so that a
   * test of a real process need not wait 15 s. Unset in every deployment.
   */
  schedule: optionalString("PARLEY_DISPATCH_SCHEDULE_MS"),
})
export type DispatcherConfig = Config.Success<typeof DispatcherConfig>
