import type { OutboxWriter } from "@parley/bus"
import type { webhookRegistryRoutes } from "@parley/contracts"
import type { Database } from "@parley/db"
import type { Resolver } from "@parley/egress"
import type { RouteHandlers, SecretBox } from "@parley/platform"
import type postgres from "postgres"
import type { RegistryError } from "../errors.ts"
import type { WebhookStore } from "../webhooks/webhook-store.ts"

/** What every route of the registry works with. */
export interface RouteContext {
  readonly sql: postgres.Sql
  readonly schema: string
  readonly box: SecretBox
  readonly allowPrivate: boolean
  readonly resolver?: Resolver
}

/** What route logic runs on: the services `app.ts` composes. */
export type RegistryServices = Database | OutboxWriter | WebhookStore

/** One handler per route `webhookRegistryRoutes` declares (`@parley/contracts`). */
export type RegistryHandlers = RouteHandlers<typeof webhookRegistryRoutes.routes, RegistryError, RegistryServices>
