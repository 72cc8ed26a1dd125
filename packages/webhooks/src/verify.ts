import { Cause, Clock, Effect, Exit, Schema } from "effect"
import { WebhookEnvelope } from "./envelope.ts"
import {
  InvalidSignature,
  MalformedBody,
  MissingHeader,
  TimestampOutsideTolerance,
  UnknownEvent,
  type VerificationError,
} from "./errors.ts"
import { isEventName } from "./events.ts"
import { DeliveryHeaders, type HeadersLike, headerValue, StandardHeaders } from "./headers.ts"
import { issuesOf } from "./issues.ts"
import { bodyBytes, signatureMatches } from "./signature.ts"
import { parseStandardTimestamp, SecretPrefix, standardSignatureMatches } from "./standard.ts"

export interface VerifyOptions {
  /**
   * Refuse an envelope whose `timestamp` is more than this many seconds from now (either way).
   * Off by default. The timestamp is when the event happened, so leave room for retries (about
   * 15 s after the first attempt) and know that a redelivery or replay requested later carries the
   * original time and will be refused by a tight tolerance.
   */
  readonly toleranceSeconds?: number | undefined
  /**
   * With the Standard Webhooks headers: refuse a `webhook-timestamp` (when the attempt was signed)
   * more than this many seconds from now, either way, so that a captured request cannot be
   * replayed later. Default 300 (five minutes), as every Standard Webhooks library.
   */
  readonly signatureToleranceSeconds?: number | undefined
}

/** Five minutes, the Standard Webhooks default. */
export const DefaultSignatureToleranceSeconds = 300

const utf8 = new TextDecoder("utf-8", { fatal: true })
const decodeEnvelope = Schema.decodeUnknownEffect(WebhookEnvelope)

const parseJson = (bytes: Uint8Array): Effect.Effect<unknown, MalformedBody> =>
  Effect.try({
    try: () => JSON.parse(utf8.decode(bytes)) as unknown,
    catch: (cause) =>
      new MalformedBody({
        reason: cause instanceof SyntaxError ? "the body is not JSON" : "the body is not UTF-8",
        issues: [],
      }),
  })

const checkTolerance = (timestamp: string, toleranceSeconds: number) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const skewSeconds = Math.round(Math.abs(now - Date.parse(timestamp)) / 1000)
    if (Math.abs(now - Date.parse(timestamp)) > toleranceSeconds * 1000) {
      return yield* new TimestampOutsideTolerance({ timestamp, toleranceSeconds, skewSeconds })
    }
  })

/**
 * The Standard Webhooks check, as the `standardwebhooks` package makes it: all three headers, a
 * `v1` signature of `<id>.<timestamp>.<body>` by the secret's bytes, and a signing time within the
 * tolerance of now (whole seconds, either way).
 */
const verifyStandard = (
  bytes: Uint8Array,
  headers: HeadersLike,
  secret: string,
  toleranceSeconds: number,
): Effect.Effect<void, MissingHeader | InvalidSignature | TimestampOutsideTolerance> =>
  Effect.gen(function* () {
    const present = (name: string) => {
      const value = headerValue(headers, name)
      return value === undefined || value === "" ? undefined : value
    }
    const id = present(StandardHeaders.id)
    const timestampHeader = present(StandardHeaders.timestamp)
    const signature = present(StandardHeaders.signature)
    if (id === undefined) return yield* new MissingHeader({ header: StandardHeaders.id })
    if (timestampHeader === undefined) return yield* new MissingHeader({ header: StandardHeaders.timestamp })
    if (signature === undefined) return yield* new MissingHeader({ header: StandardHeaders.signature })
    const timestamp = parseStandardTimestamp(timestampHeader)
    if (Number.isNaN(timestamp)) return yield* new InvalidSignature()
    const authentic = yield* Effect.promise(() => standardSignatureMatches(bytes, { id, timestamp }, signature, secret))
    if (!authentic) return yield* new InvalidSignature()
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    if (now - timestamp > toleranceSeconds || timestamp - now > toleranceSeconds) {
      return yield* new TimestampOutsideTolerance({
        timestamp: new Date(timestamp * 1000).toISOString(),
        toleranceSeconds,
        skewSeconds: Math.abs(now - timestamp),
      })
    }
  })

/** `X-Service-Signature`, keyed with the secret string as registered (the whsec_ form's base64 stands for it). */
const verifyServiceSignature = (
  bytes: Uint8Array,
  headers: HeadersLike,
  secret: string,
): Effect.Effect<void, MissingHeader | InvalidSignature> =>
  Effect.gen(function* () {
    const signature = headerValue(headers, DeliveryHeaders.signature)
    if (signature === undefined || signature.trim() === "") {
      return yield* new MissingHeader({ header: DeliveryHeaders.signature })
    }
    const key = secret.startsWith(SecretPrefix) ? secret.slice(SecretPrefix.length) : secret
    const authentic = yield* Effect.promise(() => signatureMatches(bytes, signature, key))
    if (!authentic) return yield* new InvalidSignature()
  })

const hasStandardHeaders = (headers: HeadersLike): boolean =>
  headerValue(headers, StandardHeaders.id) !== undefined ||
  headerValue(headers, StandardHeaders.timestamp) !== undefined ||
  headerValue(headers, StandardHeaders.signature) !== undefined

/**
 * Authenticates a delivery and decodes its envelope. The signature is checked first, over the raw
 * bytes exactly as received: pass the body before any JSON parsing or re-serialisation (a
 * re-serialised body differs in key order or whitespace and will not verify).
 */
export const verifyEffect = (
  rawBody: string | Uint8Array,
  headers: HeadersLike,
  secret: string,
  options: VerifyOptions = {},
): Effect.Effect<WebhookEnvelope, VerificationError> =>
  Effect.gen(function* () {
    const bytes = bodyBytes(rawBody)
    if (hasStandardHeaders(headers)) {
      yield* verifyStandard(
        bytes,
        headers,
        secret,
        options.signatureToleranceSeconds ?? DefaultSignatureToleranceSeconds,
      )
    } else {
      yield* verifyServiceSignature(bytes, headers, secret)
    }

    const json = yield* parseJson(bytes)
    const event = typeof json === "object" && json !== null ? (json as { event?: unknown }).event : undefined
    if (typeof event === "string" && !isEventName(event)) return yield* new UnknownEvent({ event })
    const envelope = yield* decodeEnvelope(json, { errors: "all" }).pipe(
      Effect.mapError(
        (error) => new MalformedBody({ reason: "the body is not a valid envelope", issues: issuesOf(error.issue) }),
      ),
    )
    if (options.toleranceSeconds !== undefined) yield* checkTolerance(envelope.timestamp, options.toleranceSeconds)
    return envelope
  })

/**
 * Promise form of {@link verifyEffect}: resolves to the envelope, rejects with one of the
 * {@link VerificationError} classes (match on `error._tag` or with `instanceof`).
 */
export const verify = (
  rawBody: string | Uint8Array,
  headers: HeadersLike,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookEnvelope> => runToPromise(verifyEffect(rawBody, headers, secret, options))

/** Runs an Effect, rejecting with its typed failure itself (not a wrapper) so callers can match it. */
export const runToPromise = async <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}
