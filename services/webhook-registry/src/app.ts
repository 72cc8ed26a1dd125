import { type Bus, type BusError, defineService, type OutboxWriter, type ServiceApp } from "@parley/bus"
import { webhookRegistryRoutes } from "@parley/contracts"
import { Database, loadMigrations, migrate } from "@parley/db"
import type { Resolver } from "@parley/egress"
import { makeHttpServer, type ParleyLogger, SecretBox, serveRoutes } from "@parley/platform"
import { Context, Effect, Layer, ManagedRuntime, Redacted, Schedule, type Scope } from "effect"
import type { FastifyInstance } from "fastify"
import { runDeliveryLogConsumers } from "./bus/consumers.ts"
import { WebhookRegistryConfig } from "./config.ts"
import { deleteExpired } from "./deliveries/delivery-log.ts"
import type { RegistryServices } from "./http/context.ts"
import { deliveryHandlers } from "./http/deliveries.ts"
import { toApiError } from "./http/errors.ts"
import { webhookHandlers } from "./http/webhooks.ts"
import { PreviousSecretSweepEvery } from "./webhooks/rotation.ts"
import { WebhookStore } from "./webhooks/webhook-store.ts"

export interface WebhookRegistryOptions {
  readonly logger: ParleyLogger
  /** PARLEY_SECRET_KEY: seals webhook secrets at rest. */
  readonly secretKey: string | Redacted.Redacted<string>
  /** PARLEY_INTERNAL_SECRET: verifies the principal the gateway signs. */
  readonly internalSecret: string | Redacted.Redacted<string>
  /** PARLEY_WEBHOOK_ALLOW_PRIVATE: accept loopback and private webhook URLs (development, tests). */
  readonly allowPrivate: boolean
  readonly schema?: string
  readonly groupPrefix?: string
  readonly resolver?: Resolver
}

/** How often expired attempts and deliveries are deleted. */
export const CleanupEvery = "1 hour"

/** The registry's Postgres schema (its Kafka outbox lives there too). */
export const WEBHOOK_REGISTRY_SCHEMA = "webhook_registry"

/**
 * Builds the webhook registry from its dependencies: migrates its schema, starts the consumers of
 * the delivery log and the retention cleanup (both until the Scope closes) and answers the Fastify
 * app with the routes of docs/contract.md §5, not yet listening.
 */
export const makeWebhookRegistryApp = (
  options: WebhookRegistryOptions,
): Effect.Effect<ServiceApp, BusError, WebhookRegistryRequirements | Scope.Scope> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const schema = options.schema ?? WEBHOOK_REGISTRY_SCHEMA
    const migrations = yield* loadMigrations(new URL("../migrations/", import.meta.url))
    yield* migrate({ sql, schema, migrations })
    yield* runDeliveryLogConsumers(schema, options.groupPrefix ?? "webhook-registry.")
    yield* Effect.tryPromise(() => deleteExpired(sql, schema)).pipe(
      Effect.catch((error) => Effect.logWarning("attempt cleanup failed", { error: String(error) })),
      Effect.repeat(Schedule.spaced(CleanupEvery)),
      Effect.forkScoped,
    )
    const dependencies = yield* Effect.context<Database | OutboxWriter>()
    const services = WebhookStore.layer(schema).pipe(Layer.provideMerge(Layer.succeedContext(dependencies)))
    const runtime: ManagedRuntime.ManagedRuntime<RegistryServices, never> = yield* Effect.acquireRelease(
      Effect.sync(() => ManagedRuntime.make(services)),
      (rt) => rt.disposeEffect,
    )
    // Built now, so a broken dependency fails startup rather than the first request.
    const store = Context.get(yield* Effect.promise(() => runtime.context()), WebhookStore)
    yield* Effect.suspend(() => store.forgetExpiredPreviousSecrets()).pipe(
      Effect.catchCause((cause) => Effect.logWarning("forgetting expired previous secrets failed", { cause })),
      Effect.repeat(Schedule.spaced(PreviousSecretSweepEvery)),
      Effect.forkScoped,
    )
    const app: FastifyInstance = makeHttpServer({
      service: "webhook-registry",
      logger: options.logger,
      readiness: [{ name: "postgres", check: () => sql`select 1` }],
      routes: webhookRegistryRoutes,
    })
    const routeContext = {
      sql,
      schema,
      box: SecretBox.fromBase64Key(
        typeof options.secretKey === "string" ? options.secretKey : Redacted.value(options.secretKey),
      ),
      allowPrivate: options.allowPrivate,
      ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
    }
    serveRoutes(app, webhookRegistryRoutes, {
      runtime,
      internalSecret: options.internalSecret,
      handlers: { ...webhookHandlers(routeContext), ...deliveryHandlers(routeContext) },
      toApiError,
    })
    yield* Effect.addFinalizer(() => Effect.promise(() => app.close()))
    yield* Effect.promise(() => app.ready())
    return { http: app }
  })

export type WebhookRegistryRequirements = Bus | Database | OutboxWriter

/** The webhook registry as a service: `main.ts` runs it, `standalone` composes it. */
export const webhookRegistryService = defineService({
  name: "webhook-registry",
  routes: webhookRegistryRoutes,
  infrastructure: { kind: "outbox", schema: WEBHOOK_REGISTRY_SCHEMA },
  config: WebhookRegistryConfig,
  make: (config, logger) => makeWebhookRegistryApp({ ...config, logger }),
})
