import { OutboxWriter, type OutgoingRecord } from "@parley/bus"
import type { OrgId } from "@parley/contracts"
import { type GroupCommit, makeGroupCommit } from "@parley/db"
import { Context, Effect, Layer } from "effect"
import type postgres from "postgres"
import { channelInbound, messageInbound, messageStatus } from "../bus/events.ts"
import { applyOptOutKeyword, optOutKeyword } from "../contacts/opt-outs.ts"
import { isReportedStatus, recordStatus } from "../messages/status.ts"
import { MessagingMetrics } from "../metrics.ts"
import { applyTemplateChange } from "../templates/provider-updates.ts"
import type { CloudChanges, InboundRow } from "./cloud-changes.ts"

/** What one accepted payload did, for the log, the counters and the tests. */
export interface IngestSummary {
  inbound: number
  statuses: number
  templateEvents: number
  ignored: number
}

/**
 * Most payloads per transaction. At the provider's 1,000 deliveries/s per number a batch of this
 * size is ~0.1 s of traffic, and its one multi-row insert stays small.
 */
export const CLOUD_INGRESS_MAX_BATCH = 100

/**
 * Where the webhook route (and the sandbox) hands in provider payloads — the cloud webhook's group
 * commit, the one service in front of this folder's hot path (README.md): concurrent payloads share
 * one transaction (one commit, one fsync) while each request is answered only after the transaction
 * holding its payload committed. A batch that fails is retried payload by payload, so one bad
 * payload fails alone, with the error it would have had by itself.
 */
export class CloudIngress extends Context.Service<CloudIngress, GroupCommit<CloudChanges, IngestSummary, never>>()(
  "@parley/messaging/CloudIngress",
) {
  /** Payloads handed in before the Layer's scope closes all get their answer. */
  static readonly layer = Layer.effect(
    CloudIngress,
    Effect.gen(function* () {
      const metrics = yield* MessagingMetrics
      return CloudIngress.of(
        yield* makeGroupCommit(ingestCloudPayloads, {
          maxBatch: CLOUD_INGRESS_MAX_BATCH,
          onBatch: ({ size, committed }) =>
            metrics.cloudIngressBatch.observe({ outcome: committed ? "committed" : "rolled_back" }, size),
        }),
      )
    }),
  )
}

const key = (orgId: OrgId, messageId: string) => `${orgId}\n${messageId}`

/**
 * Applies provider payloads in the caller's transaction: the stored rows and the outbox records
 * commit together, so answering 200 after the commit means nothing in them can be lost, and a
 * redelivery — earlier, or in this very batch — finds the unique rows already there and fires
 * nothing again. The effect is that of applying the payloads one after another, in order: records
 * are appended in payload order and a message id fires only from its first copy. Inbound messages
 * of the whole batch are stored by one insert; statuses and template updates row by row.
 */
export const ingestCloudPayloads = (tx: postgres.TransactionSql, payloads: ReadonlyArray<CloudChanges>) =>
  Effect.gen(function* () {
    const outbox = yield* OutboxWriter
    const summaries: Array<IngestSummary> = payloads.map((payload) => ({
      inbound: 0,
      statuses: 0,
      templateEvents: 0,
      ignored: payload.ignored,
    }))

    const phoneNumberIds = new Set<string>()
    for (const payload of payloads) {
      for (const change of payload.changes) if (change.kind === "messages") phoneNumberIds.add(change.phoneNumberId)
    }
    const orgOf = new Map<string, OrgId>()
    // Sandbox numbers' messages are marked so in the API's lists (docs/contract.md §16), nowhere else.
    const sandboxNumbers = new Set<string>()
    if (phoneNumberIds.size > 0) {
      const channels = yield* Effect.promise(
        () => tx<Array<{ phone_number_id: string; org_id: OrgId; sandbox: boolean }>>`
          select phone_number_id, org_id, sandbox from messaging.channels
          where kind = 'cloud' and phone_number_id = any(${[...phoneNumberIds]}::text[])`,
      )
      for (const channel of channels) {
        orgOf.set(channel.phone_number_id, channel.org_id)
        if (channel.sandbox) sandboxNumbers.add(channel.phone_number_id)
      }
    }

    const rows: Array<InboundRow & { orgId: OrgId; sandbox: boolean }> = []
    for (const payload of payloads) {
      for (const change of payload.changes) {
        const orgId = change.kind === "messages" ? orgOf.get(change.phoneNumberId) : undefined
        if (orgId !== undefined && change.kind === "messages")
          for (const row of change.inbound)
            rows.push({ ...row, orgId, sandbox: sandboxNumbers.has(change.phoneNumberId) })
      }
    }
    const fresh = yield* insertInbound(tx, rows)

    const records: Array<OutgoingRecord> = []
    for (const [i, payload] of payloads.entries()) {
      const summary = summaries[i] as IngestSummary
      const at = payload.receivedAt
      for (const change of payload.changes) {
        if (change.kind === "template") {
          const fired = yield* applyTemplateChange(tx, change.businessAccountId, change.field, change.value, at)
          if (fired === undefined) summary.ignored++
          else {
            records.push(...fired)
            summary.templateEvents += fired.length
          }
          continue
        }
        const orgId = orgOf.get(change.phoneNumberId)
        if (orgId === undefined) {
          // 200 and ignore: an unknown number will never become known by retrying this payload.
          yield* Effect.logWarning("cloud webhook: unknown phone_number_id, ignored").pipe(
            Effect.annotateLogs({ phoneNumberId: change.phoneNumberId }),
          )
          summary.ignored++
          continue
        }
        for (const row of change.inbound) {
          // Only the first copy of a message id is new, whichever payload of the batch carried it.
          if (!fresh.delete(key(orgId, row.messageId))) continue
          const data = { from: row.phone, name: row.name, type: row.type, text: row.text, messageId: row.messageId }
          records.push(messageInbound(orgId, data, at))
          const keyword = optOutKeyword(row.text)
          if (keyword !== undefined) {
            const message = { orgId, channel: "cloud" as const, phone: row.phone, messageId: row.messageId }
            records.push(...(yield* applyOptOutKeyword(tx, keyword, message)))
          } else {
            records.push(channelInbound({ orgId, channel: "cloud", ...data, receivedAt: at.toISOString() }))
          }
          summary.inbound++
        }
        for (const { status, ...report } of change.statuses) {
          // A status for a message not sent through Parley fires nothing (docs/contract.md §7).
          if (!isReportedStatus(status) || (yield* recordStatus(tx, orgId, "cloud", { ...report, status })) !== "new")
            continue
          records.push(messageStatus(orgId, { ...report, status }, at))
          summary.statuses++
        }
      }
    }
    // Last: with the single-node bus an append holds its partition's counter until commit.
    if (records.length > 0) yield* outbox.append(tx, records)
    return summaries
  })

/** Stores the rows whose (organization, provider id) is new; answers those keys. */
const insertInbound = (
  tx: postgres.TransactionSql,
  rows: ReadonlyArray<InboundRow & { orgId: OrgId; sandbox: boolean }>,
) =>
  Effect.gen(function* () {
    if (rows.length === 0) return new Set<string>()
    const inserted = yield* Effect.promise(
      () => tx<Array<{ org_id: OrgId; provider_message_id: string }>>`
        insert into messaging.messages
          (id, org_id, channel, direction, phone, type, text, provider_message_id, status, sandbox)
        select m.id, m.org_id, 'cloud', 'inbound', m.phone, m.type, m.text, m.message_id, 'received', m.sandbox
        from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.orgId)}::text[],
                    ${rows.map((r) => r.phone)}::text[], ${rows.map((r) => r.type)}::text[],
                    ${rows.map((r) => r.text)}::text[], ${rows.map((r) => r.messageId)}::text[],
                    ${rows.map((r) => (r.sandbox ? "t" : "f"))}::text[]::boolean[])
             as m(id, org_id, phone, type, text, message_id, sandbox)
        on conflict (org_id, channel, provider_message_id) where direction = 'inbound' do nothing
        returning org_id, provider_message_id`,
    )
    return new Set(inserted.map((row) => key(row.org_id, row.provider_message_id)))
  })
