import {
  EventCatalogue,
  type EventName,
  requestIssues,
  type ErrorIssue as ValidationIssue,
  WebhookEvents,
  webhookSecretProblem,
} from "@parley/contracts"
import { assertPublicUrl, type Resolver, type UrlRefused } from "@parley/egress"
import { Effect, Exit, Schema } from "effect"

/**
 * docs/contract.md §5's field rules that the request Schemas (`@parley/contracts`: `WebhookUrl`,
 * `WebhookSecret`, `WebhookEvents`) cannot hold: whether a URL's host is public needs DNS, and a
 * subscription keeps each event once. `checkSecret` and `checkEvents` read a value against the same
 * rules, for callers that hold one outside a request.
 */

export interface UrlRules {
  readonly allowPrivate: boolean
  readonly resolver?: Resolver
}

export type Checked<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly issue: ValidationIssue }

/** A URL of the right form whose host is, and resolves only to, public addresses (unless private ones are allowed). */
export const checkPublicUrl = (url: string, rules: UrlRules): Effect.Effect<string, UrlRefused> =>
  assertPublicUrl(url, rules).pipe(Effect.as(url))

/** A string that base64-decodes (standard or URL-safe, padding optional) to exactly 32 bytes. */
export const checkSecret = (value: unknown): Checked<string> => {
  const problem = typeof value === "string" ? webhookSecretProblem(value) : "must be a string"
  return problem === undefined
    ? { ok: true, value: value as string }
    : { ok: false, issue: { path: "secret", message: problem } }
}

/** 32 random bytes, standard base64: the secret of a webhook created without one. */
export const generateSecret = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")

/** Each event once, in the order first named. */
export const uniqueEvents = (events: ReadonlyArray<EventName>): ReadonlyArray<EventName> => [...new Set(events)]

const decodeEvents = Schema.decodeUnknownExit(Schema.Struct({ events: WebhookEvents }))

/** A non-empty array of catalogue names, duplicates removed (first occurrence keeps its place). */
export const checkEvents = (value: unknown): Checked<ReadonlyArray<EventName>> => {
  const decoded = decodeEvents({ events: value }, { errors: "all" })
  if (Exit.isSuccess(decoded)) return { ok: true, value: uniqueEvents(decoded.value.events) }
  const failure = decoded.cause.reasons.find((reason) => reason._tag === "Fail")
  const [first] = failure === undefined ? [] : requestIssues(failure.error)
  return { ok: false, issue: first ?? { path: "events", message: "is not valid" } }
}

/** Every event of the catalogue as it is now: the subscription of a webhook created without `events`. */
export const catalogueNames = (): Array<EventName> => EventCatalogue.map((entry) => entry.name)
