/**
 * Who is calling (docs/contract.md §2.2–§2.4): the credential a surface accepts, checked and resolved to
 * an organization. The organization comes only from the credential — nothing a client sends in
 * a header or body can choose it.
 */
import type { IncomingHttpHeaders } from "node:http"
import {
  isWidgetOnly,
  type KeyId,
  normalizeOrigin,
  type OrgId,
  parseApiKey,
  type Role,
  type Scope,
  type UserId,
} from "@parley/contracts"
import { sha256Hex } from "@parley/platform"
import {
  CredentialRequired,
  type GatewayError,
  InvalidApiKey,
  MissingScope,
  OriginNotAllowed,
  SessionExpired,
  WidgetKeyForbidden,
} from "../errors.ts"
import { toApiError } from "../http/errors.ts"
import type { Route } from "../routing/route-table.ts"
import { type CsrfPolicy, checkCsrf } from "./csrf.ts"
import type { IdentityClient } from "./identity-client.ts"
import type { KeyCache } from "./key-cache.ts"
import { headerKey, type PresentedKey, publicKey } from "./presented-key.ts"
import { sessionToken } from "./session-cookie.ts"

export type Caller =
  | {
      readonly type: "api_key"
      readonly keyId: KeyId
      readonly orgId: OrgId
      /** The organization's name, passed on in the principal (`undefined` from an older identity). */
      readonly orgName: string | undefined
      readonly scopes: ReadonlyArray<Scope>
      readonly role: Role
      readonly form: PresentedKey["form"]
    }
  | {
      readonly type: "session"
      readonly userId: UserId
      /** The member's email (`undefined` from an older identity). */
      readonly email: string | undefined
      readonly orgId: OrgId
      readonly orgName: string | undefined
      readonly role: Role
    }
  | { readonly type: "anonymous" }

export interface AuthenticationRequest {
  readonly method: string
  /** The path without the query. */
  readonly path: string
  readonly route: Route
  readonly headers: IncomingHttpHeaders
  /** The parsed JSON body, when there is one (the public surface may carry `apiKey` in it). */
  readonly body: unknown
  readonly query: URLSearchParams | undefined
  readonly hasBody: boolean
}

export interface Authenticator {
  authenticate(request: AuthenticationRequest): Promise<Caller>
}

export interface AuthenticatorOptions {
  readonly keys: KeyCache
  readonly identity: IdentityClient
  readonly csrf: CsrfPolicy
  readonly now?: () => number
}

/** Thrown as its answer: the pipeline answers an `ApiError` with its status and body. */
const fail = (error: GatewayError): never => {
  throw toApiError(error)
}

const originOf = (headers: IncomingHttpHeaders): string | undefined => {
  const origin = headers.origin
  return typeof origin === "string" ? origin : undefined
}

export const makeAuthenticator = (options: AuthenticatorOptions): Authenticator => {
  const now = options.now ?? Date.now

  const resolveKey = async (presented: PresentedKey, headers: IncomingHttpHeaders) => {
    // A malformed key or a broken checksum is refused here, without a cache probe or a call.
    const parsed = presented.value === undefined ? undefined : parseApiKey(presented.value)
    if (parsed === undefined) return fail(new InvalidApiKey())
    const record = await options.keys.resolve(parsed.key, parsed.prefix)
    if (record === undefined || record.revokedAt !== null) return fail(new InvalidApiKey())
    const origin = originOf(headers)
    if (origin !== undefined && record.allowedOrigins.length > 0) {
      const normalized = normalizeOrigin(origin) ?? origin
      if (!record.allowedOrigins.includes(normalized)) {
        fail(new OriginNotAllowed())
      }
    }
    return record
  }

  const keyCaller = (
    record: { keyId: KeyId; orgId: OrgId; orgName?: string | undefined; scopes: ReadonlyArray<Scope> },
    form: PresentedKey["form"],
  ): Caller => ({
    type: "api_key",
    keyId: record.keyId,
    orgId: record.orgId,
    orgName: record.orgName,
    scopes: record.scopes,
    // Legacy keys and `messages:send` keys act as organization administrators (§2.3).
    role: isWidgetOnly(record.scopes) ? "member" : "admin",
    form,
  })

  const authenticatePublic = async (request: AuthenticationRequest): Promise<Caller> => {
    const presented = publicKey({ headers: request.headers, body: request.body, query: request.query })
    if (presented === undefined) return fail(new CredentialRequired({ text: "apiKeyRequired" }))
    const record = await resolveKey(presented, request.headers)
    const scope = request.route.scope
    if (record.scopes.length > 0 && scope !== undefined && !record.scopes.includes(scope)) {
      fail(new MissingScope({ scope }))
    }
    return keyCaller(record, presented.form)
  }

  const authenticatePrivate = async (
    request: AuthenticationRequest,
    missing: CredentialRequired["text"] = "apiKeyRequired",
  ): Promise<Caller> => {
    // A key wins over a session cookie when both are present (§2.4).
    const presented = headerKey(request.headers)
    if (presented !== undefined) {
      const record = await resolveKey(presented, request.headers)
      if (isWidgetOnly(record.scopes)) fail(new WidgetKeyForbidden())
      return keyCaller(record, presented.form)
    }
    const token = sessionToken(request.headers)
    if (token === undefined) return fail(new CredentialRequired({ text: missing }))
    const session = await options.identity.lookupSession(sha256Hex(token))
    if (session === undefined || Date.parse(session.expiresAt) <= now()) {
      return fail(new SessionExpired())
    }
    checkCsrf(options.csrf, request)
    return {
      type: "session",
      userId: session.userId,
      email: session.email,
      orgId: session.orgId,
      orgName: session.orgName,
      role: session.role,
    }
  }

  return {
    authenticate: async (request) => {
      switch (request.route.surface) {
        case "public":
          return authenticatePublic(request)
        case "private":
          return authenticatePrivate(request)
        case "auth":
          // Login is how a session is obtained (identity reads the credentials); it still gets the
          // CSRF rule, against login CSRF. Logout and me act for the session's user.
          if (request.path === "/api/auth/login") {
            checkCsrf(options.csrf, request)
            return { type: "anonymous" }
          }
          return authenticatePrivate(request, "sessionRequired")
        case "operator":
        case "channels":
          return { type: "anonymous" }
      }
    },
  }
}
