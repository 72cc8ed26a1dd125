import { type ServiceProcess, startServiceProcess } from "@parley/platform/testing"
import { internalSecret, secretKey } from "./harness.ts"

export type ChildRegistry = ServiceProcess

/**
 * services/webhook-registry/src/main.ts as its own process, exactly as deployed, on the test's
 * database (and bus, through `extra`). Answers once it is ready: its consumers started.
 */
export const startChildRegistry = (env: {
  databaseUrl: string
  extra?: Record<string, string>
}): Promise<ChildRegistry> =>
  startServiceProcess({
    name: "registry",
    main: new URL("../src/main.ts", import.meta.url),
    portVariable: "PARLEY_WEBHOOK_REGISTRY_PORT",
    env: {
      DATABASE_URL: env.databaseUrl,
      PARLEY_SECRET_KEY: secretKey,
      PARLEY_INTERNAL_SECRET: internalSecret,
      PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
      ...env.extra,
    },
  })
