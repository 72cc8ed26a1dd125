import { type Schema, SchemaIssue } from "effect"

/** One validation problem: where (`data.booking.date`, `events[1]`) and why. */
export interface Issue {
  readonly path: string
  readonly message: string
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Renders a decoding path the way a JavaScript reader would write it: `events[1].name`. */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string => {
  let out = ""
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`
    else if (typeof segment === "string" && IDENTIFIER.test(segment)) out += out === "" ? segment : `.${segment}`
    else out += `[${JSON.stringify(String(segment))}]`
  }
  return out
}

const standard = SchemaIssue.makeFormatterStandardSchemaV1()

/** Every problem in a Schema issue tree, flattened to `{ path, message }` (path `""` = the whole value). */
export const issuesOf = (issue: SchemaIssue.Issue): ReadonlyArray<Issue> =>
  standard(issue).issues.map((i) => ({
    path: formatPath((i.path ?? []).map((p) => (typeof p === "object" && p !== null ? p.key : p))),
    message: i.message,
  }))

/** The issues of a `SchemaError` from any `decode…` call. */
export const issuesOfError = (error: Schema.SchemaError): ReadonlyArray<Issue> => issuesOf(error.issue)
