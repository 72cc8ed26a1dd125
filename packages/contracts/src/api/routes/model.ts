/**
 * The shape of a route declaration: everything about one route that more than one place needs —
 * who owns it, who may call it, what it takes and answers — written once. The gateway's matcher,
 * scopes, heavy set and body limits (`services/gateway/src/routing/route-table.ts`), the OpenAPI
 * document (`../openapi/document.ts`) and each service's route registration (`serveRoutes` in
 * `@parley/platform`) are all compiled from these declarations. See `README.md` beside this file.
 */
import type { Schema } from "effect"
import type { Scope } from "../../scopes.ts"

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/** The services the gateway forwards to (the keys of its `ServiceTargets`). */
export type ServiceName = "identity" | "webhookRegistry" | "assistant" | "messaging"

/**
 * Who serves a route: one of the services behind the gateway, or the gateway itself (its API
 * documentation and the front ends' files), whose routes are never forwarded and are not part of the
 * OpenAPI document.
 */
export type RouteOwner = ServiceName | "gateway"

/**
 * Who may call a route. It decides the surface the gateway authenticates it on, the guard the
 * service runs, and the route's security requirements and 401/403 answers in the document:
 * - `member`: any session of the organization, or a non-widget API key (`X-API-Key`).
 * - `admin`: an administrator session, or a non-widget API key (acts as administrator); a member's
 *   session gets 403 `admin_required` from the service's one admin guard.
 * - `adminWithApiAccess`: as `admin`, and the organization needs the `api_access` plan feature.
 * - `public`: the widget surface — a key in any of the four forms, holding the route's `scope`.
 * - `session`: the session cookie only (`/api/auth/logout`, `/api/auth/me`).
 * - `anonymous`: no credential (`/api/auth/login`).
 * - `operator`: `Authorization: Bearer <PARLEY_OPERATOR_TOKEN>`, checked by identity.
 * - `cloudProvider`: the cloud provider's `X-Hub-Signature-256` (or its verify token on GET).
 * - `bridge`: the bridge channel's inbound token as a bearer.
 * - `internal`: a call between services (`x-parley-internal`); never behind the gateway, never documented.
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
  | "internal"

/** A JSON Schema written by hand, for bodies no service decodes with a Schema of its own. */
export interface JsonSchemaObject {
  readonly [key: string]: unknown
}

/** An Effect Schema, named as it appears under the document's `components.schemas`. */
export interface NamedSchema<S extends Schema.Top = Schema.Top> {
  readonly effect: S
  readonly name: string
}

/** A body, query or reply schema: an Effect Schema (compiled and decoded with), or a hand-written JSON Schema. */
export type BodySchema = NamedSchema | { readonly json: JsonSchemaObject }

export const MiB = 1024 * 1024
/** docs/contract.md §1: JSON bodies up to 1 MiB unless a route says otherwise. */
export const JSON_BODY_LIMIT = MiB

/**
 * What a route takes as its body, and up to how many bytes (413 above, at the gateway and at the
 * service alike):
 * - `json`: parsed, decoded by `schema` when it is an Effect Schema;
 * - `signedJson`: JSON whose exact bytes a signature covers (the provider's): kept unparsed;
 * - `media`: raw bytes of one of `mediaTypes` (`image/*` patterns allowed), streamed by the gateway;
 * - `csv`: a `text/csv` upload, streamed by the gateway, which refuses a NUL byte in it.
 */
export type RequestBody =
  | {
      readonly kind: "json" | "signedJson"
      readonly schema: BodySchema
      readonly limit: number
      readonly description?: string
    }
  | {
      readonly kind: "media" | "csv"
      readonly mediaTypes: ReadonlyArray<string>
      readonly limit: number
      /** The document's schema for every one of `mediaTypes`. */
      readonly schema: BodySchema
      readonly description?: string
    }

export interface Reply {
  readonly description: string
  /** Content type → schema; none for bodiless answers (204). */
  readonly content?: Readonly<Record<string, BodySchema>>
  readonly headers?: Readonly<Record<string, { readonly description: string; readonly schema: JsonSchemaObject }>>
}

/** A path parameter: what it names (for the document) and the Schema its segment is decoded with. */
export interface PathParam<S extends Schema.Codec<unknown, string> = Schema.Codec<unknown, string>> {
  readonly description: string
  readonly schema: S
}

/** One route. Its name in the service's record is its `operationId`. */
export interface RouteDeclaration {
  readonly method: HttpMethod
  /** docs/contract.md's (and Fastify's) form: `/api/org/webhooks/:id`. */
  readonly path: string
  readonly access: Access
  /** The scope a key needs on `/api/public/*` (docs/contract.md §8); required there, absent elsewhere. */
  readonly scope?: Scope
  /** Counts against the heavy rate limit as well as the general one (docs/contract.md §3). */
  readonly heavy?: boolean
  readonly summary: string
  readonly tag: string
  readonly description?: string
  /** Every `:name` of `path`, in order. */
  readonly params?: Readonly<Record<string, PathParam>>
  /** A Struct whose fields are the query parameters (its encoded side: strings). */
  readonly query?: BodySchema
  readonly body?: RequestBody
  /** Success answers by status (exactly one). Error answers are derived from access, body and params. */
  readonly responses: Readonly<Record<number, Reply>>
  /** Error statuses this route can answer beyond the derived ones (409, 403 `key_limit`, …). */
  readonly extraErrors?: Readonly<Record<number, string>>
}

/** One service's routes and the path prefixes it owns. */
export interface ServiceRoutes<
  Routes extends Readonly<Record<string, RouteDeclaration>> = Record<string, RouteDeclaration>,
  Owner extends RouteOwner = RouteOwner,
> {
  readonly service: Owner
  /**
   * The path prefixes the service owns: every route of the service lies under one, and no two
   * services share one. The gateway forwards declared routes only — a path under a mount that no
   * route declares is a 404 at the edge, so every gate is decided on the route that serves it.
   */
  readonly mounts: ReadonlyArray<string>
  readonly routes: Routes
}

/** A service's declarations, checked for consistency when the module loads (see `checkService`). */
export const serviceRoutes = <
  const Routes extends Readonly<Record<string, RouteDeclaration>>,
  Owner extends RouteOwner,
>(
  service: Owner,
  mounts: ReadonlyArray<string>,
  routes: Routes,
): ServiceRoutes<Routes, Owner> => {
  const declared = { service, mounts, routes }
  checkService(declared)
  return declared
}

// ---- helpers that keep declarations short ----

export const schema = <S extends Schema.Top>(name: string, effect: S): NamedSchema<S> => ({ effect, name })

export const jsonSchema = (json: JsonSchemaObject): BodySchema => ({ json })

export const jsonBody = <B extends BodySchema>(
  body: B,
  options: { readonly limit?: number; readonly description?: string } = {},
) => ({ kind: "json" as const, schema: body, limit: options.limit ?? JSON_BODY_LIMIT, ...description(options) })

export const signedJsonBody = <B extends BodySchema>(body: B, options: { readonly limit?: number } = {}) => ({
  kind: "signedJson" as const,
  schema: body,
  limit: options.limit ?? JSON_BODY_LIMIT,
})

export const mediaBody = (mediaTypes: ReadonlyArray<string>, limit: number): RequestBody => ({
  kind: "media",
  mediaTypes,
  limit,
  schema: jsonSchema({ type: "string", contentMediaType: "application/octet-stream" }),
})

export const csvBody = (limit: number): RequestBody => ({
  kind: "csv",
  mediaTypes: ["text/csv"],
  limit,
  schema: jsonSchema({ type: "string" }),
})

export const jsonReply = (description: string, body: BodySchema): Reply => ({
  description,
  content: { "application/json": body },
})

export const noContent = (description: string): Reply => ({ description })

export const param = <S extends Schema.Codec<unknown, string>>(description: string, schema: S): PathParam<S> => ({
  description,
  schema,
})

const description = (options: { readonly description?: string }) =>
  options.description === undefined ? {} : { description: options.description }

// ---- what every declaration must satisfy ----

/** `/api/org/webhooks/:id/replay` → `["id"]`. */
export const pathParamNames = (path: string): Array<string> =>
  path
    .split("/")
    .filter((segment) => segment.startsWith(":"))
    .map((segment) => segment.slice(1))

export const underPrefix = (path: string, prefix: string): boolean =>
  path === prefix || (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47) /* "/" */

/** Providers sign their calls; internal calls carry `x-parley-internal`: neither is a tenant's. */
export const isProviderAccess = (access: Access): boolean => access === "cloudProvider" || access === "bridge"

/**
 * Throws, naming the route, when a declaration contradicts itself: a path outside the service's
 * mounts, params that are not the path's, a public route without a scope (or a scope elsewhere),
 * not exactly one success answer, or a body on a GET.
 */
export const checkService = (declared: ServiceRoutes): void => {
  for (const [name, route] of Object.entries(declared.routes)) {
    const where = `${declared.service}.${name} (${route.method} ${route.path})`
    if (!route.path.startsWith("/")) throw new Error(`${where}: the path must start with /`)
    if (!declared.mounts.some((mount) => underPrefix(route.path, mount))) {
      throw new Error(`${where}: the path is under none of the service's mounts (${declared.mounts.join(", ")})`)
    }
    const named = pathParamNames(route.path)
    const params = Object.keys(route.params ?? {})
    if (named.join(",") !== params.join(",")) {
      throw new Error(`${where}: params must be the path's, in order (${named.join(", ")}), not (${params.join(", ")})`)
    }
    if ((route.access === "public") !== (route.scope !== undefined)) {
      throw new Error(`${where}: a public route needs a scope, and only a public route has one`)
    }
    const successes = Object.keys(route.responses).filter((status) => Number(status) < 400)
    if (successes.length !== 1) throw new Error(`${where}: declare exactly one success answer`)
    if (route.method === "GET" && route.body !== undefined) throw new Error(`${where}: a GET takes no body`)
  }
}

/** The one success status of a route (`201` for a creation). */
export const successStatusOf = (route: RouteDeclaration): number =>
  Number(Object.keys(route.responses).find((status) => Number(status) < 400))
