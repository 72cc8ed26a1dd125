import { OutboxWriter, type OutgoingRecord } from "@parley/bus"
import { type BridgeInboundRequest, type BridgeStatusRequest, normalizePhone, type OrgId } from "@parley/contracts"
import { withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Effect } from "effect"
import { channelInbound, messageInbound, messageStatus } from "../bus/events.ts"
import { applyOptOutKeyword, optOutKeyword } from "../contacts/opt-outs.ts"
import { recordStatus } from "../messages/status.ts"

/**
 * The bridge's posts, each in one transaction with its events, deduplicated exactly like the cloud
 * channel's: a message by (organization, channel, messageId), a status by (messageId, status).
 * Answers whether something new was recorded.
 */
export const ingestBridgeMessage = (orgId: OrgId, body: BridgeInboundRequest, receivedAt: Date) =>
  Effect.gen(function* () {
    const outbox = yield* OutboxWriter
    return yield* withTransaction((tx) =>
      Effect.gen(function* () {
        const from = normalizePhone(body.from)
        const text = body.text ?? ""
        const inserted = yield* Effect.promise(
          () => tx`
            insert into messaging.messages
              (id, org_id, channel, direction, phone, type, text, provider_message_id, status)
            values (${newId("msg")}, ${orgId}, 'bridge', 'inbound', ${from}, ${body.type}, ${text}, ${body.messageId}, 'received')
            on conflict (org_id, channel, provider_message_id) where direction = 'inbound' do nothing
            returning id`,
        )
        if (inserted.length === 0) return false
        const data = { from, name: body.name ?? "", type: body.type, text, messageId: body.messageId }
        const keyword = optOutKeyword(text)
        const records: Array<OutgoingRecord> = [
          messageInbound(orgId, data, receivedAt),
          ...(keyword === undefined
            ? [
                channelInbound({
                  orgId,
                  channel: "bridge",
                  ...data,
                  receivedAt: receivedAt.toISOString(),
                }),
              ]
            : yield* applyOptOutKeyword(tx, keyword, {
                orgId,
                channel: "bridge",
                phone: from,
                messageId: body.messageId,
              })),
        ]
        yield* outbox.append(tx, records)
        return true
      }),
    )
  })

/**
 * A status the bridge reports for a message the organization sent through it: `new` fires
 * `message.status`, `seen` (a redelivery) fires nothing; `unknown` — an id Parley never sent on this
 * organization's bridge, another organization's included — records and fires nothing (the route's 404).
 */
export const ingestBridgeStatus = (orgId: OrgId, body: BridgeStatusRequest, receivedAt: Date) =>
  Effect.gen(function* () {
    const outbox = yield* OutboxWriter
    return yield* withTransaction((tx) =>
      Effect.gen(function* () {
        const recipient = normalizePhone(body.recipient)
        const report = { messageId: body.messageId, status: body.status, recipient }
        const outcome = yield* recordStatus(tx, orgId, "bridge", report)
        if (outcome === "new") yield* outbox.append(tx, [messageStatus(orgId, report, receivedAt)])
        return outcome
      }),
    )
  })
