/**
 * Opaque list cursors: the (created_at, id) of the last row shown, read and written by
 * `@parley/platform`'s page cursor (one strict reading for every list: a real instant, a key of the
 * list's shape). The timestamp is Postgres' own text form (`created_at::text`, microseconds kept),
 * so no row is skipped or repeated between pages the way a millisecond JavaScript Date would.
 * Queries bind it as text and cast in SQL (`${at}::text::timestamptz`): bound as a timestamptz,
 * postgres.js would serialise it through a JavaScript Date and drop the microseconds, losing rows
 * that share a millisecond.
 */
import { type CursorKey, encodePageCursor } from "@parley/platform"

/** What orders each list's rows of one instant: a cursor's key must be of this shape (`decodePageCursor`). */
export const ListKeys = {
  messages: { idPrefix: "msg" },
  contacts: { idPrefix: "ct" },
  campaigns: { idPrefix: "cmp" },
  /** The sandbox provider's message ids (`sandboxMessageId`). */
  sandboxOutbox: { pattern: /^wamid\.[A-Za-z0-9_-]{1,128}$/u },
  /** International digits, as numbers are stored. */
  optOuts: { pattern: /^[0-9]{1,64}$/u },
} as const satisfies Record<string, CursorKey>

/** `data` and `nextCursor` from a query that fetched `limit + 1` rows. */
export const pageOf = <R extends { cursor_at: string; id: string }, A>(
  rows: ReadonlyArray<R>,
  limit: number,
  toRecord: (row: R) => A,
): { data: Array<A>; nextCursor: string | null } => {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    data: page.map(toRecord),
    nextCursor: rows.length > limit && last !== undefined ? encodePageCursor(last.cursor_at, last.id) : null,
  }
}
