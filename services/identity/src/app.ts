/**
 * Builds the identity service from its dependencies (Database, Bus, OutboxWriter, config), so that
 * `main.ts`, `services/standalone`, the gateway's tests and the e2e tests compose it the same way:
 * migrations applied, the KeyUsed consumer running for as long as the Scope lives, and a Fastify app
 * (not yet listening) whose routes run on identity's services.
 */
import { type Bus, defineService, type OutboxWriter, type ServiceApp } from "@parley/bus"
import { identityRoutes } from "@parley/contracts"
import { Database, loadMigrations, migrate } from "@parley/db"
import { makeHttpServer, type ParleyLogger, pinoLoggerLayer, serveRoutes } from "@parley/platform"
import { Effect, Layer, ManagedRuntime, type Redacted, type Scope } from "effect"
import { Accounts } from "./accounts/accounts.ts"
import { ApiKeys } from "./api-keys/api-keys.ts"
import { consumeKeyUsage, type KeyUsageBatching } from "./bus/key-usage.ts"
import { IdentityConfig } from "./config.ts"
import { apiKeyHandlers } from "./http/api-keys.ts"
import { authHandlers } from "./http/auth.ts"
import { toApiError } from "./http/errors.ts"
import { internalHandlers } from "./http/internal.ts"
import { memberHandlers } from "./http/members.ts"
import { operatorCheck, operatorHandlers } from "./http/operator.ts"
import type { IdentityHandlers, IdentityRuntime } from "./http/runtime.ts"
import { Members } from "./members/members.ts"
import { Organizations } from "./organizations/organizations.ts"
import { DEFAULT_SCRYPT_COST, type ScryptCost } from "./passwords/password.ts"
import { Passwords } from "./passwords/passwords.ts"
import { cleanExpiredSessions } from "./sessions/session-cleanup.ts"

export { MAX_ACTIVE_KEYS } from "./api-keys/api-keys.ts"
export { KEY_USAGE_GROUP } from "./bus/key-usage.ts"
export { SESSION_COOKIE, SESSION_LIFETIME_MS } from "./sessions/session-token.ts"

export const IDENTITY_SCHEMA = "identity"

export interface IdentityAppOptions {
  readonly logger: ParleyLogger
  readonly internalSecret: Redacted.Redacted<string>
  /** Unset: the operator API answers 404 everywhere. */
  readonly operatorToken?: Redacted.Redacted<string> | undefined
  /** The public base URL; an https one makes session cookies `Secure`. */
  readonly publicUrl: string
  /** Tests pass a cheaper scrypt cost; production keeps the default. */
  readonly passwordCost?: ScryptCost
  readonly keyUsageBatching?: KeyUsageBatching
}

export type IdentityApp = ServiceApp

export const applyIdentityMigrations: Effect.Effect<void, never, Database> = Effect.gen(function* () {
  const { sql } = yield* Database
  const migrations = yield* loadMigrations(new URL("../migrations/", import.meta.url))
  yield* migrate({ sql, schema: IDENTITY_SCHEMA, migrations })
})

/** The Fastify app and consumers of identity; everything is released when the Scope closes. */
export const makeIdentityApp = (
  options: IdentityAppOptions,
): Effect.Effect<IdentityApp, never, Database | Bus | OutboxWriter | Scope.Scope> =>
  Effect.gen(function* () {
    yield* applyIdentityMigrations
    const dependencies = yield* Effect.context<Database | OutboxWriter>()
    // Effect logs of route logic and background work go to the service's pino logger.
    const logging = pinoLoggerLayer(options.logger)
    const services = Layer.mergeAll(Organizations.layer, Accounts.layer, Members.layer, ApiKeys.layer).pipe(
      Layer.provide(Passwords.layer(options.passwordCost ?? DEFAULT_SCRYPT_COST)),
      Layer.provide(Layer.succeedContext(dependencies)),
      Layer.merge(logging),
    )
    const runtime: IdentityRuntime = yield* Effect.acquireRelease(
      Effect.sync(() => ManagedRuntime.make(services)),
      (runtime) => runtime.disposeEffect,
    )
    // Build the services now, so a broken dependency fails startup rather than the first request.
    yield* Effect.promise(() => runtime.runPromise(Effect.void))

    yield* consumeKeyUsage(options.keyUsageBatching).pipe(Effect.orDie, Effect.provide(logging))
    yield* cleanExpiredSessions.pipe(Effect.provide(logging))

    const { sql } = yield* Database
    const app = makeHttpServer({
      service: "identity",
      logger: options.logger,
      readiness: [{ name: "postgres", check: () => sql`select 1` }],
      routes: identityRoutes,
    })
    const handlers: IdentityHandlers = {
      ...operatorHandlers,
      ...authHandlers({ secureCookies: new URL(options.publicUrl).protocol === "https:" }),
      ...memberHandlers,
      ...apiKeyHandlers,
      ...internalHandlers,
    }
    serveRoutes(app, identityRoutes, {
      runtime,
      internalSecret: options.internalSecret,
      handlers,
      toApiError,
      operatorGuard: operatorCheck(options.operatorToken),
    })
    yield* Effect.acquireRelease(
      Effect.promise(() => app.ready()),
      () => Effect.promise(() => app.close()),
    )
    return { http: app }
  })

/** Identity as a service: `main.ts` runs it, `standalone` composes it. */
export const identityService = defineService({
  name: "identity",
  routes: identityRoutes,
  infrastructure: { kind: "outbox", schema: IDENTITY_SCHEMA },
  config: IdentityConfig,
  make: (config, logger) => makeIdentityApp({ ...config, logger }),
})

export { IdentityConfig }
