import type { EnvRecord } from "@parley/platform"
import type { StandaloneSecrets } from "./secrets.ts"

/**
 * The environment every service of the process decodes its config from: what the operator set,
 * completed with the secrets standalone generated for the variables left unset (an operator's own
 * `PARLEY_SECRET_KEY`, `PARLEY_OPERATOR_TOKEN` or `PARLEY_CLOUD_VERIFY_TOKEN` always wins), and the
 * data directory resolved.
 */
export const serviceEnvironment = (
  env: EnvRecord,
  secrets: StandaloneSecrets,
  dataDir: string,
  generated: { readonly cloudVerifyToken?: string } = {},
): EnvRecord => ({
  ...env,
  ...(generated.cloudVerifyToken === undefined || present(env.PARLEY_CLOUD_VERIFY_TOKEN) !== undefined
    ? {}
    : { PARLEY_CLOUD_VERIFY_TOKEN: generated.cloudVerifyToken }),
  PARLEY_DATA_DIR: dataDir,
  PARLEY_SECRET_KEY: present(env.PARLEY_SECRET_KEY) ?? secrets.secretKey,
  PARLEY_INTERNAL_SECRET: present(env.PARLEY_INTERNAL_SECRET) ?? secrets.internalSecret,
  PARLEY_OPERATOR_TOKEN: present(env.PARLEY_OPERATOR_TOKEN) ?? secrets.operatorToken,
})

const present = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === "" ? undefined : value
