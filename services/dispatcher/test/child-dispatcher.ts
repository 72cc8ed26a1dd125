import { type ServiceProcess, startServiceProcess } from "@parley/platform/testing"
import { secretKey } from "./harness.ts"

export type ChildDispatcher = ServiceProcess

/**
 * services/dispatcher/src/main.ts as its own process, exactly as deployed, on the test's database.
 * Waits for /health/ready (the consumers have joined their groups; on Kafka a restarted member
 * waits for the killed one's session to expire first), or only /health/live when `ready` is false.
 */
export const startChildDispatcher = (env: {
  databaseUrl: string
  scheduleMs?: string
  extra?: Record<string, string>
  ready?: boolean
}): Promise<ChildDispatcher> =>
  startServiceProcess({
    name: "dispatcher",
    main: new URL("../src/main.ts", import.meta.url),
    portVariable: "PARLEY_DISPATCHER_PORT",
    readyPath: env.ready === false ? "/health/live" : "/health/ready",
    env: {
      DATABASE_URL: env.databaseUrl,
      PARLEY_SECRET_KEY: secretKey,
      PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
      ...(env.scheduleMs === undefined ? {} : { PARLEY_DISPATCH_SCHEDULE_MS: env.scheduleMs }),
      ...env.extra,
    },
  })
