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
 * TOOLCHAIN.md). Clients should use one connection; tests that play several processes may open a
 * few, up to `maxConnections`.
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
