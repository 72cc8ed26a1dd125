/**
 * The bridge from Fastify routes to Effect: route logic is an Effect run in the service's
 * `ManagedRuntime`; an `ApiError` failure answers as itself, any other failure or defect is a 500
 * (logged with the request id by the error handler). Request parts are decoded by Schemas, all
 * issues at once, into a 400 with `issues`.
 */
import { Cause, Effect, Exit, type ManagedRuntime, Schema, SchemaIssue } from "effect"
import type { FastifyReply, FastifyRequest } from "fastify"
import type { ValidationIssue } from "./contracts-pending.ts"
import { ApiError, invalidRequest } from "./errors.ts"

/** Thrown to Fastify's error handler when route logic fails with something other than `ApiError`. */
export class UnexpectedRouteFailure extends Error {
  override readonly name = "UnexpectedRouteFailure"
}

export const effectHandler =
  <A, R, ER>(
    runtime: ManagedRuntime.ManagedRuntime<R, ER>,
    route: (request: FastifyRequest, reply: FastifyReply) => Effect.Effect<A, ApiError, R>,
  ) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<A> => {
    const exit = await runtime.runPromiseExit(
      route(request, reply).pipe(Effect.annotateLogs({ requestId: request.id })),
    )
    if (Exit.isSuccess(exit)) return exit.value
    const error = Cause.findErrorOption(exit.cause)
    if (error._tag === "Some" && error.value instanceof ApiError) throw error.value
    throw new UnexpectedRouteFailure(Cause.pretty(exit.cause))
  }

// "Missing key" reads poorly in an API answer; everything else is Effect's own wording.
const formatter = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => (issue._tag === "MissingKey" ? "is required" : SchemaIssue.defaultLeafHook(issue)),
})

/** A Schema issue as the contract's `issues`: one `{ path, message }` per field (`a.b.0`). */
export const formatIssues = (issue: SchemaIssue.Issue): Array<ValidationIssue> =>
  formatter(issue).issues.map((entry) => ({
    path: (entry.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment)).join("."),
    message: entry.message,
  }))

/** 400 `Invalid request: <first field> <why>` with every issue listed. */
export const invalidFromIssue = (where: "body" | "query" | "params", issue: SchemaIssue.Issue): ApiError => {
  const issues = formatIssues(issue)
  const first = issues[0]
  const what =
    first === undefined
      ? `invalid ${where}`
      : first.path === ""
        ? `${where}: ${first.message}`
        : `${first.path} ${first.message}`
  return invalidRequest(what, issues)
}

const decodePart =
  (where: "body" | "query" | "params") =>
  <S extends Schema.Constraint>(schema: S) => {
    const decode = Schema.decodeUnknownEffect(schema)
    return (value: unknown): Effect.Effect<S["Type"], ApiError, S["DecodingServices"]> =>
      decode(value, { errors: "all", onExcessProperty: "ignore" }).pipe(
        Effect.mapError((error) => invalidFromIssue(where, error.issue)),
      )
  }

const decodeBodyValue = decodePart("body")
const decodeQueryValue = decodePart("query")
const decodeParamsValue = decodePart("params")

/** `decodeBody(schema)(request)` → the decoded body or a 400 naming the fields. */
export const decodeBody =
  <S extends Schema.Constraint>(schema: S) =>
  (request: FastifyRequest) =>
    decodeBodyValue(schema)(request.body)

export const decodeQuery =
  <S extends Schema.Constraint>(schema: S) =>
  (request: FastifyRequest) =>
    decodeQueryValue(schema)(request.query)

export const decodeParams =
  <S extends Schema.Constraint>(schema: S) =>
  (request: FastifyRequest) =>
    decodeParamsValue(schema)(request.params)
