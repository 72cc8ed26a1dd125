/**
 * The gateway's two questions to identity — who holds this key digest, whose session is this token
 * digest — over a keep-alive pool, each call signed with `x-parley-internal`. Only digests travel:
 * the key and the session token never leave the gateway.
 *
 * With tracing on, each call is a CLIENT span of the request it is made for (the active context:
 * the pipeline runs in the request's), whose `traceparent` and `tracestate` identity continues, so
 * authentication shows in the request's trace and follows its sampling decision (docs/contract.md §18).
 * A key lookup that several requests wait on (the key cache shares one in flight) is in the trace
 * of the request that started it. Tracing off, the call is made as it is: not a closure more.
 */
import {
  type KeyLookupResponse as KeyLookup,
  KeyLookupResponse,
  type SessionLookupResponse as SessionLookup,
  SessionLookupResponse,
} from "@parley/contracts"
import { type InternalSecret, internalCallHeaders, tracedCall, tracingEnabled } from "@parley/platform"
import { Schema } from "effect"
import type { Dispatcher } from "undici"

/** Identity did not answer usefully (down, timed out, 5xx, a body we cannot read): a 503 for the caller. */
export class IdentityUnavailable extends Error {
  override readonly name = "IdentityUnavailable"
}

export interface IdentityClient {
  /** The key's record, or `undefined` when identity knows no such digest. */
  lookupKey(digest: string): Promise<KeyLookup | undefined>
  lookupSession(tokenDigest: string): Promise<SessionLookup | undefined>
}

export interface IdentityClientOptions {
  readonly pool: Dispatcher
  readonly internalSecret: InternalSecret
  readonly timeoutMs?: number
}

const decodeKey = Schema.decodeUnknownSync(KeyLookupResponse)
const decodeSession = Schema.decodeUnknownSync(SessionLookupResponse)

export const makeIdentityClient = (options: IdentityClientOptions): IdentityClient => {
  const timeoutMs = options.timeoutMs ?? 2_000

  const send = (path: string, body: object, headers: Record<string, string>) =>
    options.pool.request({
      method: "POST",
      path,
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    })

  const tracedSend = (path: string, body: object, headers: Record<string, string>) =>
    tracedCall(`identity POST ${path}`, headers, { "http.request.method": "POST", "url.path": path }, async (span) => {
      const response = await send(path, body, headers)
      span?.setAttribute("http.response.status_code", response.statusCode)
      return response
    })

  const post = async <A>(path: string, body: object, decode: (u: unknown) => A): Promise<A | undefined> => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      ...internalCallHeaders(options.internalSecret, { method: "POST", path }),
    }
    let response: Dispatcher.ResponseData
    try {
      response = await (tracingEnabled() ? tracedSend(path, body, headers) : send(path, body, headers))
    } catch (error) {
      throw new IdentityUnavailable(`identity ${path}: ${(error as Error).message}`)
    }
    if (response.statusCode === 404) {
      await response.body.dump()
      return undefined
    }
    if (response.statusCode !== 200) {
      await response.body.dump()
      throw new IdentityUnavailable(`identity ${path}: status ${response.statusCode}`)
    }
    try {
      return decode(await response.body.json())
    } catch (error) {
      throw new IdentityUnavailable(`identity ${path}: unreadable answer: ${(error as Error).message}`)
    }
  }

  return {
    lookupKey: (digest) => post("/internal/keys/lookup", { digest }, decodeKey),
    lookupSession: (tokenDigest) => post("/internal/sessions/lookup", { tokenDigest }, decodeSession),
  }
}
