/**
 * Every Parley service, built from its own `app.ts` with the config it decodes itself from the
 * standalone environment, each listening on a loopback port of its own so that the gateway reaches
 * them over internal HTTP exactly as in a distributed deployment.
 */
import type { AddressInfo } from "node:net"
import { makeAssistantApp } from "@parley/assistant"
import { AssistantConfig } from "@parley/assistant/config"
import type { Bus, OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import { makeDispatcher } from "@parley/dispatcher"
import { DispatcherConfig } from "@parley/dispatcher/config"
import { makeIdentityApp } from "@parley/identity"
import { IdentityConfig } from "@parley/identity/config"
import { makeMessagingApp } from "@parley/messaging"
import { MessagingConfig } from "@parley/messaging/config"
import { type EnvRecord, loadConfig, type makeLogger, type ServiceMetrics } from "@parley/platform"
import { makeWebhookRegistryApp } from "@parley/webhook-registry"
import { WebhookRegistryConfig } from "@parley/webhook-registry/config"
import { Effect, Redacted, type Scope } from "effect"
import type { FastifyInstance } from "fastify"

type Logger = ReturnType<typeof makeLogger>
export type Infrastructure = Database | Bus | OutboxWriter

export interface InternalServices {
  /** Base URLs the gateway forwards to, as `PARLEY_<SERVICE>_URL` variables. */
  readonly urls: Readonly<Record<string, string>>
  /** Each service's metrics, for standalone's one `/metrics`. */
  readonly metrics: ReadonlyArray<ServiceMetrics>
}

const listenOnLoopback = (app: FastifyInstance): Effect.Effect<string> =>
  Effect.promise(async () => {
    await app.listen({ host: "127.0.0.1", port: 0 })
    const { port } = app.server.address() as AddressInfo
    return `http://127.0.0.1:${port}`
  })

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

    const urls = {
      PARLEY_IDENTITY_URL: yield* listenOnLoopback(identity),
      PARLEY_WEBHOOK_REGISTRY_URL: yield* listenOnLoopback(registry),
      PARLEY_MESSAGING_URL: yield* listenOnLoopback(messaging),
      PARLEY_ASSISTANT_URL: yield* listenOnLoopback(assistant),
    }
    return { urls, metrics: [identity.metrics, registry.metrics, messaging.metrics, assistant.metrics] }
  })
