import type { OutboxWriter } from "@parley/bus"
import type { OrgId } from "@parley/contracts"
import type { Database } from "@parley/db"
import type { Resolver } from "@parley/egress"
import {
  ApiError,
  forbidden,
  internal,
  isDependencyUnavailable,
  principalOf,
  type SecretBox,
  unavailable,
} from "@parley/platform"
import { Cause, type Context, Effect, Exit } from "effect"
import type { FastifyRequest } from "fastify"
import type postgres from "postgres"
import type { WebhookStore } from "../webhook-store.ts"

/** What every route of the registry works with. */
export interface RouteContext {
  readonly sql: postgres.Sql
  readonly schema: string
  readonly store: WebhookStore
  readonly box: SecretBox
  readonly allowPrivate: boolean
  readonly resolver?: Resolver
  /** Runs route logic with the service's Database and OutboxWriter; ApiError failures answer as themselves. */
  readonly run: <A>(effect: Effect.Effect<A, ApiError, Database | OutboxWriter>) => Promise<A>
}

export const makeRun =
  (context: Context.Context<Database | OutboxWriter>) =>
  async <A>(effect: Effect.Effect<A, ApiError, Database | OutboxWriter>): Promise<A> => {
    const exit = await Effect.runPromiseExitWith(context)(effect)
    if (Exit.isSuccess(exit)) return exit.value
    const failure = Cause.findErrorOption(exit.cause)
    if (failure._tag === "Some" && failure.value instanceof ApiError) throw failure.value
    throw Object.assign(isDependencyUnavailable(Cause.squash(exit.cause)) ? unavailable() : internal(), {
      cause: Cause.pretty(exit.cause),
    })
  }

/** The organization of the verified principal. */
export const orgOf = (request: FastifyRequest): OrgId => principalOf(request).orgId as OrgId

/** Administrator routes: a member gets 403 `admin_required`. */
export const requireAdmin = async (request: FastifyRequest): Promise<void> => {
  if (principalOf(request).role !== "admin") throw forbidden("admin_required", "Organization administrator required")
}
