import { isIP } from "node:net"
import { Effect, Schema } from "effect"
import { isPublicAddress } from "./address.ts"
import { type Resolver, systemResolver } from "./resolver.ts"

export const MaxUrlLength = 2048

/** Why a tenant-chosen URL was refused; `reason` is a sentence fit for a 400's `issues`. */
export class UrlRefused extends Schema.TaggedError<UrlRefused>()("UrlRefused", {
  reason: Schema.String,
}) {}

export interface UrlPolicy {
  /** PARLEY_WEBHOOK_ALLOW_PRIVATE=true: loopback and private hosts are allowed (development, tests). */
  readonly allowPrivate: boolean
  readonly resolver?: Resolver
}

const hostOf = (url: URL): string =>
  url.hostname.startsWith("[") && url.hostname.endsWith("]") ? url.hostname.slice(1, -1) : url.hostname

/**
 * Validation at registration: an absolute http(s) URL of at most 2048 characters, without
 * credentials, whose host is — and resolves only to — public addresses. The same check happens
 * again at connect time in `EgressClient`, against the address actually connected to.
 */
export const assertPublicUrl = (raw: string, policy: UrlPolicy): Effect.Effect<URL, UrlRefused> =>
  Effect.gen(function* () {
    if (raw.length > MaxUrlLength)
      return yield* new UrlRefused({ reason: `must be at most ${MaxUrlLength} characters` })
    if (!URL.canParse(raw)) return yield* new UrlRefused({ reason: "must be an absolute URL" })
    const url = new URL(raw)
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return yield* new UrlRefused({ reason: "must use http or https" })
    }
    if (url.username !== "" || url.password !== "") {
      return yield* new UrlRefused({ reason: "must not contain credentials" })
    }
    if (url.hostname === "") return yield* new UrlRefused({ reason: "must have a host" })
    // Nothing listens on port 0: a connection there can never be made.
    if (url.port === "0") return yield* new UrlRefused({ reason: "must not use port 0" })
    if (policy.allowPrivate) return url
    const host = hostOf(url)
    if (isIP(host) !== 0) {
      if (!isPublicAddress(host)) return yield* new UrlRefused({ reason: "must not point to a non-public address" })
      return url
    }
    const resolve = policy.resolver ?? systemResolver
    const addresses = yield* Effect.tryPromise({
      try: () => resolve(host),
      catch: () => new UrlRefused({ reason: "host does not resolve" }),
    })
    if (addresses.length === 0) return yield* new UrlRefused({ reason: "host does not resolve" })
    if (addresses.some((answer) => !isPublicAddress(answer.address))) {
      return yield* new UrlRefused({ reason: "must not resolve to a non-public address" })
    }
    return url
  })
