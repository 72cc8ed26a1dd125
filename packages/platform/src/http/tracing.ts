/**
 * A SERVER span per request when tracing is on (docs/contract.md §18): the caller's `traceparent` is its
 * parent, and the route's handler runs inside its context — plain code through OpenTelemetry's
 * context, Effect routes (`effectHandler`) as their fiber's parent span — so what the handler
 * publishes and calls continues the trace. Probes and `/metrics` are not traced. Installed only
 * when tracing was started before the server was made; otherwise nothing is added to a request.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from "fastify"
import { endSpan, extractContext, Otel, startSpan, tracingEnabled } from "../tracing.ts"

const traceKey = Symbol("parley.trace")
type Traced = { readonly span: Otel.Span; readonly context: Otel.Context }
type WithTrace = FastifyRequest & { [traceKey]?: Traced }

/** The request's span context (its handler's parent), if it is traced. */
export const traceContextOf = (request: FastifyRequest): Otel.Context | undefined =>
  (request as WithTrace)[traceKey]?.context

const untraced = (url: string | undefined) => url === undefined || url.startsWith("/health/") || url === "/metrics"

export const installTracing = (app: FastifyInstance, service: string): void => {
  if (!tracingEnabled()) return
  app.addHook("onRequest", (request, reply, done) => {
    const route = request.routeOptions.url
    if (!untraced(route)) {
      const started = startSpan(
        `${request.method} ${route}`,
        {
          kind: Otel.SpanKind.SERVER,
          attributes: {
            "http.request.method": request.method,
            "http.route": route as string,
            "url.path": request.url.split("?")[0] as string,
            "parley.service": service,
            "parley.request_id": request.id,
          },
        },
        extractContext(request.headers),
      )
      if (started !== undefined) {
        ;(request as WithTrace)[traceKey] = started
        // Ended when the answer is out, also one written on the raw response (a route that
        // hijacks the reply, as the gateway's forwarding does, never reaches onResponse).
        const response = reply.raw
        response.once("close", () => {
          started.span.setAttribute("http.response.status_code", response.statusCode)
          if (!response.writableFinished) started.span.setAttribute("parley.response_aborted", true)
          endSpan(started.span, response.statusCode >= 500 ? `HTTP ${response.statusCode}` : undefined)
        })
      }
    }
    done()
  })
  app.addHook("onRoute", (route: RouteOptions) => {
    const handler = route.handler
    route.handler = function traced(this: unknown, request, reply) {
      const context = traceContextOf(request)
      return context === undefined
        ? handler.call(this as never, request, reply)
        : Otel.context.with(context, () => handler.call(this as never, request, reply))
    }
  })
}
