import { type Bus, defineService, type OutboxWriter, type ServiceApp } from "@parley/bus"
import { messagingRoutes } from "@parley/contracts"
import { Database, loadMigrations, migrate, Wakeup } from "@parley/db"
import type { Resolver } from "@parley/egress"
import { makeHttpServer, metricsForService, type ParleyLogger, pinoLoggerLayer, serveRoutes } from "@parley/platform"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import { BridgeEgress } from "./bridge/bridge-egress.ts"
import { consumeAssistantReplies } from "./bus/assistant-replies.ts"
import { CampaignWakeup } from "./campaigns/wakeup.ts"
import { type CampaignWorkerOptions, runCampaignWorker } from "./campaigns/worker.ts"
import { TokenBox } from "./channels/token-box.ts"
import { CloudProviders } from "./cloud/cloud-providers.ts"
import { MessagingConfig } from "./config.ts"
import { apiHandlers } from "./http/api-routes.ts"
import { channelHandlers } from "./http/channel-routes.ts"
import { toApiError } from "./http/errors.ts"
import { ingressHandlers } from "./http/ingress-routes.ts"
import type { MessagingServices } from "./http/tenant.ts"
import { acceptProviderPayload } from "./inbound/cloud-accept.ts"
import { CloudIngress } from "./inbound/cloud-ingest.ts"
import { MessagingMetrics } from "./metrics.ts"
import { consumeOrganizationSettings } from "./numbers/org-country.ts"
import { runSandboxReporter } from "./sandbox/reporter.ts"

export const MESSAGING_SCHEMA = "messaging"

/** The service's schema, by its own migrations (with Kafka, the outbox layer adds `messaging.outbox`). */
export const migrateMessaging = Effect.gen(function* () {
  const { sql } = yield* Database
  const migrations = yield* loadMigrations(new URL("../migrations/", import.meta.url))
  yield* migrate({ sql, schema: MESSAGING_SCHEMA, migrations })
})

export interface MessagingAppOptions {
  readonly config: MessagingConfig
  readonly logger: ParleyLogger
  /** Campaign pacing and retry tuning beyond `config.campaignRatePerSecond` (tests shorten backoffs). */
  readonly campaigns?: Partial<CampaignWorkerOptions>
  /** First backoff when the provider rate-limits or fails (default 1 s; doubles per attempt). */
  readonly retryBaseMs?: number
  /** Run the campaign worker and the assistant-reply consumer (default true). */
  readonly background?: boolean
  /** DNS for the bridge client (tests resolve names to loopback). */
  readonly resolver?: Resolver
}

export type MessagingApp = ServiceApp

/**
 * Builds the messaging service from its infrastructure: migrations, the provider and bridge
 * clients, the HTTP routes (tenant API and provider ingress, with its group commit), the campaign
 * worker, the consumer of assistant replies and the sandbox provider's status reporter. Everything stops when the surrounding Scope closes:
 * the HTTP server first, then the ingress group commit (every payload handed in gets its answer),
 * then the worker (which finishes the batch in hand), then the clients.
 */
export const makeMessagingApp = (options: MessagingAppOptions) =>
  Effect.gen(function* () {
    const { config } = options
    yield* migrateMessaging
    const metrics = metricsForService("messaging", options.logger)
    // The sandbox's status reporter is woken by each message the sandbox accepts (docs/contract.md §16).
    const sandboxReports = new Wakeup()
    const dependencies = yield* Effect.context<Database | OutboxWriter | Bus>()
    const services = Layer.mergeAll(
      MessagingMetrics.layer(metrics),
      BridgeEgress.layer({ allowPrivateUrls: config.allowPrivateUrls, resolver: options.resolver }),
      CloudProviders.layer({ baseUrl: config.cloudApiUrl, version: config.cloudApiVersion, sandboxReports }),
      CampaignWakeup.layer,
    ).pipe(Layer.provideMerge(TokenBox.layer(config.secretKey)), Layer.provideMerge(Layer.succeedContext(dependencies)))
    // Built in this Scope, so the clients are released after everything below that uses them.
    const context: Context.Context<MessagingServices> = yield* Layer.build(services)

    // The settings projection runs whatever `background` says: every route reading a number needs it.
    yield* consumeOrganizationSettings.pipe(
      Effect.provideContext(context),
      Effect.provide(pinoLoggerLayer(options.logger)),
    )
    if (options.background ?? true) {
      const retryBaseMs = options.retryBaseMs ?? 1000
      yield* runCampaignWorker({ ratePerSecond: config.campaignRatePerSecond, retryBaseMs, ...options.campaigns }).pipe(
        Effect.provideContext(context),
        Effect.provide(pinoLoggerLayer(options.logger)),
        Effect.forkScoped,
      )
      yield* consumeAssistantReplies({ retryBaseMs }).pipe(
        Effect.provideContext(context),
        Effect.provide(pinoLoggerLayer(options.logger)),
      )
    }

    const runtime = yield* Effect.acquireRelease(
      Effect.sync(() =>
        ManagedRuntime.make(Layer.merge(Layer.succeedContext(context), pinoLoggerLayer(options.logger))),
      ),
      (rt) => Effect.promise(() => rt.dispose()),
    )
    // Before the server, so that closing drains the server first, then the payloads it handed in.
    const ingress = yield* Layer.build(CloudIngress.layer).pipe(
      Effect.provideContext(context),
      Effect.provide(pinoLoggerLayer(options.logger)),
    )
    const cloudIngress = Context.get(ingress, CloudIngress)
    if (options.background ?? true) {
      yield* runSandboxReporter(sandboxReports, (payload) =>
        acceptProviderPayload(cloudIngress, payload, new Date()),
      ).pipe(Effect.provideContext(context), Effect.provide(pinoLoggerLayer(options.logger)), Effect.forkScoped)
    }
    const { sql } = Context.get(context, Database)
    const http = makeHttpServer({
      service: "messaging",
      logger: options.logger,
      metrics,
      readiness: [{ name: "postgres", check: () => sql`select 1` }],
      routes: messagingRoutes,
    })
    serveRoutes(http, messagingRoutes, {
      runtime,
      internalSecret: config.internalSecret,
      handlers: { ...apiHandlers, ...channelHandlers(config, cloudIngress), ...ingressHandlers(config, cloudIngress) },
      toApiError,
    })
    yield* Effect.acquireRelease(
      Effect.promise(() => http.ready()),
      () => Effect.promise(() => http.close()),
    )
    return { http } satisfies MessagingApp
  })

/** Messaging as a service: `main.ts` runs it, `standalone` composes it. */
export const messagingService = defineService({
  name: "messaging",
  routes: messagingRoutes,
  infrastructure: { kind: "outbox", schema: MESSAGING_SCHEMA },
  config: MessagingConfig,
  make: (config, logger) => makeMessagingApp({ config, logger }),
})
