/**
 * `makeHttpServer`: the Fastify instance every service starts from, with the contract's cross-cutting
 * behaviour in one place — request ids on every response, strict JSON bodies, 413/415, a JSON 404,
 * one error handler, health probes, metrics and one access-log line per request.
 */
import type { Duplex } from "node:stream"
import { ErrorText, type ServiceRoutes } from "@parley/contracts"
import { type FastifyInstance, type FastifyReply, fastify, LogController } from "fastify"
import { notFound } from "../errors.ts"
import { newId } from "../ids.ts"
import type { ParleyLogger } from "../logger.ts"
import { type AccessLineWriter, accessLineWriter, censorUrl, writesAccessLog } from "../logger.ts"
import { metricsForService, type ServiceMetrics } from "../metrics.ts"
import { installBodyParsers } from "./body.ts"
import { handleError, sendApiError, toApiError } from "./error-response.ts"
import { type ReadinessCheck, registerHealthRoutes } from "./health.ts"
import { installHttpMetrics, registerMetricsRoute } from "./http-metrics.ts"
import { LazyChildLogger } from "./lazy-child-logger.ts"
import { REQUEST_ID_HEADER, requestIdOf } from "./request-id.ts"
import { refuseUndeclaredRoutes } from "./routes.ts"
import { installTracing } from "./tracing.ts"

/**
 * The status lines `answerClientError` writes. Not `node:http`'s `STATUS_CODES`: an ES import of
 * `node:http` builds its namespace from every export, and reading the lazy `WebSocket`,
 * `MessageEvent` and `CloseEvent` exports loads Node's own bundled copy of undici — 13 MB of RSS
 * that no Parley process uses (it calls out with the undici package). Issue #28's memory target;
 * `test/architecture` keeps such imports out.
 */
const STATUS_TEXT: Readonly<Record<400 | 408 | 431, string>> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
}

declare module "fastify" {
  interface FastifyInstance {
    /** The service's metrics registry (also behind `/metrics` unless `exposeMetrics: false`). */
    metrics: ServiceMetrics
  }
}

/** What `makeHttpServer` answers, for packages that hold one without depending on Fastify. */
export type HttpServer = FastifyInstance

/** docs/contract.md §1: 1 MiB for JSON bodies unless a route says otherwise. */
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
   * Name the client's address (`clientIp`) in each access line: the edge's server says true (a
   * service behind it would log the gateway's address).
   */
  readonly logClientIp?: boolean
  /**
   * The service's route declarations (`@parley/contracts`): registered with `serveRoutes`, and the
   * only routes the server accepts besides health and metrics — registering any other throws.
   */
  readonly routes?: ServiceRoutes
}

export const makeHttpServer = (options: HttpServerOptions): FastifyInstance => {
  const metrics = options.metrics ?? metricsForService(options.service, options.logger)
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
    // What Node's HTTP parser refuses before Fastify sees a request (headers or a URL over 16 KB, a
    // raw byte that is not allowed in a URL, a malformed request line) gets a contract body too.
    clientErrorHandler: answerClientError,
    // Errors Fastify raises before routing (malformed URL encoding, over-long params) still get a
    // contract body and a request id.
    frameworkErrors: (error, request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id)
      setHardeningHeaders(reply)
      sendApiError(reply, toApiError(error))
    },
  }) as unknown as FastifyInstance

  app.decorate("metrics", metrics)
  app.decorateRequest("principal", undefined)
  installBodyParsers(app)
  installHttpMetrics(app, metrics)
  installTracing(app, options.service)

  // Callback-style hooks: an async hook costs a promise and a microtask on every request.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    setHardeningHeaders(reply)
    done()
  })
  // The access line; not written by a service whose requests the gateway in front, in the same
  // process, already logs (`makeLogger`'s `accessLog`).
  const accessLog = writesAccessLog(options.logger)
  const logClientIp = options.logClientIp ?? false
  // A logger from `makeLogger` has its own access-line writer (no child logger, no redaction walk);
  // any other writes the line through the request's logger.
  const writeAccessLine: AccessLineWriter =
    accessLineWriter(options.logger) ??
    ((requestId, line) => options.logger.info({ requestId, ...line, url: censorUrl(line.url) }, "request completed"))
  app.addHook("onResponse", (request, reply, done) => {
    // Below the info level (production runs at warn) the line would be dropped: skip building it
    // (the URL censoring regex and the fields object cost a few µs on every request).
    if (accessLog && (request.log as unknown as ParleyLogger).isLevelEnabled("info")) {
      writeAccessLine(request.id, {
        method: request.method,
        url: request.url,
        route: request.routeOptions.url,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        clientIp: logClientIp ? request.ip : undefined,
      })
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
 * Node's parser refused the request: answer in the contract's shape (`{ error, code }`, with a
 * request id and the hardening headers) and close the connection, whose framing can no longer be
 * trusted. 431 for headers (or a URL) too large, else 400; nothing is written to a socket that is
 * gone or already answering.
 */
const answerClientError = (error: Error & { code?: string }, socket: Duplex): void => {
  if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage !== undefined) {
    socket.destroy()
    return
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW"
  const timedOut = error.code === "ERR_HTTP_REQUEST_TIMEOUT"
  const status = tooLarge ? 431 : timedOut ? 408 : 400
  const body = JSON.stringify({
    error: ErrorText.invalidRequest(
      tooLarge ? "request headers or URL too large" : timedOut ? "request took too long" : "malformed HTTP request",
    ),
    code: "invalid_request",
  })
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n` +
      "content-type: application/json; charset=utf-8\r\n" +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      `${REQUEST_ID_HEADER}: ${newId("req")}\r\n` +
      "x-content-type-options: nosniff\r\ncache-control: no-store\r\nconnection: close\r\n\r\n" +
      body,
  )
}

/**
 * Every answer says `X-Content-Type-Options: nosniff`, so no browser runs a JSON error or an
 * uploaded file as a script or a page, and `Cache-Control: no-store` unless its route sets its own
 * caching (the docs, the console's and the widget's files): API answers carry secrets (a new key, a
 * webhook secret, a bridge token, a session cookie) and tenants' personal data, which no browser or
 * proxy cache may keep (OWASP REST Security Cheat Sheet). Set before the handler runs, so a route
 * that caches replaces the default, and so an answer handed over raw (the gateway's in-process
 * hand-off) carries them too.
 */
export const setHardeningHeaders = (reply: FastifyReply): void => {
  reply.header("x-content-type-options", "nosniff")
  reply.header("cache-control", "no-store")
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
 * server must not expose metrics (the gateway: docs/contract.md §11).
 */
export const makeMetricsServer = (options: MetricsServerOptions): FastifyInstance =>
  makeHttpServer({
    service: options.service,
    logger: options.logger,
    metrics: options.metrics,
    readiness: options.readiness ?? [],
    exposeMetrics: true,
  })
