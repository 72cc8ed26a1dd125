/**
 * Opaque list cursors: the (created_at, id) of the last row shown, base64url JSON. The timestamp is
 * Postgres' own text form (`created_at::text`, microseconds kept), so no row is skipped or repeated
 * between pages the way a millisecond JavaScript Date would. Queries bind it as text and cast in
 * SQL (`${at}::text::timestamptz`): bound as a timestamptz, postgres.js would serialise it through a
 * JavaScript Date and drop the microseconds, losing rows that share a millisecond.
 */
export const encodeCursor = (at: string, id: string): string =>
  Buffer.from(JSON.stringify([at, id])).toString("base64url")

const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/

export const decodeCursor = (cursor: string): { at: string; id: string } | undefined => {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown
    if (Array.isArray(value) && typeof value[0] === "string" && typeof value[1] === "string") {
      if (PG_TIMESTAMP.test(value[0]) && value[1].length <= 100) return { at: value[0], id: value[1] }
    }
  } catch {}
  return undefined
}

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
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last.cursor_at, last.id) : null,
  }
}
