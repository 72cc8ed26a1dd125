import { issuesOf } from "@parley/webhooks"
import type { Schema, SchemaIssue } from "effect"
import { type ErrorBody, type ErrorIssue, ErrorText } from "./errors.ts"

/**
 * Turns a Schema decoding failure into docs/contract.md's 400: `issues` lists each field and why, and
 * the sentence names them (`Invalid request: events[1]: Expected …; url: Missing key`).
 */
export const requestIssues = (failure: Schema.SchemaError | SchemaIssue.Issue): ReadonlyArray<ErrorIssue> =>
  issuesOf("issue" in failure && failure._tag === "SchemaError" ? failure.issue : (failure as SchemaIssue.Issue))

/** The `<what>` of `Invalid request: <what>`: every issue, field first. */
export const describeIssues = (issues: ReadonlyArray<ErrorIssue>): string =>
  issues.length === 0
    ? "the request is not valid"
    : issues.map((i) => (i.path === "" ? i.message : `${i.path}: ${i.message}`)).join("; ")

/** The full 400 body for a decoding failure, optionally under a location (`body`, `query`). */
export const invalidRequestBody = (failure: Schema.SchemaError | SchemaIssue.Issue): ErrorBody => {
  const issues = requestIssues(failure)
  return { error: ErrorText.invalidRequest(describeIssues(issues)), code: "invalid_request", issues }
}
