import { normalizePhone } from "@parley/contracts"
import { newId } from "@parley/platform"
import { Effect, Schema } from "effect"
import { CloudContact, CloudStatus, type CloudWebhookBody, inboundText, MessagesValue } from "../cloud/payload.ts"

/** A customer message as it will be stored, if its provider id is new. */
export interface InboundRow {
  readonly id: string
  readonly phone: string
  readonly type: string
  readonly text: string
  readonly messageId: string
  readonly name: string
}

/** A status the provider reported for a message sent from the number. */
export interface StatusReport {
  readonly messageId: string
  readonly status: string
  readonly recipient: string
}

/** One change of a payload, decoded: a number's messages and statuses, or a template update. */
export type CloudChange =
  | {
      readonly kind: "messages"
      readonly phoneNumberId: string
      readonly inbound: ReadonlyArray<InboundRow>
      readonly statuses: ReadonlyArray<StatusReport>
    }
  | { readonly kind: "template"; readonly businessAccountId: string; readonly field: string; readonly value: unknown }

/**
 * What one provider payload asks for, read before any database work (so a transaction never waits
 * on decoding): its changes in order, and how many parts were malformed and skipped.
 */
export interface CloudChanges {
  readonly receivedAt: Date
  readonly changes: ReadonlyArray<CloudChange>
  readonly ignored: number
}

/** What the event schemas accept as a phone (digits only); anything else is skipped, not fatal. */
const DIGITS = /^[0-9]{1,20}$/

const decodeMessages = Schema.decodeUnknownOption(MessagesValue)
const decodeContact = Schema.decodeUnknownOption(CloudContact)
const decodeStatus = Schema.decodeUnknownOption(CloudStatus)

/**
 * Reads a signature-checked, envelope-decoded payload into its changes. Each message, contact and
 * status is decoded on its own: a malformed one is logged and skipped, never fatal to the rest.
 */
export const readCloudChanges = (body: CloudWebhookBody, receivedAt: Date): Effect.Effect<CloudChanges> =>
  Effect.gen(function* () {
    const changes: Array<CloudChange> = []
    let ignored = 0
    for (const entry of body.entry) {
      for (const change of entry.changes) {
        if (change.field !== "messages") {
          changes.push({ kind: "template", businessAccountId: entry.id, field: change.field, value: change.value })
          continue
        }
        const decoded = decodeMessages(change.value)
        if (decoded._tag === "None") {
          yield* Effect.logWarning("cloud webhook: a messages change without metadata.phone_number_id, ignored")
          ignored++
          continue
        }
        const read = yield* readMessagesChange(decoded.value)
        ignored += read.ignored
        changes.push(read.change)
      }
    }
    return { receivedAt, changes, ignored }
  })

/**
 * The provider's message ids (`wamid.…`) are under 100 characters. One far longer, or with a control
 * character (NUL is already dropped at ingress), is no real message: it is ignored (logged, answered
 * 200 with the rest) rather than refused, since a refusal would have the provider retry it forever,
 * and rather than stored, since Postgres refuses an index row past ~2.7 KB (the 500 of issue #13).
 */
export const MaxProviderIdLength = 256
const isUsableProviderId = (id: string): boolean => {
  if (id.length === 0 || id.length > MaxProviderIdLength) return false
  for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) < 0x20 || id.charCodeAt(i) === 0x7f) return false
  return true
}

const readMessagesChange = (value: MessagesValue) =>
  Effect.gen(function* () {
    let ignored = 0
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

    const inbound: Array<InboundRow> = []
    for (const message of value.messages ?? []) {
      const { id, from, type } = message
      if (typeof id !== "string" || typeof from !== "string" || typeof type !== "string") {
        ignored++
        continue
      }
      if (!isUsableProviderId(id)) {
        yield* Effect.logWarning(
          "cloud webhook: a message whose id no provider sends (too long, or control characters), ignored",
        )
        ignored++
        continue
      }
      const phone = normalizePhone(from)
      if (!DIGITS.test(phone)) {
        yield* Effect.logWarning("cloud webhook: a message from something that is not a phone number, ignored")
        ignored++
        continue
      }
      const text = inboundText(message)
      inbound.push({ id: newId("msg"), phone, type, text, messageId: id, name: names.get(phone) ?? fallbackName })
    }

    const statuses: Array<StatusReport> = []
    for (const raw of value.statuses ?? []) {
      const decoded = decodeStatus(raw)
      if (decoded._tag === "None") {
        yield* Effect.logWarning("cloud webhook: a status without id, status or recipient_id, ignored")
        ignored++
        continue
      }
      if (!isUsableProviderId(decoded.value.id)) {
        yield* Effect.logWarning("cloud webhook: a status whose message id no provider sends, ignored")
        ignored++
        continue
      }
      const recipient = normalizePhone(decoded.value.recipient_id)
      if (!DIGITS.test(recipient)) {
        ignored++
        continue
      }
      statuses.push({ messageId: decoded.value.id, status: decoded.value.status, recipient })
    }
    const change: CloudChange = { kind: "messages", phoneNumberId: value.metadata.phone_number_id, inbound, statuses }
    return { change, ignored }
  })
