/**
 * The gateway's two questions to identity — who holds this key digest, whose session is this token
 * digest — over a keep-alive pool, each call signed with `x-parley-internal`. Only digests travel:
 * the key and the session token never leave the gateway.
 */
import {
  type KeyLookupResponse as KeyLookup,
  KeyLookupResponse,
  type SessionLookupResponse as SessionLookup,
  SessionLookupResponse,
} from "@parley/contracts"
import { type InternalSecret, internalCallHeaders } from "@parley/platform"
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

  const post = async <A>(path: string, body: object, decode: (u: unknown) => A): Promise<A | undefined> => {
    let response: Dispatcher.ResponseData
    try {
      response = await options.pool.request({
        method: "POST",
        path,
        headers: {
          "content-type": "application/json",
          ...internalCallHeaders(options.internalSecret, { method: "POST", path }),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
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
