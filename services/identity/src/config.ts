/** Identity's configuration, decoded once by the composition root (`loadConfig`). */
import {
  databaseUrl,
  internalSecret,
  kafkaBrokers,
  logLevel,
  optionalString,
  port,
  publicUrl,
  serviceHost,
} from "@parley/platform"
import { Config, Redacted } from "effect"

export const IdentityConfig = Config.all({
  databaseUrl,
  kafkaBrokers,
  internalSecret,
  /** Unset: the operator API answers 404 everywhere (docs/contract.md §2.5). */
  operatorToken: optionalString("PARLEY_OPERATOR_TOKEN").pipe(
    Config.map((token) => (token === undefined ? undefined : Redacted.make(token))),
  ),
  publicUrl,
  host: serviceHost("PARLEY_IDENTITY_HOST"),
  port: port("PARLEY_IDENTITY_PORT", 3101),
  logLevel,
})
export type IdentityConfig = Config.Success<typeof IdentityConfig>
