/**
 * One dispatcher per service the gateway forwards to: a keep-alive connection pool for a service
 * reached by URL, or the dispatcher given for a service running in this process (`npm start`).
 */
import { type Dispatcher, Pool } from "undici"
import type { ServiceName } from "../routing/route-table.ts"

export type ServiceUrls = Readonly<Record<ServiceName, string>>
/** Where each service is: its base URL, or a dispatcher that reaches it without a socket. */
export type ServiceTargets = Readonly<Record<ServiceName, string | Dispatcher>>

export interface Upstreams {
  pool(service: ServiceName): Dispatcher
  /**
   * For answers that stay open (server-sent events): connections of their own, as many as there are
   * streams, so that open streams never take the pool's connections from other calls. The service
   * writes a comment line every 25 s, well within the body timeout.
   */
  streams(service: ServiceName): Dispatcher
  close(): Promise<void>
}

export const makeUpstreams = (targets: ServiceTargets, connectionsPerService = 64): Upstreams => {
  const pools = new Map<ServiceName, Pool>()
  const streamPools = new Map<ServiceName, Pool>()
  return {
    streams: (service) => {
      const target = targets[service]
      if (typeof target !== "string") return target
      let pool = streamPools.get(service)
      if (pool === undefined) {
        pool = new Pool(target, { connections: null, headersTimeout: 30_000, bodyTimeout: 60_000 })
        streamPools.set(service, pool)
      }
      return pool
    },
    pool: (service) => {
      const target = targets[service]
      if (typeof target !== "string") return target
      let pool = pools.get(service)
      if (pool === undefined) {
        pool = new Pool(target, {
          connections: connectionsPerService,
          keepAliveTimeout: 10_000,
          // Slow uploads and exports are legitimate; a hung service still ends within these.
          headersTimeout: 30_000,
          bodyTimeout: 30_000,
        })
        pools.set(service, pool)
      }
      return pool
    },
    // Only the pools are the gateway's: a given dispatcher belongs to whoever runs that service.
    close: async () => {
      // Open streams never end by themselves: theirs are destroyed, the others closed gracefully.
      await Promise.all([
        ...[...pools.values()].map((pool) => pool.close()),
        ...[...streamPools.values()].map((pool) => pool.destroy()),
      ])
      pools.clear()
      streamPools.clear()
    },
  }
}
