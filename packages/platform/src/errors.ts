/**
 * The one error type HTTP handlers answer with. Each constructor fixes the status, code and text
 * of CONTRACT.md §1, so a service maps its domain errors to these in one function and never spells
 * a status or a code itself.
 */
import { Schema } from "effect"
import { ErrorCode, ValidationIssue } from "./contracts-pending.ts"

export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  status: Schema.Number,
  code: ErrorCode,
  error: Schema.String,
  issues: Schema.optional(Schema.Array(ValidationIssue)),
  /** Seconds for `Retry-After` (429 and 503). */
  retryAfter: Schema.optional(Schema.Number),
}) {
  override get message(): string {
    return `${this.status} ${this.code}: ${this.error}`
  }

  /** The response body: `{ error, code, issues? }`. */
  toBody(): { error: string; code: ErrorCode; issues?: ReadonlyArray<ValidationIssue> } {
    return this.issues === undefined
      ? { error: this.error, code: this.code }
      : { error: this.error, code: this.code, issues: this.issues }
  }
}

export const isApiError = (value: unknown): value is ApiError => value instanceof ApiError

/** 400 `Invalid request: <what>`; `issues` lists each field and why. */
export const invalidRequest = (what: string, issues?: ReadonlyArray<ValidationIssue>): ApiError =>
  new ApiError({
    status: 400,
    code: "invalid_request",
    error: `Invalid request: ${what}`,
    ...(issues === undefined ? {} : { issues }),
  })

/** 401, with the contract's text: `API key required`, `Invalid API key`, `Session required`, … */
export const unauthorized = (text: string): ApiError => new ApiError({ status: 401, code: "unauthorized", error: text })

export type ForbiddenCode =
  | "missing_scope"
  | "widget_key_forbidden"
  | "origin_not_allowed"
  | "admin_required"
  | "plan_feature_required"
  | "key_limit"
  | "webhook_limit"

export const forbidden = (code: ForbiddenCode, text: string): ApiError =>
  new ApiError({ status: 403, code, error: text })

export const notFound = (): ApiError => new ApiError({ status: 404, code: "not_found", error: "Not found" })

export const conflict = (text: string): ApiError => new ApiError({ status: 409, code: "conflict", error: text })

export const payloadTooLarge = (): ApiError =>
  new ApiError({ status: 413, code: "payload_too_large", error: "Payload too large" })

export const unsupportedMediaType = (): ApiError =>
  new ApiError({ status: 415, code: "unsupported_media_type", error: "Unsupported media type" })

export const rateLimited = (retryAfterSeconds?: number): ApiError =>
  new ApiError({
    status: 429,
    code: "rate_limited",
    error: "Too many requests, slow down",
    ...(retryAfterSeconds === undefined ? {} : { retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)) }),
  })

/** 503 with `Retry-After` (the contract requires it); 5 s unless the caller knows better. */
export const unavailable = (retryAfterSeconds = 5): ApiError =>
  new ApiError({
    status: 503,
    code: "unavailable",
    error: "Service temporarily unavailable",
    retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)),
  })

export const internal = (): ApiError => new ApiError({ status: 500, code: "internal", error: "Internal error" })
