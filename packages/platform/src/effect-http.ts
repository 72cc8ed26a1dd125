/**
 * The bridge from Fastify routes to Effect: route logic is an Effect run in the service's
 * `ManagedRuntime`; an `ApiError` failure answers as itself, any other failure or defect is a 500
 * (logged with the request id by the error handler). Request parts are decoded by Schemas, all
 * issues at once, into a 400 with `issues`.
 */
import { describeIssues, requestIssues } from "@parley/contracts"
import { Cause, Effect, Exit, type ManagedRuntime, Schema, type SchemaIssue } from "effect"
import type { FastifyReply, FastifyRequest } from "fastify"
import { ApiError, invalidRequest } from "./errors.ts"
import { traceContextOf } from "./http/tracing.ts"
import { withTraceContext } from "./tracing.ts"

/** Thrown to Fastify's error handler when route logic fails with something other than `ApiError`. */
export class UnexpectedRouteFailure extends Error {
  override readonly name = "UnexpectedRouteFailure"
}

export const effectHandler =
  <A, R, ER>(
    runtime: ManagedRuntime.ManagedRuntime<R, ER>,
    route: (request: FastifyRequest, reply: FastifyReply) => Effect.Effect<A, ApiError, R>,
  ) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<A | FastifyReply> => {
    const effect = route(request, reply)
    // A route that answered at once (`Effect.succeed`, `Effect.fail`) needs no fiber.
    const exit: Exit.Exit<A, ApiError | ER> = Exit.isExit(effect)
      ? (effect as Exit.Exit<A, ApiError>)
      : await runtime.runPromiseExit(
          withTraceContext(effect.pipe(Effect.annotateLogs({ requestId: request.id })), traceContextOf(request)),
        )
    if (Exit.isSuccess(exit)) {
      // A route answering without a body (`reply.code(204)` and nothing returned) still completes.
      if (exit.value === undefined && !reply.sent) return reply.send()
      return exit.value
    }
    const error = Cause.findErrorOption(exit.cause)
    if (error._tag === "Some" && error.value instanceof ApiError) throw error.value
    // The squashed cause rides along so the error handler can tell an unreachable dependency (503)
    // from a bug (500).
    throw new UnexpectedRouteFailure(Cause.pretty(exit.cause), { cause: Cause.squash(exit.cause) })
  }

/**
 * 400 for a request part that failed its Schema: `issues` lists every field and why (paths as
 * `@parley/contracts` writes them, `events[1]`); the sentence names the first, so it stays short.
 */
export const invalidFromIssue = (where: "body" | "query" | "params", issue: SchemaIssue.Issue): ApiError => {
  const issues = requestIssues(issue)
  const first = issues[0]
  return invalidRequest(first === undefined ? `invalid ${where}` : describeIssues([first]), issues)
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
