/**
 * The error answers and security requirements an operation has because of who may call it and
 * what it takes (docs/contract.md §1's table, §2, §3), so the table states them once, not per route.
 */
import type { Access } from "../routes/model.ts"
import type { Operation } from "./model.ts"

/** Status → the codes (and texts) it carries for this operation. */
export const errorStatusesOf = (op: Operation): Record<number, Array<string>> => {
  const errors: Record<number, Array<string>> = {}
  const add = (status: number, text: string) => {
    errors[status] = [...(errors[status] ?? []), text]
  }
  if (op.body !== undefined || op.query !== undefined) {
    add(400, "`invalid_request`: `Invalid request: <what>`, with `issues` naming each field")
  }
  const cloudVerify = op.access === "cloudProvider" && op.method === "get"
  if (!cloudVerify) add(401, `\`unauthorized\`: ${unauthorizedText[op.access]}`)
  for (const text of forbiddenOf(op.access)) add(403, text)
  if (op.pathParams !== undefined) add(404, "`not_found`: no such resource in this organization")
  if (op.access === "operator") add(404, "`not_found`: the operator API is off (PARLEY_OPERATOR_TOKEN unset)")
  for (const [status, text] of Object.entries(op.extraErrors ?? {})) add(Number(status), text)
  if (op.body !== undefined) {
    add(413, "`payload_too_large`: `Payload too large`")
    add(415, "`unsupported_media_type`: `Unsupported media type`")
  }
  if (countsAgainstRateLimits(op)) {
    const limits =
      op.heavy === true ? "the general limit and the heavy one (20 per 60 s by default)" : "the general limit"
    add(429, `\`rate_limited\`: \`Too many requests, slow down\` (with \`Retry-After\`), past ${limits}`)
  }
  add(500, "`internal`: `Internal error`")
  add(503, "`unavailable`: `Service temporarily unavailable` (with `Retry-After`)")
  return errors
}

/** Provider traffic on `/channels/*` is authenticated by signatures and never counted (§3). */
export const countsAgainstRateLimits = (op: Operation): boolean =>
  op.access !== "cloudProvider" && op.access !== "bridge"

const unauthorizedText: Record<Access, string> = {
  member: "`API key required` / `Invalid API key` / `Session required`",
  admin: "`API key required` / `Invalid API key` / `Session required`",
  adminWithApiAccess: "`API key required` / `Invalid API key` / `Session required`",
  public: "`API key required` / `Invalid API key`",
  session: "`Session required`",
  anonymous: "`Invalid email or password`",
  operator: "a missing or wrong operator token",
  internal: "a missing or wrong `x-parley-internal`",
  cloudProvider: "a missing or wrong `X-Hub-Signature-256`",
  bridge: "a missing or wrong bridge token",
}

const forbiddenOf = (access: Access): ReadonlyArray<string> => {
  const privateApi = [
    "`widget_key_forbidden`: a widget-only key on the private API",
    "`origin_not_allowed`: `Origin not allowed for this API key`",
  ]
  switch (access) {
    case "member":
      return privateApi
    case "admin":
      return [...privateApi, "`admin_required`: `Organization administrator required`"]
    case "adminWithApiAccess":
      return [
        ...privateApi,
        "`admin_required`: `Organization administrator required`",
        "`plan_feature_required`: `Plan feature required: api_access`",
      ]
    case "public":
      return [
        "`missing_scope`: `API key is missing required scope: <scope>`",
        "`origin_not_allowed`: `Origin not allowed for this API key`",
      ]
    default:
      return []
  }
}

export const securitySchemes = {
  ApiKeyHeader: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "`parley_<prefix>.<secret>`. The only key form on the private API; first on `/api/public/*`.",
  },
  ApiKeyBearer: {
    type: "http",
    scheme: "bearer",
    description: "An API key as `Authorization: Bearer <key>` — `/api/public/*` only (2nd precedence).",
  },
  ApiKeyQuery: {
    type: "apiKey",
    in: "query",
    name: "apiKey",
    description: "An API key as `?apiKey=` — `/api/public/*` only (4th precedence; a JSON body field `apiKey` is 3rd).",
  },
  SessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: "parley_session",
    description:
      "The dashboard session from `POST /api/auth/login`. When `X-API-Key` is present too, the key is used. Mutating requests with a session need an `application/json` body (bodiless DELETE and logout excepted) and, when they carry `Origin`, the public URL's origin.",
  },
  OperatorBearer: {
    type: "http",
    scheme: "bearer",
    description: "`Authorization: Bearer <PARLEY_OPERATOR_TOKEN>` on `/api/operator/*` only.",
  },
  CloudSignature: {
    type: "apiKey",
    in: "header",
    name: "X-Hub-Signature-256",
    description: "`sha256=<hex HMAC-SHA256(PARLEY_CLOUD_APP_SECRET, raw body)>`.",
  },
  BridgeToken: {
    type: "http",
    scheme: "bearer",
    description: "The bridge channel's `inboundToken` (from `PUT /api/channels/bridge`).",
  },
} as const

export type SecurityScheme = keyof typeof securitySchemes

export const securityOf = (op: Operation): ReadonlyArray<Partial<Record<SecurityScheme, []>>> | undefined => {
  switch (op.access) {
    case "member":
    case "admin":
    case "adminWithApiAccess":
      // A session's mutating request must carry JSON (§2.4): the uploads take a key only.
      return op.body !== undefined && !("application/json" in op.body.content)
        ? [{ ApiKeyHeader: [] }]
        : [{ ApiKeyHeader: [] }, { SessionCookie: [] }]
    case "public":
      return [{ ApiKeyHeader: [] }, { ApiKeyBearer: [] }, { ApiKeyQuery: [] }]
    case "session":
      return [{ SessionCookie: [] }]
    case "operator":
      return [{ OperatorBearer: [] }]
    case "cloudProvider":
      return op.method === "get" ? [] : [{ CloudSignature: [] }]
    case "bridge":
      return [{ BridgeToken: [] }]
    case "anonymous":
    case "internal":
      return []
  }
}
