import { connect, createServer, type Socket } from "node:net"
import postgres from "postgres"
import { clientOptions } from "./Database.ts"
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded/index.ts"

export interface FreshDatabase {
  readonly url: string
  readonly sql: postgres.Sql
  /** True when no Postgres server was reachable and the database is on an embedded server. */
  readonly embedded: boolean
  close(): Promise<void>
}

const defaultServerUrl = "postgres://postgres@127.0.0.1:5432/postgres"

/**
 * The embedded server of this process when no other is reachable: started once, on first need, in
 * a temporary directory; its reaper stops it and removes the directory when the process exits.
 */
let embeddedServer: Promise<EmbeddedPostgres> | undefined
const sharedEmbeddedServer = (): Promise<EmbeddedPostgres> => {
  if (embeddedServer === undefined) {
    console.warn("\n*** freshDatabase: no Postgres reachable; starting an EMBEDDED PostgreSQL server ***\n")
    embeddedServer = startEmbeddedPostgres().catch((error: unknown) => {
      embeddedServer = undefined
      throw error
    })
  }
  return embeddedServer
}

/**
 * A new, uniquely named database on `DATABASE_URL`'s server (else the local one), dropped with
 * `force` by `close()`. Without a reachable server, the database is made on an embedded PostgreSQL
 * server (the same engine as `npm start`'s), started once per process — and said so, once.
 */
export const freshDatabase = async (): Promise<FreshDatabase> => {
  const configured = process.env.DATABASE_URL ?? defaultServerUrl
  const name = `parley_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  let serverUrl = configured
  let embedded = false
  try {
    // A plain TCP probe first: refused in a millisecond, where the client would retry for seconds.
    await probe(new URL(configured))
  } catch (error) {
    if (!isUnreachable(error)) throw error
    serverUrl = (await sharedEmbeddedServer()).url
    embedded = true
  }
  const admin = postgres(serverUrl, { ...clientOptions(1), connect_timeout: 3 })
  try {
    await admin.unsafe(`create database "${name}"`)
  } catch (error) {
    await admin.end({ timeout: 0 })
    throw error
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const sql = postgres(url.href, clientOptions(5))
  return {
    url: url.href,
    sql,
    embedded,
    close: async () => {
      await sql.end({ timeout: 5 })
      await admin.unsafe(`drop database if exists "${name}" with (force)`)
      await admin.end({ timeout: 5 })
    },
  }
}

const isUnreachable = (error: unknown): boolean => {
  const code = (error as { code?: unknown }).code
  return code === "ECONNREFUSED" || code === "CONNECT_TIMEOUT" || code === "ENOTFOUND" || code === "EHOSTUNREACH"
}

const probe = (url: URL) =>
  new Promise<void>((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 5432) })
    socket.setTimeout(3_000, () => socket.destroy(Object.assign(new Error("timeout"), { code: "CONNECT_TIMEOUT" })))
    socket.once("connect", () => {
      socket.end()
      resolve()
    })
    socket.once("error", reject)
  })

export interface DatabaseLink {
  /** The database URL through the link. */
  readonly url: string
  /** Ends every open connection and refuses new ones, as a database that went down. */
  cut(): Promise<void>
  restore(): Promise<void>
  close(): Promise<void>
}

/**
 * A plain TCP relay on loopback in front of a Postgres server: clients reach their database through
 * it, so a test can make the database unreachable (open connections reset, new ones reset as soon
 * as they connect) without touching the shared server. The relay keeps its port while cut: closed,
 * the port could be taken by another test's listener, and a client connecting there would wait for
 * a Postgres greeting that never comes instead of failing at once.
 */
export const startDatabaseLink = async (databaseUrl: string): Promise<DatabaseLink> => {
  const target = new URL(databaseUrl)
  const sockets = new Set<Socket>()
  let cut = false
  const server = createServer((client) => {
    if (cut) {
      client.resetAndDestroy()
      return
    }
    const upstream = connect({ host: target.hostname, port: Number(target.port || 5432) })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
      socket.on("error", () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const url = new URL(target.href)
  url.hostname = "127.0.0.1"
  url.port = String((server.address() as { port: number }).port)
  return {
    url: url.href,
    cut: async () => {
      cut = true
      for (const socket of sockets) socket.resetAndDestroy()
    },
    restore: async () => {
      cut = false
    },
    close: async () => {
      cut = true
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
