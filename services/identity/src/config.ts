/** Identity's configuration, decoded once by the composition root (`loadConfig`). */
import { optionalString, publicUrl, serviceBasics } from "@parley/platform"
import { Config, Redacted } from "effect"

export const IdentityConfig = Config.all({
  ...serviceBasics("IDENTITY", 3101),
  /** Unset: the operator API answers 404 everywhere (docs/contract.md §2.5). */
  operatorToken: optionalString("PARLEY_OPERATOR_TOKEN").pipe(
    Config.map((token) => (token === undefined ? undefined : Redacted.make(token))),
  ),
  publicUrl,
})
export type IdentityConfig = Config.Success<typeof IdentityConfig>
