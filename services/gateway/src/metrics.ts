/** The gateway's own metrics, beside the platform's per-route HTTP metrics. */
import { LATENCY_BUCKETS_SECONDS, type ServiceMetrics } from "@parley/platform"
import { Context, Layer } from "effect"

export interface GatewayInstruments {
  readonly keyLookups: ReturnType<ServiceMetrics["counter"]>
  readonly keyChanges: ReturnType<ServiceMetrics["counter"]>
  readonly rateLimited: ReturnType<ServiceMetrics["counter"]>
  readonly limiterFallback: ReturnType<ServiceMetrics["gauge"]>
  readonly upstreamDuration: ReturnType<ServiceMetrics["histogram"]>
  readonly upstreamUnavailable: ReturnType<ServiceMetrics["counter"]>
}

export class GatewayMetrics extends Context.Service<GatewayMetrics, GatewayInstruments>()(
  "@parley/gateway/GatewayMetrics",
) {
  /** The instruments, registered once on the service's registry. */
  static readonly layer = (metrics: ServiceMetrics) =>
    Layer.sync(GatewayMetrics, () => GatewayMetrics.of(instrumentsOf(metrics)))
}

const instrumentsOf = (metrics: ServiceMetrics): GatewayInstruments => ({
  keyLookups: metrics.counter({
    name: "parley_gateway_key_cache_lookups_total",
    help: "API key resolutions, by outcome (hit: answered from memory; miss: asked identity)",
    labelNames: ["outcome"],
  }),
  keyChanges: metrics.counter({
    name: "parley_gateway_key_changes_applied_total",
    help: "KeyChanged records from parley.identity.keys.v1 applied to this instance's key cache",
  }),
  rateLimited: metrics.counter({
    name: "parley_gateway_rate_limited_total",
    help: "Requests refused with 429",
  }),
  limiterFallback: metrics.gauge({
    name: "parley_gateway_rate_limiter_fallback",
    help: "1 while rate limits are counted in this instance's memory because Redis is unreachable",
  }),
  upstreamDuration: metrics.histogram({
    name: "parley_gateway_upstream_duration_seconds",
    help: "Time until a service answered a forwarded request's headers, by service and status",
    labelNames: ["service", "status"],
    buckets: LATENCY_BUCKETS_SECONDS,
  }),
  upstreamUnavailable: metrics.counter({
    name: "parley_gateway_upstream_unavailable_total",
    help: "Forwarded requests answered 503 because the service could not be reached, by service",
    labelNames: ["service"],
  }),
})
