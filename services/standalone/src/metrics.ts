import type { ServiceMetrics } from "@parley/platform"
import { AggregatorRegistry, type Registry } from "prom-client"

/**
 * One `/metrics` for the whole process: every service keeps its own registry (labelled with its
 * name), and the exposition merges them per metric family, so series stay apart by `service`.
 */
export const combinedMetrics = (services: ReadonlyArray<ServiceMetrics>): ServiceMetrics => {
  const [first] = services
  if (first === undefined) throw new Error("combinedMetrics needs at least one service")
  const merged = async (): Promise<Registry> =>
    AggregatorRegistry.aggregate(await Promise.all(services.map((service) => service.registry.getMetricsAsJSON())))
  return {
    ...first,
    service: "standalone",
    expose: async () => {
      const registry = await merged()
      return { contentType: registry.contentType, body: await registry.metrics() }
    },
  }
}
