/**
 * The shape of one documented operation. The table (`operations-*.ts`) names request and response
 * schemas by the same Effect Schemas the services decode with; `document.ts` compiles them to JSON
 * Schema once, so the document cannot drift from the code's validation.
 */
import type { Schema } from "effect"
import type { Scope } from "../../scopes.ts"

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete"

/**
 * Who may call an operation, which decides its security requirements and its 401/403 answers:
 * - `member`: any session of the organization, or a non-widget API key (`X-API-Key`).
 * - `admin`: an administrator session, or a non-widget API key (acts as administrator).
 * - `adminWithApiAccess`: as `admin`, and the organization needs the `api_access` plan feature.
 * - `public`: the widget surface — a key in any of the four forms, with the operation's `scope`.
 * - `session`: the session cookie only (`/api/auth/logout`, `/api/auth/me`).
 * - `anonymous`: no credential (`/api/auth/login`).
 * - `operator`: `Authorization: Bearer <PARLEY_OPERATOR_TOKEN>`.
 * - `cloudProvider`: the cloud provider's `X-Hub-Signature-256` (or its verify token on GET).
 * - `bridge`: the bridge channel's inbound token as a bearer.
 */
export type Access =
  | "member"
  | "admin"
  | "adminWithApiAccess"
  | "public"
  | "session"
  | "anonymous"
  | "operator"
  | "cloudProvider"
  | "bridge"

/** A JSON Schema written by hand, for bodies no service decodes with a Schema of its own. */
export interface JsonSchemaObject {
  readonly [key: string]: unknown
}

/** A body or reply schema: an Effect Schema (compiled), or a hand-written JSON Schema. */
export type BodySchema = { readonly effect: Schema.Top; readonly name: string } | { readonly json: JsonSchemaObject }

export interface RequestBody {
  readonly description?: string
  /** Content type → schema. JSON routes have exactly `application/json`. */
  readonly content: Readonly<Record<string, BodySchema>>
}

export interface Reply {
  readonly description: string
  /** Content type → schema; none for bodiless answers (204). */
  readonly content?: Readonly<Record<string, BodySchema>>
  readonly headers?: Readonly<Record<string, { readonly description: string; readonly schema: JsonSchemaObject }>>
}

export interface Operation {
  readonly method: HttpMethod
  /** OpenAPI form: `/api/org/webhooks/{id}`. */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly tag: string
  readonly access: Access
  /** The scope a key needs on `/api/public/*` (CONTRACT.md §8). */
  readonly scope?: Scope
  readonly description?: string
  /** A Struct whose fields are the query parameters (its encoded side: strings). */
  readonly query?: BodySchema
  /** Path parameter → description; every `{name}` of `path` is listed. */
  readonly pathParams?: Readonly<Record<string, string>>
  readonly body?: RequestBody
  /** Success answers by status. Error answers are added from `access`, `body` and `pathParams`. */
  readonly responses: Readonly<Record<number, Reply>>
  /** Error statuses this operation can answer beyond the derived ones (409, 403 `key_limit`, …). */
  readonly extraErrors?: Readonly<Record<number, string>>
  /** Heavy routes: counted against the heavy limit too (CONTRACT.md §3). */
  readonly heavy?: boolean
}

/** An Effect Schema, named as it appears under `components.schemas`. */
export const schema = (name: string, effect: Schema.Top): BodySchema => ({ effect, name })

/** A hand-written JSON Schema. */
export const jsonSchema = (json: JsonSchemaObject): BodySchema => ({ json })

export const jsonBody = (body: BodySchema, description?: string): RequestBody => ({
  ...(description === undefined ? {} : { description }),
  content: { "application/json": body },
})

export const jsonReply = (description: string, body: BodySchema): Reply => ({
  description,
  content: { "application/json": body },
})

export const noContent = (description: string): Reply => ({ description })
