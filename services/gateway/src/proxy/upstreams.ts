/** One keep-alive connection pool per service the gateway forwards to. */
import { Pool } from "undici"
import type { ServiceName } from "../routing/route-table.ts"

export type ServiceUrls = Readonly<Record<ServiceName, string>>

export interface Upstreams {
  pool(service: ServiceName): Pool
  close(): Promise<void>
}

export const makeUpstreams = (urls: ServiceUrls, connectionsPerService = 64): Upstreams => {
  const pools = new Map<ServiceName, Pool>()
  return {
    pool: (service) => {
      let pool = pools.get(service)
      if (pool === undefined) {
        pool = new Pool(urls[service], {
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
    close: async () => {
      await Promise.all([...pools.values()].map((pool) => pool.close()))
      pools.clear()
    },
  }
}
