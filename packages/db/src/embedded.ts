import { mkdir } from "node:fs/promises"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"

/** An in-process PGlite served over a loopback socket, so `postgres` (the client) can talk to it. */
export interface EmbeddedPostgres {
  readonly url: string
  close(): Promise<void>
}

/**
 * Starts PGlite persisted under `<dataDir>/pg` (in memory without a dataDir) and serves it on a
 * loopback port chosen by the OS. PGlite has one session: the socket server multiplexes every
 * connection onto it, so an open transaction on one connection holds up all the others (see
 * TOOLCHAIN.md). Worse, it interleaves the extended-protocol messages of concurrent connections
 * (Parse/Bind/Execute of one landing between another's: "portal does not exist"), so use exactly
 * one connection at a time; `maxConnections` only lets a second client connect, e.g. an operator.
 */
export const startEmbeddedPostgres = async (
  options: { dataDir?: string; maxConnections?: number } = {},
): Promise<EmbeddedPostgres> => {
  let dataPath: string | undefined
  if (options.dataDir !== undefined) {
    dataPath = join(options.dataDir, "pg")
    await mkdir(dataPath, { recursive: true })
  }
  const db = await PGlite.create(dataPath === undefined ? {} : { dataDir: dataPath })
  const server = new PGLiteSocketServer({
    db,
    host: "127.0.0.1",
    port: 0,
    maxConnections: options.maxConnections ?? 4,
  })
  await server.start()
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    close: async () => {
      await server.stop()
      await db.close()
    },
  }
}
