/**
 * The routes each service really serves, read from its own Fastify app (built through its
 * `app.ts`, exactly as `main.ts` and `standalone` build it) with `printRoutes`, so the OpenAPI test
 * compares the document with the code rather than with another hand-kept list.
 */
import { SingleNodeBus } from "@parley/bus"
import { Database } from "@parley/db"
import { Effect, Layer } from "effect"
import type { FastifyInstance } from "fastify"
import { assistantService } from "../../../services/assistant/src/app.ts"
import { identityService } from "../../../services/identity/src/app.ts"
import { messagingService } from "../../../services/messaging/src/app.ts"
import { webhookRegistryService } from "../../../services/webhook-registry/src/app.ts"

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

/**
 * Builds identity, the webhook registry, the assistant and messaging on `databaseUrl` — from their
 * service definitions, as `runService` and `standalone` build them — and lists their routes.
 */
export const servedRoutes = (databaseUrl: string): Promise<Array<ServedRoute>> => {
  const env = environment(databaseUrl)
  const program = Effect.gen(function* () {
    const apps: Array<readonly [string, FastifyInstance]> = []
    for (const service of [identityService, webhookRegistryService, assistantService, messagingService]) {
      const { make } = yield* service.configure(env)
      apps.push([service.name, (yield* make).http])
    }
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
