import { Schema } from "effect"

/** The machine codes of docs/contract.md §1: a closed list, each with one HTTP status. */
export const ErrorCode = Schema.Literals([
  "invalid_request",
  "unauthorized",
  "missing_scope",
  "widget_key_forbidden",
  "origin_not_allowed",
  "admin_required",
  "plan_feature_required",
  "key_limit",
  "webhook_limit",
  "not_found",
  "conflict",
  "outside_service_window",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "internal",
  "unavailable",
])
export type ErrorCode = typeof ErrorCode.Type

export const ErrorStatus = {
  invalid_request: 400,
  unauthorized: 401,
  missing_scope: 403,
  widget_key_forbidden: 403,
  origin_not_allowed: 403,
  admin_required: 403,
  plan_feature_required: 403,
  key_limit: 403,
  webhook_limit: 403,
  not_found: 404,
  conflict: 409,
  outside_service_window: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const satisfies Record<ErrorCode, number>
export type ErrorStatus = (typeof ErrorStatus)[ErrorCode]

/** The HTTP status of an error code. */
export const statusOf = (code: ErrorCode): ErrorStatus => ErrorStatus[code]

/** The exact `error` texts the contract fixes. Texts with a variable part are functions. */
export const ErrorText = {
  invalidRequest: (what: string): string => `Invalid request: ${what}`,
  apiKeyRequired: "API key required",
  invalidApiKey: "Invalid API key",
  sessionRequired: "Session required",
  invalidCredentials: "Invalid email or password",
  missingScope: (scope: string): string => `API key is missing required scope: ${scope}`,
  widgetKeyForbidden:
    "This API key is limited to the website widget and /api/public; use a key with the messages:send scope for server-to-server calls",
  originNotAllowed: "Origin not allowed for this API key",
  adminRequired: "Organization administrator required",
  planFeatureRequired: (feature = "api_access"): string => `Plan feature required: ${feature}`,
  keyLimit: "Maximum 10 active API keys",
  webhookLimit: "Maximum 5 webhooks per organization",
  notFound: "Not found",
  outsideServiceWindow: "Outside the 24-hour customer service window: send an approved template",
  payloadTooLarge: "Payload too large",
  unsupportedMediaType: "Unsupported media type",
  rateLimited: "Too many requests, slow down",
  internal: "Internal error",
  unavailable: "Service temporarily unavailable",
} as const

/** One validation problem in an error body: the field (`events[1]`, `url`) and why. */
export const ErrorIssue = Schema.Struct({ path: Schema.String, message: Schema.String })
export type ErrorIssue = typeof ErrorIssue.Type

/** Every error response body: `{ error, code, issues? }`. */
export const ErrorBody = Schema.Struct({
  error: Schema.String,
  code: ErrorCode,
  issues: Schema.optionalKey(Schema.Array(ErrorIssue)),
}).annotate({ identifier: "ErrorBody" })
export type ErrorBody = typeof ErrorBody.Type
