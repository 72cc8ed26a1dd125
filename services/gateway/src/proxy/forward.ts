/**
 * Forwarding to the owning service over its keep-alive pool: method, path and query as routed, the
 * body as bytes (a checked JSON body) or as the client's own stream (uploads, provider callbacks),
 * and the service's answer streamed back as it comes. A service that cannot be reached is a 503
 * with `Retry-After`, never a 500 and never a hang.
 */
import type { Readable } from "node:stream"
import { pipeline } from "node:stream"
import { unavailable } from "@parley/platform"
import type { FastifyReply, FastifyRequest } from "fastify"
import type { GatewayMetrics } from "../gateway-metrics.ts"
import { BodyRefused, byteBudget } from "../http/request-body.ts"
import type { Route } from "../routing/route-table.ts"
import { requestHeadersFor, responseHeadersFor } from "./forward-headers.ts"
import { callUpstream, type UpstreamAnswer } from "./upstream-call.ts"
import type { Upstreams } from "./upstreams.ts"

export interface ForwardRequest {
  readonly route: Route
  /** Path and query to send. */
  readonly url: string
  readonly principal: string | undefined
  /** A body the gateway read (JSON); `undefined` streams the client's body, if any. */
  readonly body: Buffer | undefined
}

export interface Forwarder {
  forward(request: FastifyRequest, reply: FastifyReply, forward: ForwardRequest): Promise<FastifyReply>
}

const BUFFERED_ANSWER_LIMIT = 64 * 1024

type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS"

export const makeForwarder = (upstreams: Upstreams, metrics: GatewayMetrics): Forwarder => ({
  forward: async (request, reply, forward) => {
    const { route } = forward
    const clientStream = forward.body === undefined && request.body != null ? (request.body as Readable) : undefined
    let body: Buffer | Readable | undefined = forward.body
    let refused: BodyRefused | undefined
    if (clientStream !== undefined) {
      const budget = byteBudget(route.bodyLimit, { refuseNul: route.body === "csv" })
      body = pipeline(clientStream, budget, (error) => {
        if (error instanceof BodyRefused) refused = error
      })
    }
    const headers = requestHeadersFor(request.headers, {
      surface: route.surface,
      requestId: request.id,
      clientIp: request.ip,
      protocol: request.protocol,
      host: request.headers.host,
      principal: forward.principal,
      contentLength: forward.body?.length,
    })
    const started = performance.now()
    let response: UpstreamAnswer
    try {
      // A small answer of known length is collected whole and sent in one write with its headers;
      // anything else (an export, an answer of unknown length) streams through as it comes.
      response = await callUpstream(
        upstreams.pool(route.service),
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
      throw unavailable()
    }
    metrics.upstreamDuration.observe(
      { service: route.service, status: String(response.statusCode) },
      (performance.now() - started) / 1000,
    )
    reply.code(response.statusCode)
    reply.headers(responseHeadersFor(response.headers))
    return reply.send(response.body)
  },
})
