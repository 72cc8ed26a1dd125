import { OutboxWriter, type OutgoingRecord } from "@parley/bus"
import { EventCatalogue } from "@parley/contracts"
import { withTransaction } from "@parley/db"
import { type ApiError, invalidRequest, notFound } from "@parley/platform"
import { Effect } from "effect"
import {
  decodeCursor,
  deliveriesToReplay,
  findDelivery,
  listAttempts,
  redeliveryOf,
  testDeliveryOf,
} from "../delivery-log.ts"
import { orgOf, type RegistryHandlers, type RouteContext } from "./context.ts"

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

const timeField = (body: Record<string, unknown>, name: string): Effect.Effect<Date | undefined, ApiError> => {
  const value = body[name]
  if (value === undefined) return Effect.succeed(undefined)
  if (typeof value !== "string" || !ISO.test(value) || Number.isNaN(Date.parse(value))) {
    return Effect.fail(
      invalidRequest(`${name} must be an ISO 8601 time`, [{ path: name, message: "must be an ISO 8601 time" }]),
    )
  }
  return Effect.succeed(new Date(value))
}

/** `GET /api/org/webhook-events`: the catalogue as it is, built once. */
const catalogue = {
  data: EventCatalogue.map((entry) => ({
    name: entry.name,
    description: entry.description,
    channels: entry.channels,
    sample: entry.sample,
  })),
}

/** Queues deliveries for the dispatcher in one transaction: all of them reach the bus, or none. */
const queue = (records: ReadonlyArray<OutgoingRecord>) =>
  withTransaction((tx) =>
    Effect.gen(function* () {
      const outbox = yield* OutboxWriter
      for (let i = 0; i < records.length; i += 500) yield* outbox.append(tx, records.slice(i, i + 500))
    }),
  )

/** CONTRACT.md §5: the attempt log, redeliver, replay, test events, and the event catalogue. */
export const deliveryHandlers = (ctx: RouteContext) =>
  ({
    listDeliveries: ({ principal, params, query }) =>
      Effect.gen(function* () {
        const webhook = yield* ctx.store.find(ctx.sql, orgOf(principal), params.id)
        let limit = 50
        if (query.limit !== undefined) {
          limit = Number(query.limit)
          if (limit < 1 || limit > 100) {
            return yield* invalidRequest("limit must be an integer from 1 to 100", [
              { path: "limit", message: "must be an integer from 1 to 100" },
            ])
          }
        }
        let after: { at: Date; seq: bigint } | undefined
        if (query.cursor !== undefined) {
          after = decodeCursor(query.cursor)
          if (after === undefined) {
            return yield* invalidRequest("cursor is not valid", [{ path: "cursor", message: "is not valid" }])
          }
        }
        const page = {
          limit,
          ...(after === undefined ? {} : { after }),
          ...(query.status === undefined ? {} : { status: query.status }),
        }
        return yield* Effect.promise(() => listAttempts(ctx.sql, ctx.schema, webhook.id, page))
      }),

    redeliver: ({ principal, params }) =>
      Effect.gen(function* () {
        const webhook = yield* ctx.store.find(ctx.sql, orgOf(principal), params.id)
        const delivery = yield* Effect.promise(() => findDelivery(ctx.sql, ctx.schema, webhook.id, params.deliveryId))
        if (delivery === undefined) return yield* notFound()
        const again = redeliveryOf(delivery, "redeliver")
        yield* queue([again.record])
        return { deliveryId: again.id }
      }),

    replayDeliveries: ({ principal, params, request }) =>
      Effect.gen(function* () {
        const webhook = yield* ctx.store.find(ctx.sql, orgOf(principal), params.id)
        const body = (request.body ?? {}) as Record<string, unknown>
        if (typeof body !== "object" || Array.isArray(body)) return yield* invalidRequest("body must be a JSON object")
        const since = yield* timeField(body, "since")
        if (since === undefined) {
          return yield* invalidRequest("since is required", [{ path: "since", message: "is required" }])
        }
        const givenUntil = yield* timeField(body, "until")
        // An empty window the caller wrote out is a mistake worth naming; a `since` still in the
        // future with no `until` is simply nothing to replay yet.
        if (givenUntil !== undefined && givenUntil.getTime() <= since.getTime()) {
          return yield* invalidRequest("until must be later than since", [
            { path: "until", message: "must be later than since" },
          ])
        }
        const until = givenUntil ?? new Date()
        if (body.status !== undefined && body.status !== "failed") {
          return yield* invalidRequest('status must be "failed"', [{ path: "status", message: 'must be "failed"' }])
        }
        const rows = yield* Effect.promise(() =>
          deliveriesToReplay(ctx.sql, ctx.schema, webhook.id, { since, until, failedOnly: body.status === "failed" }),
        )
        const records = rows.map((row) => redeliveryOf(row, "replay").record)
        yield* queue(records)
        return { queued: records.length }
      }),

    testWebhook: ({ principal, params, body }) =>
      Effect.gen(function* () {
        const webhook = yield* ctx.store.find(ctx.sql, orgOf(principal), params.id)
        const { event } = yield* body
        const test = testDeliveryOf(webhook, event)
        yield* queue([test.record])
        return { deliveryId: test.id }
      }),

    listWebhookEvents: () => Effect.succeed(catalogue),
  }) satisfies Partial<RegistryHandlers>
