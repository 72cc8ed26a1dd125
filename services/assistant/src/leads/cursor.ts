/**
 * Opaque list cursors: the (created_at, id) of the last row shown (a lead or a booking), base64url
 * JSON. The timestamp is Postgres' own text form (microseconds kept), so pages never skip or repeat
 * a row.
 */
export const encodeCursor = (at: string, id: string): string =>
  Buffer.from(JSON.stringify([at, id])).toString("base64url")

const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/

/** The cursor's position, if it is one this API issued for ids of `idPrefix` (`lead`, `bkg`). */
export const decodeCursor = (cursor: string, idPrefix: "lead" | "bkg"): { at: string; id: string } | undefined => {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown
    if (Array.isArray(value) && typeof value[0] === "string" && typeof value[1] === "string") {
      if (PG_TIMESTAMP.test(value[0]) && new RegExp(`^${idPrefix}_[0-9A-Za-z]{1,64}$`).test(value[1]))
        return { at: value[0], id: value[1] }
    }
  } catch {}
  return undefined
}
