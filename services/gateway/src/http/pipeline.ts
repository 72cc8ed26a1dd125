/**
 * One request through the gateway, in this order:
 *
 * 1. route: the declared route that will serve the path as the services' router reads it, or a JSON
 *    404 — no fallback to a service's mount, dot segments refused rather than normalised; `HEAD`
 *    meets its `GET` route's gates; `OPTIONS` is a CORS preflight of a public route, answered here
 *    and never forwarded, or a 404 (`routing/route-table.ts`);
 * 2. `/channels/*` is forwarded at once, untouched, unauthenticated and uncounted;
 * 3. CORS on `/api/public/*`;
 * 4. authentication and authorization (401, 403; 503 when identity cannot answer);
 * 5. the rate limit for the caller's subject (429) — a failed authentication is counted per IP;
 * 6. body checks: content type (415), declared length (413), JSON read and parsed (400, 413) —
 *    before step 4 on `/api/public/*`, whose key may sit in the body;
 * 7. forwarding to the owning service, on the route's canonical path (its declared segments), so the
 *    service serves the route whose gates were met, with the principal (503 when it is down): signed
 *    in a header over HTTP, handed over as it is to a service in this process (`proxy/forward.ts`).
 */
import type { Readable } from "node:stream"
import { isApiError, type Principal } from "@parley/platform"
import type { FastifyReply, FastifyRequest } from "fastify"
import type { Authenticator, Caller } from "../auth/authenticate.ts"
import { IdentityUnavailable } from "../auth/identity-client.ts"
import { hasBodyKey } from "../auth/presented-key.ts"
import type { KeyUsageRecorder } from "../bus/key-usage.ts"
import { NoSuchRoute, ServiceUnreachable } from "../errors.ts"
import type { Forwarder } from "../proxy/forward.ts"
import type { RequestCounter } from "../ratelimit/count.ts"
import {
  canonicalPath,
  hasDotSegment,
  preflightRouteOf,
  type Route,
  routeOf,
  routingPath,
} from "../routing/route-table.ts"
import { answerPreflight, applyCors } from "./cors.ts"
import { toApiError } from "./errors.ts"
import { checkContentType, checkDeclaredLength, type JsonBody, readJsonBody } from "./request-body.ts"

export interface PipelineDependencies {
  readonly authenticator: Authenticator
  /** Counts a request against the rate limits (headers, 429). */
  readonly count: RequestCounter
  readonly forwarder: Forwarder
  readonly usage: KeyUsageRecorder
}

const splitUrl = (url: string): { path: string; query: string | undefined } => {
  const q = url.indexOf("?")
  return q < 0 ? { path: url, query: undefined } : { path: url.slice(0, q), query: url.slice(q + 1) }
}

/** The query without its `apiKey` parameter(s), other parameters byte for byte as sent. */
const withoutApiKey = (query: string): string =>
  query
    .split("&")
    .filter((part) => {
      const name = part.split("=", 1)[0] ?? ""
      try {
        return decodeURIComponent(name.replaceAll("+", " ")) !== "apiKey"
      } catch {
        return true
      }
    })
    .join("&")

const hasBody = (request: FastifyRequest): boolean => request.body !== undefined && request.body !== null

const subjectOf = (caller: Caller, route: Route, ip: string): string => {
  switch (caller.type) {
    case "anonymous":
      return `ip:${ip}`
    case "session":
      return `org:${caller.orgId}`
    case "api_key":
      return route.surface === "public" ? `key:${caller.keyId}:ip:${ip}` : `org:${caller.orgId}`
  }
}

const principalOf = (caller: Caller, requestId: string): Principal | undefined => {
  switch (caller.type) {
    case "anonymous":
      return undefined
    case "session":
      return {
        orgId: caller.orgId,
        role: caller.role,
        actor: {
          type: "user",
          userId: caller.userId,
          ...(caller.email === undefined ? {} : { email: caller.email }),
        },
        requestId,
        ...(caller.orgName === undefined ? {} : { orgName: caller.orgName }),
      }
    case "api_key":
      return {
        orgId: caller.orgId,
        role: caller.role,
        actor: { type: "api_key", keyId: caller.keyId, scopes: [...caller.scopes] },
        requestId,
        ...(caller.orgName === undefined ? {} : { orgName: caller.orgName }),
      }
  }
}

/** Content type (415) and size (413) of the body; a JSON body is read and parsed (400). */
const checkBody = async (request: FastifyRequest, route: Route): Promise<JsonBody | undefined> => {
  if (!hasBody(request)) return undefined
  checkContentType(route, request.headers)
  checkDeclaredLength(request.headers, route.bodyLimit)
  return route.body === "json" ? readJsonBody(request.body as Readable, route.bodyLimit) : undefined
}

export const makePipeline = (deps: PipelineDependencies) => {
  const { count } = deps

  const authenticate = async (
    request: FastifyRequest,
    reply: FastifyReply,
    route: Route,
    path: string,
    json: JsonBody | undefined,
    query: string | undefined,
  ): Promise<Caller> => {
    try {
      return await deps.authenticator.authenticate({
        method: request.method,
        path,
        route,
        headers: request.headers,
        body: json?.value,
        query: route.surface === "public" && query !== undefined ? new URLSearchParams(query) : undefined,
        hasBody: hasBody(request),
      })
    } catch (error) {
      if (error instanceof IdentityUnavailable) {
        request.log.warn({ err: { message: error.message } }, "identity unavailable")
        throw toApiError(new ServiceUnreachable())
      }
      // A refused credential is still a request from somewhere: count it against the client's IP,
      // so guessing keys is rate limited too.
      if (isApiError(error)) await count(reply, `ip:${request.ip}`, false)
      throw error
    }
  }

  /**
   * The widget surface's body, read before its key is known: one refused (400, 413, 415) is still a
   * request, counted against the client's IP like a refused credential, so a flood of bad bodies is
   * rate limited too (docs/contract.md §3 counts every route but health, metrics and provider ingress).
   */
  const checkPublicBody = async (request: FastifyRequest, reply: FastifyReply, route: Route) => {
    try {
      return await checkBody(request, route)
    } catch (error) {
      if (isApiError(error)) await count(reply, `ip:${request.ip}`, false)
      throw error
    }
  }

  const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const split = splitUrl(request.url)
    const { query } = split
    const routed = routingPath(split.path)
    if (routed === undefined || hasDotSegment(split.path)) throw toApiError(new NoSuchRoute())

    if (request.method === "OPTIONS") {
      // A preflight carries no credential and reaches no service: answered for a public route only.
      const asked = preflightRouteOf(routed)
      if (asked === undefined || asked.surface !== "public") throw toApiError(new NoSuchRoute())
      applyCors(request, reply)
      await count(reply, `ip:${request.ip}`, false)
      return answerPreflight(request, reply)
    }
    const route = routeOf(request.method, routed)
    if (route === undefined) throw toApiError(new NoSuchRoute())
    // What the service will route: the declared segments, so it serves exactly `route`.
    const path = canonicalPath(route, split.path, routed)

    let url = path === split.path ? request.url : query === undefined ? path : `${path}?${query}`
    if (route.surface === "channels") {
      return deps.forwarder.forward(request, reply, { route, url, principal: undefined, body: undefined })
    }

    if (route.surface === "public") applyCors(request, reply)

    // The widget surface may carry its key in the JSON body, so its body is read first; elsewhere
    // the credential (and the CSRF rule) is checked before a byte of the body is read.
    const bodyFirst = route.surface === "public"
    let json = bodyFirst ? await checkPublicBody(request, reply, route) : undefined
    const caller = await authenticate(request, reply, route, path, json, query)
    await count(reply, subjectOf(caller, route, request.ip), route.heavy)
    if (!bodyFirst) json = await checkBody(request, route)
    if (caller.type === "api_key") deps.usage.record(caller.keyId, caller.orgId)

    let body: Buffer | undefined = json?.bytes
    if (route.surface === "public") {
      // The key never travels past the gateway: out of the body (§2.2) and out of the query.
      const rest = query === undefined ? undefined : withoutApiKey(query)
      if (rest !== query) url = rest === "" ? path : `${path}?${rest}`
      if (hasBodyKey(json?.value)) {
        const { apiKey: _dropped, ...rest } = json.value as Record<string, unknown>
        body = Buffer.from(JSON.stringify(rest))
      }
    }
    return deps.forwarder.forward(request, reply, { route, url, principal: principalOf(caller, request.id), body })
  }

  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    try {
      return await handle(request, reply)
    } catch (error) {
      // The client may still be sending the rest of a refused body (too large, or refused mid-stream):
      // end the connection with the answer rather than read (or wait for) bytes nobody wants.
      if (isApiError(error) && error.status === 413) reply.header("connection", "close")
      throw error
    }
  }
}
