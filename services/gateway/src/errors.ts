/**
 * Why the gateway refuses a request itself, before any service sees it (docs/contract.md §1–§3).
 * Each becomes docs/contract.md's `{ error, code }` in `http/errors.ts`, the one mapping, and the
 * request path (plain code for speed, see the README) throws that answer at once. Plain data
 * classes, not `Schema.TaggedError`s: never thrown themselves, they need no stack, and one costs
 * ~0.1 µs where a `Schema.TaggedError` costs 10–15 µs (measured on this machine) — a refusal
 * under a flood of bad keys or past a limit stays as cheap as it was.
 */
import { Data } from "effect"

/** No credential where one is needed: `apiKeyRequired` (a key surface) or `sessionRequired`. */
export class CredentialRequired extends Data.TaggedClass("CredentialRequired")<{
  readonly text: "apiKeyRequired" | "sessionRequired"
}> {}

/** A key that is malformed, fails its checksum, is unknown or revoked: one answer for all. */
export class InvalidApiKey extends Data.TaggedClass("InvalidApiKey")<{}> {}

/** A session cookie that names no live session. */
export class SessionExpired extends Data.TaggedClass("SessionExpired")<{}> {}

/** A browser origin the key does not allow. */
export class OriginNotAllowed extends Data.TaggedClass("OriginNotAllowed")<{}> {}

/** A session request from another origin than `PARLEY_PUBLIC_URL`'s (CSRF). */
export class CrossSiteRequest extends Data.TaggedClass("CrossSiteRequest")<{}> {}

export class MissingScope extends Data.TaggedClass("MissingScope")<{ readonly scope: string }> {}

/** A widget-only key on a private route. */
export class WidgetKeyForbidden extends Data.TaggedClass("WidgetKeyForbidden")<{}> {}

export class RateLimited extends Data.TaggedClass("RateLimited")<{ readonly retryAfterSeconds: number }> {}

export class UnsupportedMediaType extends Data.TaggedClass("UnsupportedMediaType")<{}> {}

export class PayloadTooLarge extends Data.TaggedClass("PayloadTooLarge")<{}> {}

/** A body the gateway reads and refuses: `what` completes `Invalid request: …`. */
export class InvalidBody extends Data.TaggedClass("InvalidBody")<{ readonly what: string }> {}

/** No declared route (or a file the gateway serves that is not there). */
export class NoSuchRoute extends Data.TaggedClass("NoSuchRoute")<{}> {}

/** Identity or the owning service cannot be reached. */
export class ServiceUnreachable extends Data.TaggedClass("ServiceUnreachable")<{}> {}

export type GatewayError =
  | CredentialRequired
  | InvalidApiKey
  | SessionExpired
  | OriginNotAllowed
  | CrossSiteRequest
  | MissingScope
  | WidgetKeyForbidden
  | RateLimited
  | UnsupportedMediaType
  | PayloadTooLarge
  | InvalidBody
  | NoSuchRoute
  | ServiceUnreachable
