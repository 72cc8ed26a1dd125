import { issuesOf } from "@parley/webhooks"
import { Effect, Schema } from "effect"
import type { ErrorIssue } from "../errors.ts"
import { describeIssues } from "../validation.ts"

/**
 * The only way a bus record's value is written and read: JSON of the schema's encoded form.
 * Consumers decode at their edge and get every issue at once.
 */

/** A bus value that is not JSON or not a valid record; `message` names every bad field. */
export class BusValueError extends Schema.TaggedError<BusValueError>()("BusValueError", {
  schema: Schema.String,
  issues: Schema.Array(Schema.Struct({ path: Schema.String, message: Schema.String })),
}) {
  override get message(): string {
    return `Invalid ${this.schema} record: ${describeIssues(this.issues)}`
  }
}

// biome-ignore lint/suspicious/noExplicitAny: any codec whose encoded side is JSON-compatible
type Codec = Schema.Codec<any, any, never, never>

const nameOf = (schema: Codec): string => {
  const identifier = schema.ast.annotations?.identifier
  return typeof identifier === "string" ? identifier : "bus"
}

/** JSON of `value` encoded by `schema`; throws on a value that does not match (a programming error). */
export const encodeBusValue = <S extends Codec>(schema: S, value: S["Type"]): string =>
  JSON.stringify(Schema.encodeSync(schema)(value))

/** Parses and decodes a bus value, failing with a {@link BusValueError} listing every issue. */
export const decodeBusValue = <S extends Codec>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (value: string): Effect.Effect<S["Type"], BusValueError> => {
    return Effect.try({
      try: () => JSON.parse(value) as unknown,
      catch: () =>
        new BusValueError({ schema: nameOf(schema), issues: [{ path: "", message: "the value is not JSON" }] }),
    }).pipe(
      Effect.flatMap((json) =>
        decode(json, { errors: "all" }).pipe(
          Effect.mapError(
            (error) =>
              new BusValueError({ schema: nameOf(schema), issues: issuesOf(error.issue) as ReadonlyArray<ErrorIssue> }),
          ),
        ),
      ),
    )
  }
}
