import { OutboxWriter, type OutgoingRecord } from "@parley/bus"
import { EventCatalogue, isEventName } from "@parley/contracts"
import { withTransaction } from "@parley/db"
import { invalidRequest, notFound } from "@parley/platform"
import { Effect } from "effect"
import type { FastifyInstance, FastifyRequest } from "fastify"
import {
  decodeCursor,
  deliveriesToReplay,
  findDelivery,
  listAttempts,
  redeliveryOf,
  testDeliveryOf,
} from "../delivery-log.ts"
import { orgOf, type RouteContext, requireAdmin } from "./context.ts"

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

const timeField = (body: Record<string, unknown>, name: string): Date | undefined => {
  const value = body[name]
  if (value === undefined) return undefined
  if (typeof value !== "string" || !ISO.test(value) || Number.isNaN(Date.parse(value))) {
    throw invalidRequest(`${name} must be an ISO 8601 time`, [{ path: name, message: "must be an ISO 8601 time" }])
  }
  return new Date(value)
}

/** Queues deliveries for the dispatcher in one transaction: all of them reach the bus, or none. */
const queue = (ctx: RouteContext, records: ReadonlyArray<OutgoingRecord>) =>
  ctx.run(
    withTransaction((tx) =>
      Effect.gen(function* () {
        const outbox = yield* OutboxWriter
        for (let i = 0; i < records.length; i += 500) yield* outbox.append(tx, records.slice(i, i + 500))
      }),
    ),
  )

const paramsOf = (request: FastifyRequest) => request.params as { id: string; deliveryId?: string }

/** CONTRACT.md §5: the attempt log, redeliver, replay, test events, and the event catalogue. */
export const registerDeliveryRoutes = (app: FastifyInstance, ctx: RouteContext) => {
  app.get("/api/org/webhooks/:id/deliveries", async (request) => {
    const webhook = await ctx.run(ctx.store.find(ctx.sql, orgOf(request), paramsOf(request).id))
    const query = request.query as Record<string, unknown>
    let limit = 50
    if (query.limit !== undefined) {
      limit = Number(query.limit)
      if (typeof query.limit !== "string" || !/^\d+$/.test(query.limit) || limit < 1 || limit > 100) {
        throw invalidRequest("limit must be an integer from 1 to 100", [
          { path: "limit", message: "must be an integer from 1 to 100" },
        ])
      }
    }
    const status = query.status
    if (status !== undefined && status !== "success" && status !== "failed") {
      throw invalidRequest("status must be success or failed", [
        { path: "status", message: "must be success or failed" },
      ])
    }
    let after: { at: Date; seq: bigint } | undefined
    if (query.cursor !== undefined) {
      after = typeof query.cursor === "string" ? decodeCursor(query.cursor) : undefined
      if (after === undefined)
        throw invalidRequest("cursor is not valid", [{ path: "cursor", message: "is not valid" }])
    }
    return listAttempts(ctx.sql, ctx.schema, webhook.id, {
      limit,
      ...(after === undefined ? {} : { after }),
      ...(status === undefined ? {} : { status }),
    })
  })

  app.post(
    "/api/org/webhooks/:id/deliveries/:deliveryId/redeliver",
    { preHandler: requireAdmin },
    async (request, reply) => {
      const { id, deliveryId } = paramsOf(request)
      const webhook = await ctx.run(ctx.store.find(ctx.sql, orgOf(request), id))
      const delivery = await findDelivery(ctx.sql, ctx.schema, webhook.id, deliveryId ?? "")
      if (delivery === undefined) throw notFound()
      const again = redeliveryOf(delivery, "redeliver")
      await queue(ctx, [again.record])
      return reply.code(202).send({ deliveryId: again.id })
    },
  )

  app.post("/api/org/webhooks/:id/replay", { preHandler: requireAdmin }, async (request, reply) => {
    const webhook = await ctx.run(ctx.store.find(ctx.sql, orgOf(request), paramsOf(request).id))
    const body = (request.body ?? {}) as Record<string, unknown>
    if (typeof body !== "object" || Array.isArray(body)) throw invalidRequest("body must be a JSON object")
    const since = timeField(body, "since")
    if (since === undefined) throw invalidRequest("since is required", [{ path: "since", message: "is required" }])
    const givenUntil = timeField(body, "until")
    // An empty window the caller wrote out is a mistake worth naming; a `since` still in the
    // future with no `until` is simply nothing to replay yet.
    if (givenUntil !== undefined && givenUntil.getTime() <= since.getTime()) {
      throw invalidRequest("until must be later than since", [{ path: "until", message: "must be later than since" }])
    }
    const until = givenUntil ?? new Date()
    if (body.status !== undefined && body.status !== "failed") {
      throw invalidRequest('status must be "failed"', [{ path: "status", message: 'must be "failed"' }])
    }
    const rows = await deliveriesToReplay(ctx.sql, ctx.schema, webhook.id, {
      since,
      until,
      failedOnly: body.status === "failed",
    })
    const records = rows.map((row) => redeliveryOf(row, "replay").record)
    await queue(ctx, records)
    return reply.code(202).send({ queued: records.length })
  })

  app.post("/api/org/webhooks/:id/test", { preHandler: requireAdmin }, async (request, reply) => {
    const webhook = await ctx.run(ctx.store.find(ctx.sql, orgOf(request), paramsOf(request).id))
    const body = request.body ?? {}
    if (typeof body !== "object" || Array.isArray(body)) {
      throw invalidRequest("body must be a JSON object", [{ path: "", message: "must be a JSON object" }])
    }
    const event = (body as { event?: unknown }).event
    if (event === undefined) throw invalidRequest("event is required", [{ path: "event", message: "is required" }])
    if (typeof event !== "string" || !isEventName(event)) {
      const message = `is not an event of the catalogue (${EventCatalogue.map((entry) => entry.name).join(", ")})`
      throw invalidRequest(`event ${message}`, [{ path: "event", message }])
    }
    const test = testDeliveryOf(webhook, event)
    await queue(ctx, [test.record])
    return reply.code(202).send({ deliveryId: test.id })
  })

  app.get("/api/org/webhook-events", async () => ({
    data: EventCatalogue.map((entry) => ({
      name: entry.name,
      description: entry.description,
      channels: entry.channels,
      sample: entry.sample,
    })),
  }))
}
