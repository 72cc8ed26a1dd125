/**
 * Opaque list cursors: the (created_at, id) of the last row shown (a lead or a booking), base64url
 * JSON. The timestamp is Postgres' own text form (microseconds kept), so pages never skip or repeat
 * a row.
 */
import { Effect } from "effect"
import { InvalidCursor } from "../errors.ts"

const encodeCursor = (at: string, id: string): string => Buffer.from(JSON.stringify([at, id])).toString("base64url")

const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/

/** The cursor's position, if it is one this API issued for ids of `idPrefix` (`lead`, `bkg`). */
const decodeCursor = (cursor: string, idPrefix: "lead" | "bkg" | "cnv"): { at: string; id: string } | undefined => {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown
    if (Array.isArray(value) && typeof value[0] === "string" && typeof value[1] === "string") {
      if (PG_TIMESTAMP.test(value[0]) && new RegExp(`^${idPrefix}_[0-9A-Za-z]{1,64}$`).test(value[1]))
        return { at: value[0], id: value[1] }
    }
  } catch {}
  return undefined
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
  return { page, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last.cursor_at, last.id) : null }
}
