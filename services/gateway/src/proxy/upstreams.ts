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
  close(): Promise<void>
}

export const makeUpstreams = (targets: ServiceTargets, connectionsPerService = 64): Upstreams => {
  const pools = new Map<ServiceName, Pool>()
  return {
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
      await Promise.all([...pools.values()].map((pool) => pool.close()))
      pools.clear()
    },
  }
}
