import { OutboxWriter, type OutgoingRecord } from "@parley/bus"
import { normalizePhone } from "@parley/contracts"
import { withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Effect, Schema } from "effect"
import type postgres from "postgres"
import { channelInbound, messageInbound, messageStatus } from "../events.ts"
import { recordStatus } from "../messages/status.ts"
import { applyTemplateChange } from "../templates/provider-updates.ts"
import { CloudContact, CloudStatus, type CloudWebhookBody, inboundText, MessagesValue } from "./payload.ts"

/** What one accepted payload did, for the log and the tests. */
export interface IngestSummary {
  inbound: number
  statuses: number
  templateEvents: number
  ignored: number
}

/** What the event schemas accept as a phone (digits only); anything else is skipped, not fatal. */
const DIGITS = /^[0-9]{1,20}$/

const decodeMessages = Schema.decodeUnknownOption(MessagesValue)
const decodeContact = Schema.decodeUnknownOption(CloudContact)
const decodeStatus = Schema.decodeUnknownOption(CloudStatus)

/**
 * Applies one provider payload in ONE transaction: the stored rows and the outbox records commit
 * together, so answering 200 after this returns means nothing in it can be lost, and a redelivery
 * finds the unique rows already there and fires nothing again.
 */
export const ingestCloudPayload = (body: CloudWebhookBody, receivedAt: Date) =>
  Effect.gen(function* () {
    const outbox = yield* OutboxWriter
    return yield* withTransaction((tx) =>
      Effect.gen(function* () {
        const records: Array<OutgoingRecord> = []
        const summary: IngestSummary = { inbound: 0, statuses: 0, templateEvents: 0, ignored: 0 }
        for (const entry of body.entry) {
          for (const change of entry.changes) {
            if (change.field === "messages") {
              yield* ingestMessagesChange(tx, change.value, receivedAt, records, summary)
            } else {
              const fired = yield* applyTemplateChange(tx, entry.id, change.field, change.value, receivedAt)
              if (fired === undefined) summary.ignored++
              else {
                records.push(...fired)
                summary.templateEvents += fired.length
              }
            }
          }
        }
        if (records.length > 0) yield* outbox.append(tx, records)
        return summary
      }),
    )
  })

const ingestMessagesChange = (
  tx: postgres.TransactionSql,
  raw: unknown,
  receivedAt: Date,
  records: Array<OutgoingRecord>,
  summary: IngestSummary,
) =>
  Effect.gen(function* () {
    const decoded = decodeMessages(raw)
    if (decoded._tag === "None") {
      yield* Effect.logWarning("cloud webhook: a messages change without metadata.phone_number_id, ignored")
      summary.ignored++
      return
    }
    const value = decoded.value
    const phoneNumberId = value.metadata.phone_number_id
    const [channel] = yield* Effect.promise(
      () => tx<Array<{ org_id: string }>>`
        select org_id from messaging.channels where kind = 'cloud' and phone_number_id = ${phoneNumberId}`,
    )
    if (channel === undefined) {
      // 200 and ignore: an unknown number will never become known by retrying this payload.
      yield* Effect.logWarning("cloud webhook: unknown phone_number_id, ignored").pipe(
        Effect.annotateLogs({ phoneNumberId }),
      )
      summary.ignored++
      return
    }
    const orgId = channel.org_id
    const contacts = (value.contacts ?? []).flatMap((raw) => {
      const contact = decodeContact(raw)
      return contact._tag === "Some" ? [contact.value] : []
    })
    const names = new Map<string, string>()
    for (const contact of contacts) {
      if (contact.wa_id !== undefined) names.set(normalizePhone(contact.wa_id), contact.profile?.name ?? "")
    }
    // One contact and no wa_id to match by: the provider's usual single-sender payload.
    const fallbackName = contacts.length === 1 ? (contacts[0]?.profile?.name ?? "") : ""

    const rows: Array<{ id: string; phone: string; type: string; text: string; messageId: string; name: string }> = []
    for (const message of value.messages ?? []) {
      const { id, from, type } = message
      if (typeof id !== "string" || typeof from !== "string" || typeof type !== "string") {
        summary.ignored++
        continue
      }
      const phone = normalizePhone(from)
      if (!DIGITS.test(phone)) {
        yield* Effect.logWarning("cloud webhook: a message from something that is not a phone number, ignored")
        summary.ignored++
        continue
      }
      const text = inboundText(message)
      rows.push({ id: newId("msg"), phone, type, text, messageId: id, name: names.get(phone) ?? fallbackName })
    }
    if (rows.length > 0) {
      const inserted = yield* Effect.promise(
        () => tx<Array<{ provider_message_id: string }>>`
          insert into messaging.messages (id, org_id, channel, direction, phone, type, text, provider_message_id, status)
          select m.id, ${orgId}, 'cloud', 'inbound', m.phone, m.type, m.text, m.message_id, 'received'
          from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.phone)}::text[],
                      ${rows.map((r) => r.type)}::text[], ${rows.map((r) => r.text)}::text[],
                      ${rows.map((r) => r.messageId)}::text[]) as m(id, phone, type, text, message_id)
          on conflict (org_id, channel, provider_message_id) where direction = 'inbound' do nothing
          returning provider_message_id`,
      )
      const fresh = new Set(inserted.map((row) => row.provider_message_id))
      for (const row of rows) {
        // A payload may repeat one message id: only its first copy is new.
        if (!fresh.delete(row.messageId)) continue
        const data = { from: row.phone, name: row.name, type: row.type, text: row.text, messageId: row.messageId }
        records.push(messageInbound(orgId, data, receivedAt))
        records.push(
          channelInbound({ orgId: orgId as never, channel: "cloud", ...data, receivedAt: receivedAt.toISOString() }),
        )
        summary.inbound++
      }
    }

    for (const raw of value.statuses ?? []) {
      const decoded = decodeStatus(raw)
      if (decoded._tag === "None") {
        yield* Effect.logWarning("cloud webhook: a status without id, status or recipient_id, ignored")
        summary.ignored++
        continue
      }
      const status = decoded.value
      if (!DIGITS.test(normalizePhone(status.recipient_id))) {
        summary.ignored++
        continue
      }
      const fired = yield* recordStatus(tx, orgId, {
        messageId: status.id,
        status: status.status,
        recipient: normalizePhone(status.recipient_id),
      })
      if (fired) {
        records.push(
          messageStatus(
            orgId,
            { messageId: status.id, status: status.status as never, recipient: normalizePhone(status.recipient_id) },
            receivedAt,
          ),
        )
        summary.statuses++
      }
    }
  })
