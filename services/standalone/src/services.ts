/**
 * Every Parley service behind the gateway, each built from its definition (`<name>Service` in its
 * `app.ts`) exactly as `runService` builds it alone: its config decoded from the standalone
 * environment, its own logger, the same constructor. No adapter per service: what differs here is
 * only that they share one Postgres and one bus, and that the gateway reaches each through an
 * in-process dispatcher (the service still receives a whole HTTP request with the principal — handed
 * over unsigned, since nothing leaves the process — and runs every hook it runs behind a network hop,
 * but no socket or port is spent on it).
 */
import { assistantService } from "@parley/assistant"
import type { Bus, OutboxWriter, ServiceDefinition } from "@parley/bus"
import type { ServiceName } from "@parley/contracts"
import type { Database } from "@parley/db"
import { dispatcherService } from "@parley/dispatcher"
import { InProcessDispatcher, type ServiceTargets } from "@parley/gateway"
import { identityService } from "@parley/identity"
import { messagingService } from "@parley/messaging"
import type { EnvRecord, ServiceMetrics } from "@parley/platform"
import { webhookRegistryService } from "@parley/webhook-registry"
import { Effect, type Scope } from "effect"

export type Infrastructure = Database | Bus | OutboxWriter

/** The services of the process, in the order they are built. */
export const services: ReadonlyArray<ServiceDefinition> = [
  identityService,
  webhookRegistryService,
  dispatcherService,
  messagingService,
  assistantService,
]

export interface InternalServices {
  /** What the gateway forwards each service's routes to. */
  readonly targets: ServiceTargets
  /** Each service's metrics, for standalone's one `/metrics`. */
  readonly metrics: ReadonlyArray<ServiceMetrics>
}

export const startInternalServices = (
  env: EnvRecord,
): Effect.Effect<InternalServices, unknown, Infrastructure | Scope.Scope> =>
  Effect.gen(function* () {
    const targets: Partial<Record<ServiceName, InProcessDispatcher>> = {}
    const metrics: Array<ServiceMetrics> = []
    const starts: Array<Effect.Effect<void, unknown, Infrastructure | Scope.Scope>> = []
    for (const service of services) {
      // One access line per request, the gateway's, which hands them over; the process's own
      // metrics once, in the gateway's registry.
      const { make } = yield* service.configure(env, { accessLog: false, processMetrics: false })
      const app = yield* make
      if (service.routes !== undefined) targets[service.routes.service] = new InProcessDispatcher(app.http)
      metrics.push(app.http.metrics)
      if (app.start !== undefined) starts.push(app.start)
    }
    // What starts once a service listens (the dispatcher's consumers) starts once all are built.
    for (const start of starts) yield* start
    return { targets: targets as ServiceTargets, metrics }
  })
