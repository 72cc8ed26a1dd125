/**
 * Forwarding to the owning service over its keep-alive pool: method, path and query as routed, the
 * body as bytes (a checked JSON body) or as the client's own stream (uploads, provider callbacks),
 * and the service's answer streamed back as it comes. A service that cannot be reached is a 503
 * with `Retry-After`, never a 500 and never a hang.
 */
import type { Readable } from "node:stream"
import { pipeline } from "node:stream"
import {
  handPrincipalInProcess,
  type InternalSecret,
  injectContext,
  type Principal,
  signPrincipal,
} from "@parley/platform"
import type { FastifyReply, FastifyRequest } from "fastify"
import { ServiceUnreachable } from "../errors.ts"
import { toApiError } from "../http/errors.ts"
import { BodyRefused, byteBudget } from "../http/request-body.ts"
import type { GatewayInstruments } from "../metrics.ts"
import type { Route } from "../routing/route-table.ts"
import { requestHeadersFor, responseHeadersFor } from "./forward-headers.ts"
import { InProcessDispatcher } from "./in-process.ts"
import { callUpstream, type UpstreamAnswer } from "./upstream-call.ts"
import type { Upstreams } from "./upstreams.ts"

export interface ForwardRequest {
  readonly route: Route
  /** Path and query to send. */
  readonly url: string
  /** The authenticated caller: signed into a header over HTTP, handed over as it is in process. */
  readonly principal: Principal | undefined
  /** A body the gateway read (JSON); `undefined` streams the client's body, if any. */
  readonly body: Buffer | undefined
}

export interface Forwarder {
  forward(request: FastifyRequest, reply: FastifyReply, forward: ForwardRequest): Promise<FastifyReply>
}

const BUFFERED_ANSWER_LIMIT = 64 * 1024

type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS"

/**
 * A bodiless call to a service in this process (`npm start`) — or a provider's callback, its body
 * still unread — is handed over whole: the service's Fastify routes the client's request, with the
 * headers it would get over HTTP, and answers on the client's connection — no simulated request, no
 * copy of the answer. Simulating the hop with `inject` cost about as much CPU as the rest of the
 * gateway's work on such a call (test/bench/gateway).
 * The principal goes with the request object itself (`handPrincipalInProcess`), neither signed here
 * nor verified there: within one process there is nothing to authenticate, and signing, verifying
 * and decoding it was a sixth of the gateway's CPU per request at log level warn.
 */
const handOff = (
  service: InProcessDispatcher,
  request: FastifyRequest,
  reply: FastifyReply,
  forward: ForwardRequest,
  headers: Record<string, string | Array<string>>,
  metrics: GatewayInstruments,
): FastifyReply => {
  const started = performance.now()
  const raw = reply.raw
  // What the gateway already decided (request id, rate-limit and CORS headers) goes out with the
  // service's answer; a header the service sets itself takes precedence, as over HTTP.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) raw.setHeader(name, value as string | number | Array<string>)
  }
  raw.once("finish", () =>
    metrics.upstreamDuration.observe(
      { service: forward.route.service, status: String(raw.statusCode) },
      (performance.now() - started) / 1000,
    ),
  )
  request.raw.headers = headers
  request.raw.url = forward.url
  if (forward.principal !== undefined) handPrincipalInProcess(request.raw, forward.principal)
  reply.hijack()
  service.handOff(request.raw, raw)
  return reply
}

export const makeForwarder = (
  upstreams: Upstreams,
  metrics: GatewayInstruments,
  internalSecret: InternalSecret,
): Forwarder => ({
  forward: async (request, reply, forward) => {
    const { route } = forward
    const upstream = route.stream === true ? upstreams.streams(route.service) : upstreams.pool(route.service)
    // Handed over whole: a bodiless call, and a provider's callback whose bytes the gateway has not
    // touched (its body is the client's own stream, which the service then reads itself, with its
    // own limit, and whose signature it checks over those bytes). Anything else is simulated.
    const handingOff =
      upstream instanceof InProcessDispatcher &&
      !upstream.closed &&
      forward.body === undefined &&
      (request.body == null || (route.body === "raw" && request.body === request.raw))
    const headers = requestHeadersFor(request.headers, {
      surface: route.surface,
      requestId: request.id,
      clientIp: request.ip,
      protocol: request.protocol,
      host: request.headers.host,
      principal:
        forward.principal === undefined || handingOff ? undefined : signPrincipal(internalSecret, forward.principal),
      contentLength: forward.body?.length,
    })
    // The request's span (when tracing is on) is the service's parent, not the client's.
    injectContext(headers as Record<string, string>)
    if (handingOff) return handOff(upstream, request, reply, forward, headers, metrics)
    const clientStream = forward.body === undefined && request.body != null ? (request.body as Readable) : undefined
    let body: Buffer | Readable | undefined = forward.body
    let refused: BodyRefused | undefined
    if (clientStream !== undefined) {
      const budget = byteBudget(route.bodyLimit, { refuseNul: route.body === "csv" })
      body = pipeline(clientStream, budget, (error) => {
        if (error instanceof BodyRefused) refused = error
      })
    }
    const started = performance.now()
    let response: UpstreamAnswer
    try {
      // A small answer of known length is collected whole and sent in one write with its headers;
      // anything else (an export, an answer of unknown length) streams through as it comes.
      response = await callUpstream(
        upstream,
        { method: request.method as HttpMethod, path: forward.url, headers, body: body ?? null },
        BUFFERED_ANSWER_LIMIT,
      )
    } catch (error) {
      const refusal = refused ?? (error instanceof BodyRefused ? error : undefined)
      if (refusal !== undefined) {
        // The rest of the upload is unwanted: close rather than drain it.
        reply.header("connection", "close")
        throw refusal.apiError
      }
      metrics.upstreamUnavailable.inc({ service: route.service })
      request.log.warn({ service: route.service, err: { message: (error as Error).message } }, "service unreachable")
      throw toApiError(new ServiceUnreachable())
    }
    metrics.upstreamDuration.observe(
      { service: route.service, status: String(response.statusCode) },
      (performance.now() - started) / 1000,
    )
    // The service answered before the client's body was all read (a 413 at its own limit, a 401
    // before the payload): the rest of the body is still on the connection, in front of any next
    // request, and nothing will read it. Close the connection after this answer rather than leave
    // the client waiting on it (issue #13: the next request on it hung ~73 s).
    if (clientStream !== undefined && !clientStream.readableEnded) reply.header("connection", "close")
    reply.code(response.statusCode)
    reply.headers(responseHeadersFor(response.headers))
    return reply.send(response.body)
  },
})
