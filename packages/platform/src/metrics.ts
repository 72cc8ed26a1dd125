/**
 * One Prometheus registry per service (so `standalone`, which runs every service in one process,
 * still exposes each service's metrics apart), labelled with the service name, with the default
 * process metrics, and small typed helpers for the service's own counters, gauges and histograms.
 */
import {
  Counter,
  type CounterConfiguration,
  collectDefaultMetrics,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  Registry,
} from "prom-client"
import { collectsProcessMetrics, type ParleyLogger } from "./logger.ts"

export interface ServiceMetrics {
  readonly service: string
  readonly registry: Registry
  counter<L extends string>(config: Omit<CounterConfiguration<L>, "registers">): Counter<L>
  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, "registers">): Gauge<L>
  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, "registers">): Histogram<L>
  /** The exposition text and its content type, for a `/metrics` route. */
  expose(): Promise<{ contentType: string; body: string }>
}

export interface ServiceMetricsOptions {
  /** Node process metrics (event loop lag, heap, GC); off for short-lived test servers. */
  readonly defaultMetrics?: boolean
}

/**
 * A service's registry, with the process's own metrics (event loop, heap, GC) unless its logger says
 * otherwise (`makeLogger`'s `processMetrics`): the services npm start hosts behind its gateway leave
 * them to the gateway's registry. One set per service was summed by standalone's merged `/metrics`
 * (a heap seven times the real one) and ran one event-loop timer per service at idle.
 */
export const metricsForService = (service: string, logger: ParleyLogger): ServiceMetrics =>
  makeServiceMetrics(service, { defaultMetrics: collectsProcessMetrics(logger) })

export const makeServiceMetrics = (service: string, options: ServiceMetricsOptions = {}): ServiceMetrics => {
  const registry = new Registry()
  registry.setDefaultLabels({ service })
  // The event loop's delay sampled every 100 ms, not prom-client's 10: a 10 ms timer woke an idle
  // process 100 times a second (about half of npm start's idle CPU), and ten samples a second still
  // catch every stall long enough to matter.
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 })
  // A second `counter("x")` returns the first instead of throwing: routes and plugins may each ask.
  const existing = <M>(name: string): M | undefined => registry.getSingleMetric(name) as M | undefined
  return {
    service,
    registry,
    counter: (config) => existing(config.name) ?? new Counter({ ...config, registers: [registry] }),
    gauge: (config) => existing(config.name) ?? new Gauge({ ...config, registers: [registry] }),
    histogram: (config) => existing(config.name) ?? new Histogram({ ...config, registers: [registry] }),
    expose: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  }
}

/** Latency buckets (seconds) suited to HTTP handlers and outbound calls. */
export const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
