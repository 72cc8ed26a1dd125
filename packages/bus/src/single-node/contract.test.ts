import { clientOptions, Database } from "@parley/db"
import { freshDatabase } from "@parley/db/testing"
import { Effect, Layer } from "effect"
import postgres from "postgres"
import type { BusContractBackend } from "../contract/harness.ts"
import { busContractSuite } from "../contract/suite.ts"
import { createTopic } from "./log.ts"
import { SingleNodeBus } from "./SingleNodeBus.ts"
import type { BusTimings } from "./timings.ts"

/** Short timings so crashes and rebalances play out in about a second. */
const timings: BusTimings = {
  heartbeatMs: 100,
  sessionMs: 1_000,
  // No fallback poll: every delivery in the suite is woken by NOTIFY.
  pollMs: Number.POSITIVE_INFINITY,
  retryBaseMs: 20,
  retryMaxMs: 200,
  drainTimeoutMs: 500,
  commitIntervalMs: 50,
}

interface Connections {
  /** The backend's own connection, like an operator's psql: topics and committed offsets. */
  readonly admin: postgres.Sql
  readonly forInstance: () => { sql: postgres.Sql; crash: () => Promise<void>; close: () => Promise<void> }
  readonly close: () => Promise<void>
}

const backendOn = (connections: Connections): BusContractBackend => {
  const { admin } = connections
  return {
    createTopic: async (name, partitions) => {
      await createTopic(admin, name, partitions)
    },
    committedOffset: async (groupId, topic, partition) => {
      const [row] = await admin<Array<{ committed: bigint }>>`
        select committed from parley_bus.group_offsets
        where group_id = ${groupId} and topic = ${topic} and partition = ${partition}`
      return row?.committed
    },
    makeInstance: async () => {
      const crashSignal = new AbortController()
      const { sql, crash, close } = connections.forInstance()
      return {
        layer: SingleNodeBus.layer({ timings, crashSignal: crashSignal.signal }).pipe(
          Layer.provideMerge(Layer.succeed(Database, { sql })),
        ),
        crash: async () => {
          crashSignal.abort()
          await crash()
        },
        close,
      }
    },
    close: connections.close,
  }
}

/** Creates parley_bus before the suite's first createTopic, as the first instance would. */
const withSchema = async (backend: BusContractBackend) => {
  const instance = await backend.makeInstance()
  await Effect.runPromise(Effect.scoped(Layer.build(instance.layer)))
  await instance.close()
  return backend
}

busContractSuite("SingleNodeBus on Postgres", async () => {
  const db = await freshDatabase()
  return withSchema(
    backendOn({
      admin: db.sql,
      // Each instance has its own client, as a separate process would; a crash kills it.
      forInstance: () => {
        const sql = postgres(db.url, clientOptions(2))
        return { sql, crash: () => sql.end({ timeout: 0 }), close: () => sql.end({ timeout: 5 }) }
      },
      close: () => db.close(),
    }),
  )
})
