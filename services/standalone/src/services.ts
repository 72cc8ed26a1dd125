/**
 * Every Parley service, built from its own `app.ts` with the config it decodes itself from the
 * standalone environment. The gateway reaches each through an in-process dispatcher: the service
 * still receives a whole HTTP request with the signed principal and runs every hook it runs behind
 * a network hop, but no socket or port is spent on it (the distributed e2e tests cover the hop).
 */
import { makeAssistantApp } from "@parley/assistant"
import { AssistantConfig } from "@parley/assistant/config"
import type { Bus, OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import { makeDispatcher } from "@parley/dispatcher"
import { DispatcherConfig } from "@parley/dispatcher/config"
import { InProcessDispatcher, type ServiceTargets } from "@parley/gateway"
import { makeIdentityApp } from "@parley/identity"
import { IdentityConfig } from "@parley/identity/config"
import { makeMessagingApp } from "@parley/messaging"
import { MessagingConfig } from "@parley/messaging/config"
import { type EnvRecord, loadConfig, type makeLogger, type ServiceMetrics } from "@parley/platform"
import { makeWebhookRegistryApp } from "@parley/webhook-registry"
import { WebhookRegistryConfig } from "@parley/webhook-registry/config"
import { Effect, Redacted, type Scope } from "effect"

type Logger = ReturnType<typeof makeLogger>
export type Infrastructure = Database | Bus | OutboxWriter

export interface InternalServices {
  /** What the gateway forwards each service's routes to. */
  readonly targets: ServiceTargets
  /** Each service's metrics, for standalone's one `/metrics`. */
  readonly metrics: ReadonlyArray<ServiceMetrics>
}

export const startInternalServices = (
  env: EnvRecord,
  loggerFor: (service: string) => Logger,
): Effect.Effect<InternalServices, unknown, Infrastructure | Scope.Scope> =>
  Effect.gen(function* () {
    const identityConfig = yield* loadConfig(IdentityConfig, env)
    const { app: identity } = yield* makeIdentityApp({
      logger: loggerFor("identity"),
      internalSecret: identityConfig.internalSecret,
      operatorToken: identityConfig.operatorToken,
      publicUrl: identityConfig.publicUrl,
    })

    const registryConfig = yield* loadConfig(WebhookRegistryConfig, env)
    const registry = yield* makeWebhookRegistryApp({
      logger: loggerFor("webhook-registry"),
      secretKey: Redacted.value(registryConfig.secretKey),
      internalSecret: registryConfig.internalSecret,
      allowPrivate: registryConfig.allowPrivate,
    })

    const dispatcherConfig = yield* loadConfig(DispatcherConfig, env)
    yield* makeDispatcher({
      secretKey: Redacted.value(dispatcherConfig.secretKey),
      allowPrivate: dispatcherConfig.allowPrivate,
    })

    const messagingConfig = yield* loadConfig(MessagingConfig, env)
    const { http: messaging } = yield* makeMessagingApp({ config: messagingConfig, logger: loggerFor("messaging") })

    const assistantConfig = yield* loadConfig(AssistantConfig, env)
    const { app: assistant } = yield* makeAssistantApp({
      logger: loggerFor("assistant"),
      internalSecret: assistantConfig.internalSecret,
      llm: assistantConfig.llm,
    })

    const targets: ServiceTargets = {
      identity: new InProcessDispatcher(identity),
      webhookRegistry: new InProcessDispatcher(registry),
      messaging: new InProcessDispatcher(messaging),
      assistant: new InProcessDispatcher(assistant),
    }
    return { targets, metrics: [identity.metrics, registry.metrics, messaging.metrics, assistant.metrics] }
  })
