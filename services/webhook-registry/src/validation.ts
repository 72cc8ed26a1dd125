import type { ErrorIssue as ValidationIssue } from "@parley/contracts"
import { EventCatalogue, type EventName, isEventName } from "@parley/contracts"
import { assertPublicUrl, type Resolver } from "@parley/egress"
import { Effect } from "effect"

/**
 * The field rules of CONTRACT.md §5. Each check answers the value to store or the issue that names
 * the field; the routes gather every issue of a body into one 400.
 */

export interface UrlRules {
  readonly allowPrivate: boolean
  readonly resolver?: Resolver
}

export type Checked<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly issue: ValidationIssue }

const issue = (path: string, message: string) => ({ ok: false, issue: { path, message } }) as const
const ok = <A>(value: A) => ({ ok: true, value }) as const

/** Absolute http(s), ≤ 2048 characters, no credentials, public unless private addresses are allowed. */
export const checkUrl = (value: unknown, rules: UrlRules): Effect.Effect<Checked<string>> => {
  if (typeof value !== "string") return Effect.succeed(issue("url", "must be a string"))
  // The URL parser silently strips or encodes these, so the string stored and shown would not be the URL checked.
  if (/\s/.test(value) || [...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
    return Effect.succeed(issue("url", "must not contain whitespace or control characters"))
  }
  return assertPublicUrl(value, rules).pipe(
    Effect.match({ onFailure: (refused) => issue("url", refused.reason), onSuccess: () => ok(value) }),
  )
}

const STANDARD = /^[A-Za-z0-9+/]+={0,2}$/
const URL_SAFE = /^[A-Za-z0-9_-]+={0,2}$/

/** A string that base64-decodes (standard or URL-safe, padding optional) to exactly 32 bytes. */
export const checkSecret = (value: unknown): Checked<string> => {
  if (typeof value !== "string") return issue("secret", "must be a string")
  if (!STANDARD.test(value) && !URL_SAFE.test(value)) return issue("secret", "must be base64 (standard or URL-safe)")
  const unpadded = value.replace(/=+$/, "")
  // Padding, when present, must be the right amount for the length.
  if (value.length !== unpadded.length && value.length % 4 !== 0) return issue("secret", "has wrong base64 padding")
  if (unpadded.length % 4 === 1) return issue("secret", "is not valid base64")
  const bytes = Buffer.from(unpadded.replaceAll("-", "+").replaceAll("_", "/"), "base64")
  if (bytes.length !== 32) return issue("secret", "must decode to exactly 32 bytes")
  return ok(value)
}

/** 32 random bytes, standard base64: the secret of a webhook created without one. */
export const generateSecret = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")

/** A non-empty array of catalogue names, duplicates removed (first occurrence keeps its place). */
export const checkEvents = (value: unknown): Checked<ReadonlyArray<EventName>> => {
  if (!Array.isArray(value)) return issue("events", "must be an array of event names")
  if (value.length === 0) return issue("events", "must not be empty")
  const names: Array<EventName> = []
  for (const [index, name] of value.entries()) {
    if (typeof name !== "string" || !isEventName(name)) {
      return issue(`events[${index}]`, `is not an event of the catalogue (${catalogueNames().join(", ")})`)
    }
    if (!names.includes(name)) names.push(name)
  }
  return ok(names)
}

export const checkEnabled = (value: unknown): Checked<boolean> =>
  typeof value === "boolean" ? ok(value) : issue("enabled", "must be a boolean")

/** Every event of the catalogue as it is now: the subscription of a webhook created without `events`. */
export const catalogueNames = (): Array<EventName> => EventCatalogue.map((entry) => entry.name)
