/**
 * The one error type HTTP handlers answer with. Each constructor fixes the status, code and text
 * of docs/contract.md §1, so a service maps its domain errors to these in one function and never spells
 * a status or a code itself.
 */

import { ErrorCode, ErrorIssue, ErrorText, statusOf } from "@parley/contracts"
import { Schema } from "effect"

export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  status: Schema.Number,
  code: ErrorCode,
  error: Schema.String,
  issues: Schema.optional(Schema.Array(ErrorIssue)),
  /** Seconds for `Retry-After` (429 and 503). */
  retryAfter: Schema.optional(Schema.Number),
}) {
  override get message(): string {
    return `${this.status} ${this.code}: ${this.error}`
  }

  /** The response body: `{ error, code, issues? }`. */
  toBody(): { error: string; code: ErrorCode; issues?: ReadonlyArray<ErrorIssue> } {
    return this.issues === undefined
      ? { error: this.error, code: this.code }
      : { error: this.error, code: this.code, issues: this.issues }
  }
}

export const isApiError = (value: unknown): value is ApiError => value instanceof ApiError

// The status always comes from the code (docs/contract.md §1), never from the caller.
const make = (
  code: ErrorCode,
  error: string,
  extra: { issues?: ReadonlyArray<ErrorIssue>; retryAfter?: number } = {},
): ApiError => new ApiError({ status: statusOf(code), code, error, ...extra })

/** 400 `Invalid request: <what>`; `issues` lists each field and why. */
export const invalidRequest = (what: string, issues?: ReadonlyArray<ErrorIssue>): ApiError =>
  make("invalid_request", ErrorText.invalidRequest(what), issues === undefined ? {} : { issues })

/** 401, with the contract's text (`ErrorText.apiKeyRequired`, `invalidApiKey`, `sessionRequired`, …). */
export const unauthorized = (text: string): ApiError => make("unauthorized", text)

export type ForbiddenCode =
  | "missing_scope"
  | "widget_key_forbidden"
  | "origin_not_allowed"
  | "admin_required"
  | "plan_feature_required"
  | "key_limit"
  | "webhook_limit"

export const forbidden = (code: ForbiddenCode, text: string): ApiError => make(code, text)

export const notFound = (): ApiError => make("not_found", ErrorText.notFound)

export const conflict = (text: string): ApiError => make("conflict", text)

/** 409 `outside_service_window`: free-form text past 24 h since the customer last wrote (docs/contract.md §9). */
export const outsideServiceWindow = (): ApiError => make("outside_service_window", ErrorText.outsideServiceWindow)

export const payloadTooLarge = (): ApiError => make("payload_too_large", ErrorText.payloadTooLarge)

export const unsupportedMediaType = (): ApiError => make("unsupported_media_type", ErrorText.unsupportedMediaType)

const wholeSeconds = (seconds: number): number => Math.max(1, Math.ceil(seconds))

/** 429; `Retry-After` when the caller knows the window (the gateway's limiter does). */
export const rateLimited = (retryAfterSeconds?: number): ApiError =>
  make(
    "rate_limited",
    ErrorText.rateLimited,
    retryAfterSeconds === undefined ? {} : { retryAfter: wholeSeconds(retryAfterSeconds) },
  )

/** 503 with `Retry-After` (the contract requires it); 5 s unless the caller knows better. */
export const unavailable = (retryAfterSeconds = 5): ApiError =>
  make("unavailable", ErrorText.unavailable, { retryAfter: wholeSeconds(retryAfterSeconds) })

export const internal = (): ApiError => make("internal", ErrorText.internal)
