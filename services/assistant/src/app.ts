/**
 * Builds the assistant from its dependencies (Database, Bus, OutboxWriter, config), so that
 * `main.ts`, `services/standalone` and the e2e tests compose it the same way: migrations applied,
 * the channel-inbound and member-removed consumers running for as long as the Scope lives, and a Fastify app (not yet
 * listening) with the widget surface and the leads and bookings routes.
 */
import { type Bus, defineService, type OutboxWriter, type ServiceApp } from "@parley/bus"
import { assistantRoutes } from "@parley/contracts"
import { Database, loadMigrations, migrate } from "@parley/db"
import { type InternalSecret, makeHttpServer, type ParleyLogger, serveRoutes } from "@parley/platform"
import { type Context, Effect, Layer, ManagedRuntime, type Scope } from "effect"
import { consumeChannelInbound } from "./bus/inbound.ts"
import { consumeMemberRemoved } from "./bus/member-removed.ts"
import { AssistantConfig } from "./config.ts"
import { ConversationFeed } from "./conversations/feed.ts"
import { conversationHandlers } from "./http/conversation-routes.ts"
import { toApiError } from "./http/errors.ts"
import { privateHandlers } from "./http/private-routes.ts"
import type { AssistantRuntime, AssistantServices } from "./http/runtime.ts"
import { widgetHandlers } from "./http/widget-routes.ts"
import { LanguageModel } from "./llm/language-model.ts"
import type { LlmSettings } from "./llm/model-turn.ts"
import { AssistantMetrics } from "./metrics.ts"

export { DEFAULT_BOOKING_SETTINGS } from "./bookings/settings.ts"
export { CHANNEL_INBOUND_GROUP } from "./bus/inbound.ts"

export const ASSISTANT_SCHEMA = "assistant"

export interface AssistantAppOptions {
  readonly logger: ParleyLogger
  readonly internalSecret: InternalSecret
  /** The optional language model; unset, the deterministic engine answers every turn. */
  readonly llm?: LlmSettings | undefined
  /** Run the bus consumers: channel inbound, removed members (default true). */
  readonly background?: boolean
}

export type AssistantApp = ServiceApp

export const applyAssistantMigrations: Effect.Effect<void, never, Database> = Effect.gen(function* () {
  const { sql } = yield* Database
  const migrations = yield* loadMigrations(new URL("../migrations/", import.meta.url))
  yield* migrate({ sql, schema: ASSISTANT_SCHEMA, migrations })
})

/** The Fastify app and consumer of the assistant; everything is released when the Scope closes. */
export const makeAssistantApp = (
  options: AssistantAppOptions,
): Effect.Effect<AssistantApp, never, Database | Bus | OutboxWriter | Scope.Scope> =>
  Effect.gen(function* () {
    yield* applyAssistantMigrations
    const { sql } = yield* Database
    const app = makeHttpServer({
      service: "assistant",
      logger: options.logger,
      readiness: [{ name: "postgres", check: () => sql`select 1` }],
      routes: assistantRoutes,
    })
    const dependencies = yield* Effect.context<Database | Bus | OutboxWriter>()
    const services = Layer.mergeAll(
      LanguageModel.layer(options.llm),
      AssistantMetrics.layer(app.metrics),
      ConversationFeed.layer,
    ).pipe(Layer.provideMerge(Layer.succeedContext(dependencies)))
    // Built in this Scope, so the feed stops listening after the consumer and the routes stop.
    const context: Context.Context<AssistantServices> = yield* Layer.build(services)
    if (options.background ?? true) {
      yield* consumeChannelInbound.pipe(Effect.provideContext(context), Effect.orDie)
      yield* consumeMemberRemoved.pipe(Effect.provideContext(context), Effect.orDie)
    }
    const runtime: AssistantRuntime = yield* Effect.acquireRelease(
      Effect.sync(() => ManagedRuntime.make(Layer.succeedContext(context))),
      (rt) => rt.disposeEffect,
    )
    serveRoutes(app, assistantRoutes, {
      runtime,
      internalSecret: options.internalSecret,
      handlers: { ...widgetHandlers, ...privateHandlers, ...conversationHandlers },
      toApiError,
    })
    yield* Effect.acquireRelease(
      Effect.promise(() => app.ready()),
      () => Effect.promise(() => app.close()),
    )
    return { http: app }
  })

/** The assistant as a service: `main.ts` runs it, `standalone` composes it. */
export const assistantService = defineService({
  name: "assistant",
  routes: assistantRoutes,
  infrastructure: { kind: "outbox", schema: ASSISTANT_SCHEMA },
  config: AssistantConfig,
  make: (config, logger) => makeAssistantApp({ ...config, logger }),
})
