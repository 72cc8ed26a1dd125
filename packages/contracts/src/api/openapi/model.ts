/**
 * One operation as the OpenAPI document shows it, compiled from a route declaration
 * (`../routes/`): OpenAPI's path form (`/api/org/webhooks/{id}`), its lower-case method, and the
 * request body as content type → schema.
 */
import type { Scope } from "../../scopes.ts"
import type { Access, BodySchema, Reply, RouteDeclaration } from "../routes/model.ts"

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete"

export interface RequestBodyContent {
  readonly description?: string
  /** Content type → schema. JSON routes have exactly `application/json`. */
  readonly content: Readonly<Record<string, BodySchema>>
}

export interface Operation {
  readonly method: HttpMethod
  /** OpenAPI form: `/api/org/webhooks/{id}`. */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly tag: string
  readonly access: Access
  /** The scope a key needs on `/api/public/*` (docs/contract.md §8). */
  readonly scope?: Scope
  readonly description?: string
  /** A Struct whose fields are the query parameters (its encoded side: strings). */
  readonly query?: BodySchema
  /** Path parameter → description; every `{name}` of `path` is listed. */
  readonly pathParams?: Readonly<Record<string, string>>
  readonly body?: RequestBodyContent
  /** Success answers by status. Error answers are added from `access`, `body` and `pathParams`. */
  readonly responses: Readonly<Record<number, Reply>>
  /** Error statuses this operation can answer beyond the derived ones (409, 403 `key_limit`, …). */
  readonly extraErrors?: Readonly<Record<number, string>>
  /** Heavy routes: counted against the heavy limit too (docs/contract.md §3). */
  readonly heavy?: boolean
}

/** The operation a declaration documents (`operationId` is the declaration's name). */
export const operationOf = (operationId: string, route: RouteDeclaration): Operation => {
  const body = route.body
  return {
    method: route.method.toLowerCase() as HttpMethod,
    path: route.path.replace(/:([^/]+)/g, "{$1}"),
    operationId,
    summary: route.summary,
    tag: route.tag,
    access: route.access,
    ...(route.scope === undefined ? {} : { scope: route.scope }),
    ...(route.description === undefined ? {} : { description: route.description }),
    ...(route.query === undefined ? {} : { query: route.query }),
    ...(route.params === undefined
      ? {}
      : {
          pathParams: Object.fromEntries(Object.entries(route.params).map(([name, p]) => [name, p.description])),
        }),
    ...(body === undefined
      ? {}
      : {
          body: {
            ...(body.description === undefined ? {} : { description: body.description }),
            content:
              "mediaTypes" in body
                ? Object.fromEntries(body.mediaTypes.map((type) => [type, body.schema]))
                : { "application/json": body.schema },
          },
        }),
    responses: route.responses,
    ...(route.extraErrors === undefined ? {} : { extraErrors: route.extraErrors }),
    ...(route.heavy === true ? { heavy: true } : {}),
  }
}
