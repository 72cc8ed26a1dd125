/**
 * Opaque list cursors: the (created_at, id) of the last row shown (a lead or a booking), base64url
 * JSON. The timestamp is Postgres' own text form (microseconds kept), so pages never skip or repeat
 * a row.
 */
import { decodePageCursor, encodePageCursor } from "@parley/platform"
import { Effect } from "effect"
import { InvalidCursor } from "../errors.ts"

/**
 * The cursor's position, if it is one this API issued for ids of `idPrefix` (`lead`, `bkg`, `cnv`),
 * read by the platform's one strict reading (`decodePageCursor`): a timestamp that names no real
 * instant (year 0000, 30 February, hour 24) is refused here, not sent to Postgres.
 */
const decodeCursor = (cursor: string, idPrefix: "lead" | "bkg" | "cnv"): { at: string; id: string } | undefined => {
  const position = decodePageCursor(cursor, { idPrefix })
  return position === undefined ? undefined : { at: position.at, id: position.key }
}

/**
 * Where a page starts: after the cursor's row, or at the top without a cursor; InvalidCursor (400)
 * for a cursor this API did not issue for ids of `idPrefix`.
 */
export const positionAfter = (
  cursor: string | undefined,
  idPrefix: "lead" | "bkg" | "cnv",
): Effect.Effect<{ at: string; id: string } | undefined, InvalidCursor> => {
  if (cursor === undefined) return Effect.succeed(undefined)
  const position = decodeCursor(cursor, idPrefix)
  return position === undefined ? Effect.fail(new InvalidCursor()) : Effect.succeed(position)
}

/** A page of rows read `limit + 1` at a time: the first `limit`, and the next page's cursor (null on the last). */
export const pageOf = <R extends { readonly id: string; readonly cursor_at: string }>(
  rows: ReadonlyArray<R>,
  limit: number,
): { readonly page: ReadonlyArray<R>; readonly nextCursor: string | null } => {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    page,
    nextCursor: rows.length > limit && last !== undefined ? encodePageCursor(last.cursor_at, last.id) : null,
  }
}
