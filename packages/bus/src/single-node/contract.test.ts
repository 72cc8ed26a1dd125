import { clientOptions, Database, startEmbeddedPostgres } from "@parley/db"
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
  pollMs: 250,
  retryBaseMs: 20,
  retryMaxMs: 200,
  drainTimeoutMs: 500,
  commitIntervalMs: 50,
}

interface Connections {
  /** The backend's own connection, like an operator's psql: topics and committed offsets. */
  readonly admin: postgres.Sql
  readonly forInstance: () => { sql: postgres.Sql; crash: () => Promise<void>; close: () => Promise<void> }
  readonly embedded: boolean
  readonly close: () => Promise<void>
}

const backendOn = (connections: Connections): BusContractBackend => {
  const { admin, embedded } = connections
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
          Layer.provideMerge(Layer.succeed(Database, { sql, embedded })),
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
      embedded: db.embedded,
      // Each instance has its own client, as a separate process would; a crash kills it.
      forInstance: () => {
        const sql = postgres(db.url, clientOptions(2))
        return { sql, crash: () => sql.end({ timeout: 0 }), close: () => sql.end({ timeout: 5 }) }
      },
      close: () => db.close(),
    }),
  )
})

busContractSuite("SingleNodeBus on embedded PGlite", async () => {
  const server = await startEmbeddedPostgres()
  // pglite-socket interleaves the protocol messages of concurrent connections on its one session
  // ("portal does not exist"), so every instance shares the one connection an embedded process
  // has; a crash is played by the bus's crashSignal instead of killing the connection.
  const sql = postgres(server.url, clientOptions(1))
  return withSchema(
    backendOn({
      admin: sql,
      embedded: true,
      forInstance: () => ({ sql, crash: async () => {}, close: async () => {} }),
      close: async () => {
        await sql.end({ timeout: 5 })
        await server.close()
      },
    }),
  )
})
