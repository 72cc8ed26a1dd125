/**
 * `makeHttpServer`: the Fastify instance every service starts from, with the contract's cross-cutting
 * behaviour in one place — request ids on every response, strict JSON bodies, 413/415, a JSON 404,
 * one error handler, health probes, metrics and one access-log line per request.
 */
import type { ServiceRoutes } from "@parley/contracts"
import { type FastifyInstance, fastify, LogController } from "fastify"
import { notFound } from "../errors.ts"
import type { ParleyLogger } from "../logger.ts"
import { censorUrl, writesAccessLog } from "../logger.ts"
import { makeServiceMetrics, type ServiceMetrics } from "../metrics.ts"
import { installBodyParsers } from "./body.ts"
import { handleError, sendApiError, toApiError } from "./error-response.ts"
import { type ReadinessCheck, registerHealthRoutes } from "./health.ts"
import { installHttpMetrics, registerMetricsRoute } from "./http-metrics.ts"
import { LazyChildLogger } from "./lazy-child-logger.ts"
import { REQUEST_ID_HEADER, requestIdOf } from "./request-id.ts"
import { refuseUndeclaredRoutes } from "./routes.ts"

declare module "fastify" {
  interface FastifyInstance {
    /** The service's metrics registry (also behind `/metrics` unless `exposeMetrics: false`). */
    metrics: ServiceMetrics
  }
}

/** CONTRACT.md §1: 1 MiB for JSON bodies unless a route says otherwise. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024

export interface HttpServerOptions {
  readonly service: string
  readonly logger: ParleyLogger
  /** Server-wide body limit in bytes; routes override with Fastify's `bodyLimit` route option. */
  readonly bodyLimit?: number
  readonly readiness?: ReadonlyArray<ReadinessCheck>
  /** Serve `/metrics` on this server (default true). The gateway's public server says false. */
  readonly exposeMetrics?: boolean
  /** A registry to record into (to share one between a public and an internal server). */
  readonly metrics?: ServiceMetrics
  /** Trust `X-Forwarded-*` from a proxy in front (Fastify's `trustProxy`). */
  readonly trustProxy?: boolean | string | Array<string>
  /**
   * The service's route declarations (`@parley/contracts`): registered with `serveRoutes`, and the
   * only routes the server accepts besides health and metrics — registering any other throws.
   */
  readonly routes?: ServiceRoutes
}

export const makeHttpServer = (options: HttpServerOptions): FastifyInstance => {
  const metrics = options.metrics ?? makeServiceMetrics(options.service)
  const app = fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "requestId" }),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    requestIdHeader: false,
    genReqId: requestIdOf,
    // The per-request child logger is made only if the request writes a line (see the class).
    childLoggerFactory: (logger, bindings, options) =>
      new LazyChildLogger(logger as unknown as ParleyLogger, bindings, options) as unknown as typeof logger,
    trustProxy: options.trustProxy ?? false,
    // While draining, finish requests normally (with `Connection: close`) instead of Fastify's
    // non-contract 503 body: the load balancer has already stopped sending new traffic.
    return503OnClosing: false,
    // Errors Fastify raises before routing (malformed URL encoding, over-long params) still get a
    // contract body and a request id.
    frameworkErrors: (error, request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id)
      sendApiError(reply, toApiError(error))
    },
  }) as unknown as FastifyInstance

  app.decorate("metrics", metrics)
  app.decorateRequest("principal", undefined)
  installBodyParsers(app)
  installHttpMetrics(app, metrics)

  // Callback-style hooks: an async hook costs a promise and a microtask on every request.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done()
  })
  // The access line; not written by a service whose requests the gateway in front, in the same
  // process, already logs (`makeLogger`'s `accessLog`).
  const accessLog = writesAccessLog(options.logger)
  app.addHook("onResponse", (request, reply, done) => {
    // Below the info level (production runs at warn) the line would be dropped: skip building it
    // (the URL censoring regex and the fields object cost a few µs on every request).
    if (accessLog && (request.log as unknown as ParleyLogger).isLevelEnabled("info")) {
      request.log.info(
        {
          method: request.method,
          url: censorUrl(request.url),
          route: request.routeOptions.url,
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 10) / 10,
        },
        "request completed",
      )
    }
    done()
  })

  drainKeptAliveConnections(app)

  app.setErrorHandler(handleError)
  app.setNotFoundHandler((_request, reply) => sendApiError(reply, notFound()))

  registerHealthRoutes(app, options.readiness ?? [])
  if (options.exposeMetrics ?? true) registerMetricsRoute(app, metrics)
  app.decorate("declaredRoutes", options.routes)
  if (options.routes !== undefined) refuseUndeclaredRoutes(app, options.routes)
  return app
}

/**
 * Lets `close()` finish once in-flight requests are answered. Node's `server.close()` reaps the
 * connections idle at that moment only; a kept-alive connection whose request was still running
 * would stay open after its answer until the client dropped it (undici follows the 72 s keep-alive
 * hint), holding the close — and a rolling deploy — that long. While closing, every answer says
 * `Connection: close`, and connections that fall idle are reaped as they do.
 */
const drainKeptAliveConnections = (app: FastifyInstance): void => {
  let closing = false
  let reaper: ReturnType<typeof setInterval> | undefined
  app.addHook("preClose", (done) => {
    closing = true
    reaper = setInterval(() => app.server.closeIdleConnections(), 100)
    reaper.unref()
    done()
  })
  app.addHook("onClose", (_instance, done) => {
    clearInterval(reaper)
    done()
  })
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close")
    done(null, payload)
  })
}

export interface MetricsServerOptions {
  readonly service: string
  readonly logger: ParleyLogger
  readonly metrics: ServiceMetrics
  readonly readiness?: ReadonlyArray<ReadinessCheck>
}

/**
 * A separate internal server with `/metrics` and the health probes only, for a service whose public
 * server must not expose metrics (the gateway: CONTRACT.md §11).
 */
export const makeMetricsServer = (options: MetricsServerOptions): FastifyInstance =>
  makeHttpServer({
    service: options.service,
    logger: options.logger,
    metrics: options.metrics,
    readiness: options.readiness ?? [],
    exposeMetrics: true,
  })
