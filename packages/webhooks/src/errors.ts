import { Schema } from "effect"

/**
 * Why a delivery was refused. Each is an `Error` with a `_tag`, so it can be matched in Effect
 * (`Effect.catchTag`) or with `instanceof` / `error._tag` after a rejected Promise.
 */

/** A header the delivery must carry is absent (or empty). */
export class MissingHeader extends Schema.TaggedError<MissingHeader>()("MissingHeader", {
  header: Schema.String,
}) {
  override get message(): string {
    return `Missing header ${this.header}`
  }
}

/** The signature header is malformed or does not match the body under the secret. */
export class InvalidSignature extends Schema.TaggedError<InvalidSignature>()("InvalidSignature", {}) {
  override get message(): string {
    return "Signature does not match the body"
  }
}

const IssueSchema = Schema.Struct({ path: Schema.String, message: Schema.String })

/** The body is authentic but is not UTF-8 JSON, or not a valid envelope of a known event. */
export class MalformedBody extends Schema.TaggedError<MalformedBody>()("MalformedBody", {
  reason: Schema.String,
  issues: Schema.Array(IssueSchema),
}) {
  override get message(): string {
    const detail = this.issues.map((i) => (i.path === "" ? i.message : `${i.path}: ${i.message}`))
    return detail.length === 0
      ? `Malformed body: ${this.reason}`
      : `Malformed body: ${this.reason} (${detail.join("; ")})`
  }
}

/**
 * The body is authentic and well-formed but names an event this version of the library does not
 * know — typically one added to Parley after it was released. Acknowledge it (2xx) and upgrade.
 */
export class UnknownEvent extends Schema.TaggedError<UnknownEvent>()("UnknownEvent", {
  event: Schema.String,
}) {
  override get message(): string {
    return `Unknown event ${JSON.stringify(this.event)}`
  }
}

/** The envelope's `timestamp` is further from now than the tolerance the caller asked for. */
export class TimestampOutsideTolerance extends Schema.TaggedError<TimestampOutsideTolerance>()(
  "TimestampOutsideTolerance",
  { timestamp: Schema.String, toleranceSeconds: Schema.Number, skewSeconds: Schema.Number },
) {
  override get message(): string {
    return `Timestamp ${this.timestamp} is ${this.skewSeconds}s from now, over the tolerance of ${this.toleranceSeconds}s`
  }
}

export type VerificationError =
  | MissingHeader
  | InvalidSignature
  | MalformedBody
  | UnknownEvent
  | TimestampOutsideTolerance

/**
 * The status a receiver should answer for a refused delivery, as docs/contract.md §12 has the example
 * receiver do: 401 when the delivery cannot be trusted, 2xx otherwise. An authentic body this
 * library cannot decode (malformed, or an event newer than the library) gets 200: Parley would
 * retry the very same bytes, which would never decode; log it instead.
 */
export const recommendedStatus = (error: VerificationError): 200 | 401 => {
  switch (error._tag) {
    case "MissingHeader":
    case "InvalidSignature":
    case "TimestampOutsideTolerance":
      return 401
    case "MalformedBody":
    case "UnknownEvent":
      return 200
  }
}

const verificationTags: ReadonlySet<string> = new Set([
  "MissingHeader",
  "InvalidSignature",
  "MalformedBody",
  "UnknownEvent",
  "TimestampOutsideTolerance",
])

/** True for the errors `verify` rejects with (for a `catch` clause, whose error is `unknown`). */
export const isVerificationError = (error: unknown): error is VerificationError =>
  error instanceof Error && verificationTags.has((error as { _tag?: unknown })._tag as string)
