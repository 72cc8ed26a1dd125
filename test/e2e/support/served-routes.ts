/**
 * The routes each service really serves, read from its own Fastify app (built through its
 * `app.ts`, exactly as `main.ts` and `standalone` build it) with `printRoutes`, so the OpenAPI test
 * compares the document with the code rather than with another hand-kept list.
 */
import { SingleNodeBus } from "@parley/bus"
import { Database } from "@parley/db"
import { loadConfig, makeLogger } from "@parley/platform"
import { Effect, Layer, Redacted } from "effect"
import type { FastifyInstance } from "fastify"
import { makeAssistantApp } from "../../../services/assistant/src/app.ts"
import { AssistantConfig } from "../../../services/assistant/src/config.ts"
import { makeIdentityApp } from "../../../services/identity/src/app.ts"
import { IdentityConfig } from "../../../services/identity/src/config.ts"
import { makeMessagingApp } from "../../../services/messaging/src/app.ts"
import { MessagingConfig } from "../../../services/messaging/src/config.ts"
import { makeWebhookRegistryApp } from "../../../services/webhook-registry/src/app.ts"
import { WebhookRegistryConfig } from "../../../services/webhook-registry/src/config.ts"

export interface ServedRoute {
  readonly service: string
  readonly method: string
  /** Fastify form: `/api/org/webhooks/:id`. */
  readonly path: string
}

/**
 * Reads `printRoutes({ commonPrefix: false })`: a tree whose lines are `<indent>── <segment>
 * (<METHODS>)`, each level four characters deeper than its parent, a segment continuing its
 * parent's path. HEAD is Fastify's automatic twin of GET, so it is left out.
 */
export const parsePrintedRoutes = (printed: string): Array<{ method: string; path: string }> => {
  const stack: Array<string> = []
  const routes: Array<{ method: string; path: string }> = []
  for (const line of printed.split("\n")) {
    const match = /^(.*?)(?:├──|└──) (.+?)(?: \(([^)]*)\))?$/.exec(line)
    if (match === null) continue
    const depth = Math.round((match[1] as string).length / 4)
    stack.length = depth
    const path = (stack[depth - 1] ?? "") + (match[2] as string)
    stack[depth] = path
    // A plugin's "/" under a prefix is served with and without the slash: one route.
    const route = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
    for (const method of (match[3] ?? "").split(",").map((m) => m.trim())) {
      if (method !== "" && method !== "-" && method !== "HEAD") routes.push({ method, path: route })
    }
  }
  return routes
}

const environment = (databaseUrl: string): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  PARLEY_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
  PARLEY_INTERNAL_SECRET: "internal-secret-for-the-route-listing",
  PARLEY_OPERATOR_TOKEN: "operator-token-for-the-route-listing",
  PARLEY_LOG_LEVEL: "warn",
})

/** Builds identity, the webhook registry, the assistant and messaging on `databaseUrl` and lists their routes. */
export const servedRoutes = (databaseUrl: string): Promise<Array<ServedRoute>> => {
  const env = environment(databaseUrl)
  const logger = makeLogger({ service: "route-listing", level: "warn" })
  const program = Effect.gen(function* () {
    const identityConfig = yield* loadConfig(IdentityConfig, env)
    const { app: identity } = yield* makeIdentityApp({
      logger,
      internalSecret: identityConfig.internalSecret,
      operatorToken: identityConfig.operatorToken,
      publicUrl: identityConfig.publicUrl,
    })
    const registryConfig = yield* loadConfig(WebhookRegistryConfig, env)
    const registry = yield* makeWebhookRegistryApp({
      logger,
      secretKey: Redacted.value(registryConfig.secretKey),
      internalSecret: registryConfig.internalSecret,
      allowPrivate: registryConfig.allowPrivate,
    })
    const assistantConfig = yield* loadConfig(AssistantConfig, env)
    const { app: assistant } = yield* makeAssistantApp({
      logger,
      internalSecret: assistantConfig.internalSecret,
      background: false,
    })
    const messagingConfig = yield* loadConfig(MessagingConfig, env)
    const { http: messaging } = yield* makeMessagingApp({ config: messagingConfig, logger, background: false })
    const apps: ReadonlyArray<readonly [string, FastifyInstance]> = [
      ["identity", identity],
      ["webhook-registry", registry],
      ["assistant", assistant],
      ["messaging", messaging],
    ]
    return yield* Effect.promise(async () => {
      for (const [, app] of apps) await app.ready()
      return apps.flatMap(([service, app]) =>
        parsePrintedRoutes(app.printRoutes({ commonPrefix: false })).map((route) => ({ service, ...route })),
      )
    })
  })
  const infrastructure = SingleNodeBus.layer().pipe(Layer.provideMerge(Database.layer({ url: databaseUrl })))
  return Effect.runPromise(
    program.pipe(Effect.scoped, Effect.provide(infrastructure)) as Effect.Effect<Array<ServedRoute>>,
  )
}
