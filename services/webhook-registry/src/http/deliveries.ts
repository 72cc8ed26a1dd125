import { OutboxWriter, type OutgoingRecord } from "@parley/bus"
import { EventCatalogue } from "@parley/contracts"
import { withTransaction } from "@parley/db"
import { Effect } from "effect"
import {
  decodeCursor,
  deliveriesToReplay,
  findAttempt,
  findDelivery,
  listAttempts,
  redeliveryOf,
  testDeliveryOf,
} from "../deliveries/delivery-log.ts"
import { EmptyReplayWindow, InvalidCursor, ResourceNotFound } from "../errors.ts"
import { WebhookStore } from "../webhooks/webhook-store.ts"
import type { RegistryHandlers, RouteContext } from "./context.ts"

/**
 * `GET /api/org/webhook-events`: the catalogue as it is, built and serialized once. It never changes
 * while the process runs, and serializing its ~2 kB on every call was 4–5 % of `npm start`'s CPU on
 * this, the cheapest authenticated route (test/bench/gateway, issue #28).
 */
const catalogueJson = JSON.stringify({
  data: EventCatalogue.map((entry) => ({
    name: entry.name,
    description: entry.description,
    channels: entry.channels,
    sample: entry.sample,
  })),
})

/** Queues deliveries for the dispatcher in one transaction: all of them reach the bus, or none. */
const queue = (records: ReadonlyArray<OutgoingRecord>) =>
  withTransaction((tx) =>
    Effect.gen(function* () {
      const outbox = yield* OutboxWriter
      for (let i = 0; i < records.length; i += 500) yield* outbox.append(tx, records.slice(i, i + 500))
    }),
  )

/** docs/contract.md §5: the attempt log, redeliver, replay, test events, and the event catalogue. */
export const deliveryHandlers = (ctx: RouteContext) =>
  ({
    listDeliveries: ({ principal, params, query }) =>
      Effect.gen(function* () {
        const webhook = yield* (yield* WebhookStore).find(principal.orgId, params.id)
        let after: { at: Date; seq: bigint } | undefined
        if (query.cursor !== undefined) {
          after = decodeCursor(query.cursor)
          if (after === undefined) return yield* new InvalidCursor()
        }
        const page = {
          limit: query.limit ?? 50,
          ...(after === undefined ? {} : { after }),
          ...(query.status === undefined ? {} : { status: query.status }),
        }
        return yield* Effect.promise(() => listAttempts(ctx.sql, ctx.schema, webhook.id, page))
      }),

    getDeliveryAttempt: ({ principal, params }) =>
      Effect.gen(function* () {
        const webhook = yield* (yield* WebhookStore).find(principal.orgId, params.id)
        const attempt = yield* Effect.promise(() =>
          findAttempt(ctx.sql, ctx.schema, webhook.id, params.deliveryId, Number(params.attempt)),
        )
        if (attempt === undefined) return yield* new ResourceNotFound()
        return attempt
      }),

    redeliver: ({ principal, params }) =>
      Effect.gen(function* () {
        const webhook = yield* (yield* WebhookStore).find(principal.orgId, params.id)
        const delivery = yield* Effect.promise(() => findDelivery(ctx.sql, ctx.schema, webhook.id, params.deliveryId))
        if (delivery === undefined) return yield* new ResourceNotFound()
        const again = redeliveryOf(delivery, "redeliver")
        yield* queue([again.record])
        return { deliveryId: again.id }
      }),

    replayDeliveries: ({ principal, params, body }) =>
      Effect.gen(function* () {
        const webhook = yield* (yield* WebhookStore).find(principal.orgId, params.id)
        const request = yield* body
        const since = new Date(request.since)
        const givenUntil = request.until === undefined ? undefined : new Date(request.until)
        // An empty window the caller wrote out is a mistake worth naming; a `since` still in the
        // future with no `until` is simply nothing to replay yet.
        if (givenUntil !== undefined && givenUntil.getTime() <= since.getTime()) return yield* new EmptyReplayWindow()
        const until = givenUntil ?? new Date()
        const rows = yield* Effect.promise(() =>
          deliveriesToReplay(ctx.sql, ctx.schema, webhook.id, {
            since,
            until,
            failedOnly: request.status === "failed",
          }),
        )
        const records = rows.map((row) => redeliveryOf(row, "replay").record)
        yield* queue(records)
        return { queued: records.length }
      }),

    testWebhook: ({ principal, params, body }) =>
      Effect.gen(function* () {
        const webhook = yield* (yield* WebhookStore).find(principal.orgId, params.id)
        const { event } = yield* body
        const test = testDeliveryOf(webhook, event)
        yield* queue([test.record])
        return { deliveryId: test.id }
      }),

    // A string answer is sent as it is once its type says JSON.
    listWebhookEvents: ({ reply }) => {
      reply.type("application/json; charset=utf-8")
      return Effect.succeed(catalogueJson)
    },
  }) satisfies Partial<RegistryHandlers>
