/**
 * Page cursors (docs/contract.md §1: `?cursor=` and `nextCursor`): the position of the last row a
 * page showed — when it happened and a key that orders rows of the same time — as base64url JSON
 * `[at, key]`. Opaque to clients, so whatever comes back is read strictly before a query sees it:
 * `at` a real instant Postgres can hold (`parseInstant`), the key of the shape the list orders by,
 * nothing else. A tampered cursor that slipped through reached Postgres as a date it refuses, a NUL
 * it cannot store in text, or a number past bigint: a 500 where the contract gives a 400. Every
 * list decodes through `pagePosition`, so one reading holds for all of them.
 */
import { parseInstant } from "@parley/contracts"

/** What orders the rows of one instant, as a cursor carries it. */
export type CursorKey =
  /** An id of this prefix: `<prefix>_` and 16–64 base62 characters (`@parley/contracts`' ids). */
  | { readonly idPrefix: string }
  /** A key of another known shape (a provider's message id, a phone number); anchor it. */
  | { readonly pattern: RegExp }
  /** A row's sequence number: a non-negative integer below 2^63 (a bigserial), in decimal. */
  | "sequence"

/** Where the next page starts: after the row at `at` (as the cursor wrote it) with `key`. */
export interface PagePosition {
  /** As the cursor wrote it: Postgres reads it as `instant`, to the microsecond. */
  readonly at: string
  /** `at` as a Date (to the millisecond). */
  readonly instant: Date
  readonly key: string
}

const MaxSequence = 2n ** 63n - 1n

/** A row's sequence number as a cursor carries it: decimal digits of a value Postgres' bigint holds. */
export const isSequence = (key: string): boolean => /^\d{1,19}$/u.test(key) && BigInt(key) <= MaxSequence

const keyFits = (key: string, shape: CursorKey): boolean => {
  if (shape === "sequence") return isSequence(key)
  if ("pattern" in shape) return shape.pattern.test(key)
  return new RegExp(`^${shape.idPrefix}_[0-9A-Za-z]{16,64}$`, "u").test(key)
}

/** The position `at` and `key` name, or undefined unless both are of the shape this list issues. */
export const pagePosition = (at: unknown, key: unknown, shape: CursorKey): PagePosition | undefined => {
  if (typeof at !== "string" || typeof key !== "string") return undefined
  const instant = parseInstant(at)
  if (instant === undefined || !keyFits(key, shape)) return undefined
  return { at, instant, key }
}

export const encodePageCursor = (at: string, key: string): string =>
  Buffer.from(JSON.stringify([at, key])).toString("base64url")

/** The position of a cursor `encodePageCursor` made for this list's key, or undefined. */
export const decodePageCursor = (cursor: string, shape: CursorKey): PagePosition | undefined => {
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
  } catch {
    return undefined
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined
  return pagePosition(value[0], value[1], shape)
}
