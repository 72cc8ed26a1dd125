/**
 * Test harness for the webhook registry: a fresh database, the single-node bus on it, the app
 * built by `makeWebhookRegistryApp`, and requests signed as the gateway signs them.
 */
import { Bus, type OutboxWriter, type OutgoingRecord, SingleNodeBus } from "@parley/bus"
import { OrgId, type Role, UserId } from "@parley/contracts"
import { Database } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import type { Resolver } from "@parley/egress"
import { makeLogger, newId, type ParleyLogger, SecretBox, signPrincipal } from "@parley/platform"
import { Effect, Exit, Layer, Scope } from "effect"
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify"
import { makeWebhookRegistryApp } from "../src/app.ts"

export const internalSecret = "registry-test-internal-secret"
export const secretKey = Buffer.alloc(32, 11).toString("base64")
export const box = SecretBox.fromBase64Key(secretKey)

export interface RegistryHarness {
  readonly db: FreshDatabase
  readonly app: FastifyInstance
  readonly context: import("effect").Context.Context<Bus | OutboxWriter | Database>
  request(options: InjectOptions & { org: OrgId; role?: Role }): Promise<LightMyRequestResponse>
  publish(records: ReadonlyArray<OutgoingRecord>): Promise<void>
  close(): Promise<void>
}

export const newOrg = (): OrgId => OrgId.make(newId("org"))

export const principalHeader = (org: OrgId, role: Role = "admin") =>
  signPrincipal(internalSecret, {
    orgId: org,
    role,
    actor: { type: "user", userId: UserId.make(newId("usr")) },
    requestId: newId("req"),
  })

export const makeRegistryHarness = async (
  options: { allowPrivate?: boolean; resolver?: Resolver; db?: FreshDatabase; logger?: ParleyLogger } = {},
): Promise<RegistryHarness> => {
  const db = options.db ?? (await freshDatabase())
  const scope = Effect.runSync(Scope.make())
  const layer = SingleNodeBus.layer({ timings: { drainTimeoutMs: 500 } }).pipe(
    Layer.provideMerge(Database.layer({ url: db.url })),
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const { http: app } = await Effect.runPromiseWith(context)(
    makeWebhookRegistryApp({
      logger: options.logger ?? makeLogger({ service: "webhook-registry", level: "silent" }),
      secretKey,
      internalSecret,
      allowPrivate: options.allowPrivate ?? true,
      ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
    }).pipe(Scope.provide(scope)),
  )
  return {
    db,
    app,
    context,
    request: ({ org, role, headers, ...rest }) =>
      app.inject({ ...rest, headers: { ...headers, "x-parley-principal": principalHeader(org, role) } }),
    publish: (records) =>
      Effect.runPromiseWith(context)(
        Effect.gen(function* () {
          const bus = yield* Bus
          yield* bus.publish(records)
        }),
      ),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      if (options.db === undefined) await db.close()
    },
  }
}
