/**
 * The one place an error becomes an HTTP answer. `ApiError`s answer as they are; Fastify's own 4xx
 * (body parsing, schema validation, bad URLs) map to the contract's codes; anything else is a 500
 * `Internal error` whose details go to the log with the request id, never to the client.
 */
import { describeIssues } from "@parley/contracts"
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify"
import { isDependencyUnavailable } from "../dependency.ts"
import {
  ApiError,
  internal,
  invalidRequest,
  notFound,
  payloadTooLarge,
  unavailable,
  unsupportedMediaType,
} from "../errors.ts"

interface AjvIssue {
  readonly instancePath?: string
  readonly message?: string
  readonly params?: { readonly missingProperty?: string }
}

// Same path notation as `@parley/contracts` (`events[1].name`).
const formatAjvPath = (instancePath: string, missing: string | undefined): string => {
  const segments = instancePath.split("/").slice(1)
  if (missing !== undefined) segments.push(missing)
  return segments
    .map((segment, i) => (/^\d+$/.test(segment) ? `[${segment}]` : i === 0 ? segment : `.${segment}`))
    .join("")
}

const fromValidation = (error: FastifyError): ApiError => {
  const issues = ((error.validation ?? []) as ReadonlyArray<AjvIssue>).map((issue) => {
    const missing = issue.params?.missingProperty
    return {
      path: formatAjvPath(issue.instancePath ?? "", missing),
      message: missing === undefined ? (issue.message ?? "is invalid") : "Missing key",
    }
  })
  return invalidRequest(issues.length === 0 ? "validation failed" : describeIssues(issues.slice(0, 1)), issues)
}

const FRAMEWORK_ERRORS: Record<string, (error: FastifyError) => ApiError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => unsupportedMediaType(),
  FST_ERR_CTP_BODY_TOO_LARGE: () => payloadTooLarge(),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => invalidRequest("empty JSON body"),
  FST_ERR_CTP_INVALID_JSON_BODY: () => invalidRequest("malformed JSON body"),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => invalidRequest("body length does not match Content-Length"),
  FST_ERR_BAD_URL: () => invalidRequest("malformed URL"),
  FST_ERR_MAX_PARAM_LENGTH: () => invalidRequest("path parameter too long"),
  FST_ERR_VALIDATION: fromValidation,
}

/** Maps any thrown value to the `ApiError` that answers it. */
export const toApiError = (error: unknown): ApiError => {
  if (error instanceof ApiError) return error
  const fastifyError = error as Partial<FastifyError> | null
  const code = fastifyError?.code
  const mapped = code === undefined ? undefined : FRAMEWORK_ERRORS[code]
  if (mapped !== undefined) return mapped(error as FastifyError)
  // A database or service that cannot be reached is no bug of ours: 503 with Retry-After (§1).
  if (isDependencyUnavailable(error)) return unavailable()
  // Errors other libraries raise with a client status (e.g. a stream aborted by the client).
  switch (fastifyError?.statusCode) {
    case 400:
      return invalidRequest("malformed request")
    case 404:
      return notFound()
    case 413:
      return payloadTooLarge()
    case 415:
      return unsupportedMediaType()
    default:
      return internal()
  }
}

export const sendApiError = (reply: FastifyReply, error: ApiError): FastifyReply => {
  if (error.retryAfter !== undefined) reply.header("retry-after", String(error.retryAfter))
  return reply.code(error.status).type("application/json; charset=utf-8").send(error.toBody())
}

export const handleError = (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
  const apiError = toApiError(error)
  // 4xx are the client's business (the access line records them); 5xx are ours.
  if (apiError.code === "internal") request.log.error({ err: error }, "request failed")
  else if (apiError.status >= 500) request.log.warn({ err: error }, apiError.error)
  return sendApiError(reply, apiError)
}
