/**
 * A service's routes, registered from their declarations in `@parley/contracts`
 * (`packages/contracts/src/api/routes/<service>.ts`): the method and path, who may call the route
 * (the principal, internal or operator check, and the one admin guard), the body it takes and up to
 * how many bytes, and the Schemas its path parameters, query and body are decoded with. A service
 * writes only what the route does: one handler per declaration, given the decoded input.
 *
 * `makeHttpServer({ routes })` refuses (throws) any route registered on the server that is not
 * declared, so what a service serves is exactly what its declarations say.
 */
import {
  ErrorText,
  isWidgetOnly,
  type Principal,
  type RouteAccess,
  type RouteDeclaration,
  type ServiceRoutes,
  successStatusOf,
} from "@parley/contracts"
import { Effect, Exit, type ManagedRuntime, Schema } from "effect"
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify"
import { effectHandler, invalidFromIssue } from "../effect-http.ts"
import { type ApiError, forbidden, invalidRequest } from "../errors.ts"
import type { InternalSecret } from "../principal.ts"
import { rawBodyOf } from "./body.ts"
import { principalOf, requireInternal, requirePrincipal } from "./internal-auth.ts"

declare module "fastify" {
  interface FastifyInstance {
    /** The routes this server may serve (`makeHttpServer({ routes })`); any other is refused. */
    declaredRoutes: ServiceRoutes | undefined
  }
}

type Decoded<S> = S extends { readonly effect: infer E extends Schema.Top } ? E["Type"] : unknown

/** The decoded path parameters: each declared `param`'s Schema type. */
export type ParamsOf<D extends RouteDeclaration> = D extends { readonly params: infer P }
  ? { readonly [K in keyof P]: P[K] extends { readonly schema: infer S extends Schema.Top } ? S["Type"] : string }
  : Record<string, never>

/** The decoded query (the route's query Schema), else Fastify's parsed query string. */
export type QueryOf<D extends RouteDeclaration> = D extends { readonly query: infer Q } ? Decoded<Q> : unknown

/** A JSON body decoded by its Schema; the bytes of a signed JSON body or an upload. */
export type BodyOf<D extends RouteDeclaration> = D extends { readonly body: infer B }
  ? B extends { readonly kind: "json"; readonly schema: infer S }
    ? Decoded<S>
    : Buffer
  : undefined

type PrincipalAccess = "member" | "admin" | "adminWithApiAccess" | "public" | "session"

/** The gateway's verified principal on the routes that have one. */
export type PrincipalOf<D extends RouteDeclaration> = D["access"] extends PrincipalAccess ? Principal : undefined

export interface RouteInput<D extends RouteDeclaration> {
  readonly params: ParamsOf<D>
  readonly query: QueryOf<D>
  /**
   * The body, decoded when yielded (a 400 naming every bad field). Lazy, so a route can answer for
   * the resource first: another organization's webhook is a 404 whatever the body says.
   */
  readonly body: Effect.Effect<BodyOf<D>, ApiError>
  readonly principal: PrincipalOf<D>
  readonly request: FastifyRequest
  readonly reply: FastifyReply
}

/** What a route does. Its answer's status is the declared success status unless it sets another. */
export type RouteHandler<D extends RouteDeclaration, E, R> = (
  input: RouteInput<D>,
) => Effect.Effect<unknown, E | ApiError, R>

/** One handler per declared route: a missing or extra one is a type error (and refused at start). */
export type RouteHandlers<Routes extends Readonly<Record<string, RouteDeclaration>>, E, R> = {
  readonly [K in keyof Routes]: RouteHandler<Routes[K], E, R>
}

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

export interface ServeRoutesOptions<Routes extends Readonly<Record<string, RouteDeclaration>>, E, R> {
  /** What route logic runs on. */
  readonly runtime: ManagedRuntime.ManagedRuntime<R, unknown>
  /** Verifies the gateway's principal and internal calls. */
  readonly internalSecret: InternalSecret
  readonly handlers: RouteHandlers<Routes, E, R>
  /** The service's one map from its domain errors to the contract's. */
  readonly toApiError: (error: E) => ApiError
  /** The check of `operator` routes (identity's operator token), run before the body is read. */
  readonly operatorGuard?: Hook
}

const principalAccess: ReadonlySet<RouteAccess> = new Set<RouteAccess>([
  "member",
  "admin",
  "adminWithApiAccess",
  "public",
  "session",
])

const adminRequired = forbidden("admin_required", ErrorText.adminRequired)
const widgetKeyForbidden = forbidden("widget_key_forbidden", ErrorText.widgetKeyForbidden)

/**
 * The second line behind the gateway's gate (docs/design.md §2): the refusal a principal gets from a
 * route whose declared key rules it does not meet, so that a gate mistake at the edge can never
 * serve a request on its own. A public route takes a key holding its scope (a legacy key, with no
 * scopes, holds every one); a private route refuses a widget-only key (docs/contract.md §2.3). `undefined`
 * for a route with no such rule.
 */
const keyRuleOf = (
  route: RouteDeclaration,
): ((principal: Principal | undefined) => ApiError | undefined) | undefined => {
  const scope = route.scope
  if (route.access === "public" && scope !== undefined) {
    const missingScope = forbidden("missing_scope", ErrorText.missingScope(scope))
    return (principal) => {
      const actor = principal?.actor
      if (actor?.type !== "api_key") return missingScope
      return actor.scopes.length === 0 || actor.scopes.includes(scope) ? undefined : missingScope
    }
  }
  if (route.access === "member" || route.access === "admin" || route.access === "adminWithApiAccess") {
    return (principal) => {
      const actor = principal?.actor
      return actor?.type === "api_key" && isWidgetOnly(actor.scopes) ? widgetKeyForbidden : undefined
    }
  }
  return undefined
}

const decoderOf = (schema: Schema.Top, where: "params" | "query" | "body") => {
  const decode = Schema.decodeUnknownEffect(schema as Schema.Codec<unknown, unknown>)
  return (value: unknown): Effect.Effect<unknown, ApiError> =>
    decode(value, { errors: "all", onExcessProperty: "ignore" }).pipe(
      Effect.mapError((error) => invalidFromIssue(where, error.issue)),
    )
}

/** The longest path parameter or query value any route takes (ids are at most ~70 characters). */
export const MaxUrlValueLength = 256

/** A C0 control (NUL first), DEL, a lone surrogate, or U+FFFD (what an invalid UTF-8 sequence decodes to). */
const hasInvalidCharacter = (value: string): boolean => {
  if (!value.isWellFormed()) return true
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x20 || code === 0x7f || code === 0xfffd) return true
  }
  return false
}

/**
 * Every path parameter and query value of every declared route, before its own Schema: a NUL, a
 * control character or a byte sequence that is not UTF-8 is 400 `invalid_request`, as is a value
 * longer than any route takes — never a query that Postgres refuses (`invalid byte sequence 0x00`,
 * an index row too large) and the 500 that followed (issue #13).
 */
/** The 400 for a path parameter or query value no service could use (too long, control characters). */
const invalidUrlValues = (where: "params" | "query", values: unknown): ApiError | undefined => {
  if (values === null || typeof values !== "object") return undefined
  const issues: Array<{ path: string; message: string }> = []
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (typeof one !== "string") continue
      if (one.length > MaxUrlValueLength)
        issues.push({ path: name, message: `is longer than ${MaxUrlValueLength} characters` })
      else if (hasInvalidCharacter(one))
        issues.push({ path: name, message: "must not contain control characters or invalid UTF-8" })
    }
  }
  return issues.length === 0
    ? undefined
    : invalidRequest(`${where} ${issues.map((i) => `${i.path} ${i.message}`).join("; ")}`, issues)
}

const bodyReaderOf = (route: RouteDeclaration): ((request: FastifyRequest) => Effect.Effect<unknown, ApiError>) => {
  const body = route.body
  if (body === undefined) return () => Effect.void
  if (body.kind === "json") {
    if (!("effect" in body.schema)) return (request) => Effect.succeed(request.body)
    const decode = decoderOf(body.schema.effect, "body")
    return (request) => Effect.suspend(() => decode(request.body))
  }
  return (request) => Effect.sync(() => rawBodyOf(request))
}

/** Fastify's options for the body: its limit, and raw bytes for signed JSON and uploads. */
const bodyOptionsOf = (route: RouteDeclaration): Partial<RouteOptions> => {
  const body = route.body
  if (body === undefined) return {}
  switch (body.kind) {
    case "json":
      return { bodyLimit: body.limit }
    case "signedJson":
      return { bodyLimit: body.limit, config: { rawBody: { json: "raw" } } }
    case "media":
    case "csv":
      return { bodyLimit: body.limit, config: { rawBody: { mediaTypes: [...body.mediaTypes] } } }
  }
}

/** Registers every declared route of the service with its handler. */
export const serveRoutes = <Routes extends Readonly<Record<string, RouteDeclaration>>, E, R>(
  app: FastifyInstance,
  declared: ServiceRoutes<Routes>,
  options: ServeRoutesOptions<Routes, E, R>,
): void => {
  if (app.declaredRoutes !== declared) {
    throw new Error(`serveRoutes: make the server with makeHttpServer({ routes: ${declared.service}Routes })`)
  }
  const mapError = (error: E | ApiError): ApiError =>
    (error as { _tag?: unknown })._tag === "ApiError" ? (error as ApiError) : options.toApiError(error as E)
  const verifyPrincipal = requirePrincipal(options.internalSecret)
  const verifyInternal = requireInternal(options.internalSecret)

  for (const [name, route] of Object.entries(declared.routes) as Array<[keyof Routes & string, RouteDeclaration]>) {
    const handler = options.handlers[name] as RouteHandler<RouteDeclaration, E, R> | undefined
    if (handler === undefined) throw new Error(`serveRoutes: ${declared.service}.${name} has no handler`)
    const where = `${declared.service}.${name}`
    let onRequest: Hook | undefined
    if (principalAccess.has(route.access)) onRequest = verifyPrincipal
    else if (route.access === "internal") onRequest = verifyInternal
    else if (route.access === "operator") {
      if (options.operatorGuard === undefined) throw new Error(`serveRoutes: ${where} needs an operatorGuard`)
      onRequest = options.operatorGuard
    }
    const admin = route.access === "admin" || route.access === "adminWithApiAccess"
    const withPrincipal = principalAccess.has(route.access)
    const keyRule = keyRuleOf(route)
    const params =
      route.params === undefined
        ? undefined
        : decoderOf(
            Schema.Struct(Object.fromEntries(Object.entries(route.params).map(([key, p]) => [key, p.schema]))),
            "params",
          )
    const query =
      route.query !== undefined && "effect" in route.query ? decoderOf(route.query.effect, "query") : undefined
    const body = bodyReaderOf(route)
    const status = successStatusOf(route)

    app.route({
      method: route.method,
      url: route.path,
      ...bodyOptionsOf(route),
      ...(onRequest === undefined ? {} : { onRequest }),
      // Plain combinators, not a generator: this runs on every request of every service.
      handler: effectHandler(options.runtime, (request, reply) => {
        const principal = withPrincipal ? principalOf(request) : undefined
        const keyRefusal = keyRule?.(principal)
        if (keyRefusal !== undefined) return Effect.fail(keyRefusal)
        if (admin && principal?.role !== "admin") return Effect.fail(adminRequired)
        const refused = invalidUrlValues("params", request.params) ?? invalidUrlValues("query", request.query)
        if (refused !== undefined) return Effect.fail(refused)
        const respond = (decodedParams: unknown, decodedQuery: unknown) => {
          if (status !== 200) reply.code(status)
          const input = { params: decodedParams, query: decodedQuery, body: body(request), principal, request, reply }
          const answer = handler(input as never)
          return Exit.isExit(answer) && Exit.isSuccess(answer)
            ? (answer as Exit.Exit<unknown>)
            : Effect.mapError(answer, mapError)
        }
        if (params === undefined && query === undefined) return respond(request.params, request.query)
        return Effect.flatMap(params === undefined ? Effect.succeed(request.params) : params(request.params), (p) =>
          Effect.flatMap(query === undefined ? Effect.succeed(request.query) : query(request.query), (q) =>
            respond(p, q),
          ),
        )
      }),
    })
  }
}

/** `onRoute`: a route the service did not declare is a startup failure, naming it. */
export const refuseUndeclaredRoutes = (app: FastifyInstance, declared: ServiceRoutes): void => {
  const allowed = new Set(Object.values(declared.routes).map((route) => `${route.method} ${route.path}`))
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      const key = `${method === "HEAD" ? "GET" : method} ${route.url}`
      if (!allowed.has(key)) {
        throw new Error(`${declared.service} serves ${method} ${route.url}, which its route declarations do not list`)
      }
    }
  })
}
