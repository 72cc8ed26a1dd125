/**
 * Temporary copies of what `@parley/contracts` will export (error codes and texts, the Principal
 * schema, issue formatting). They live in this one file so that switching to the real package is
 * a one-file change: delete this file and point the imports at `@parley/contracts`.
 */
import { Schema } from "effect"

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
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "internal",
  "unavailable",
])
export type ErrorCode = typeof ErrorCode.Type

export const ValidationIssue = Schema.Struct({ path: Schema.String, message: Schema.String })
export type ValidationIssue = typeof ValidationIssue.Type

export const Role = Schema.Literals(["admin", "member"])
export type Role = typeof Role.Type

export const PrincipalActor = Schema.Union([
  Schema.Struct({ type: Schema.Literal("user"), userId: Schema.String }),
  Schema.Struct({ type: Schema.Literal("api_key"), keyId: Schema.String, scopes: Schema.Array(Schema.String) }),
])
export type PrincipalActor = typeof PrincipalActor.Type

export const Principal = Schema.Struct({
  orgId: Schema.String,
  role: Role,
  actor: PrincipalActor,
  requestId: Schema.String,
})
export type Principal = typeof Principal.Type
