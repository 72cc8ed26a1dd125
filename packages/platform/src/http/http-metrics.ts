/**
 * Request count and duration by method, route template and status. The route label is the
 * template (`/api/org/webhooks/:id`), never the raw URL, so label cardinality stays bounded;
 * unmatched requests share one label.
 */
import type { FastifyInstance } from "fastify"
import { LATENCY_BUCKETS_SECONDS, type ServiceMetrics } from "../metrics.ts"

export const installHttpMetrics = (app: FastifyInstance, metrics: ServiceMetrics): void => {
  const requests = metrics.counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route and status",
    labelNames: ["method", "route", "status"],
  })
  const duration = metrics.histogram({
    name: "http_request_duration_seconds",
    help: "Time from request to response, by method, route and status",
    labelNames: ["method", "route", "status"],
    buckets: LATENCY_BUCKETS_SECONDS,
  })
  // Callback-style: an async hook costs a promise and a microtask on every request.
  app.addHook("onResponse", (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? "unmatched",
      status: String(reply.statusCode),
    }
    requests.inc(labels)
    duration.observe(labels, reply.elapsedTime / 1000)
    done()
  })
}

export const registerMetricsRoute = (app: FastifyInstance, metrics: ServiceMetrics): void => {
  app.get("/metrics", { logLevel: "warn" }, async (_request, reply) => {
    const { contentType, body } = await metrics.expose()
    return reply.type(contentType).send(body)
  })
}
