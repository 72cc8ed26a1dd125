import { Schema, SchemaTransformation } from "effect"

/**
 * `?limit=` of a list that can grow without bound (docs/contract.md §1): an integer 1–100, 50 when
 * omitted. One declaration for every list, so that whatever is written ("abc", "0", "1.5", "", "101",
 * "1e1") every list route answers the same 400 `invalid_request`, "Invalid request: limit: Expected an
 * integer 1–100", with that one issue — the lists had three declarations, which answered "abc" with
 * two issues on some routes and one on others. Checked as written (digits only), then read as a number.
 */
export const PageLimit = Schema.String.check(
  Schema.isPattern(/^0*(?:[1-9][0-9]?|100)$/u, { expected: "an integer 1–100" }),
).pipe(Schema.decodeTo(Schema.Number, SchemaTransformation.numberFromString))

/**
 * `?cursor=` of the same lists: a `nextCursor` a page answered, opaque (at most 200 characters). One
 * declaration, so that an empty one is refused alike everywhere ("cursor: Expected a cursor from
 * nextCursor"); one the service did not issue is refused by the service, with `InvalidCursorText`.
 */
export const PageCursor = Schema.String.check(
  Schema.isMinLength(1, { expected: "a cursor from nextCursor" }),
  Schema.isMaxLength(200, { expected: "a cursor from nextCursor" }),
)

/** What every list answers for a cursor it did not issue (400 `invalid_request`). */
export const InvalidCursorText = "cursor is not one this API issued"
