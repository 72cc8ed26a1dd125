/** Standalone's own configuration; each service it runs decodes its own from the same environment. */
import { databaseUrl, dataDir, host, kafkaBrokers, logLevel, port, publicUrl, redisUrl } from "@parley/platform"
import { Config } from "effect"

export const StandaloneConfig = Config.all({
  host: host("PARLEY_HOST"),
  port: port("PARLEY_PORT", 3000),
  /** `/metrics` of every service, on loopback only: docs/contract.md §11 keeps metrics off the public port. */
  metricsPort: port("PARLEY_METRICS_PORT", 9464),
  dataDir,
  databaseUrl,
  redisUrl,
  kafkaBrokers,
  publicUrl,
  logLevel,
})
export type StandaloneConfig = Config.Success<typeof StandaloneConfig>
