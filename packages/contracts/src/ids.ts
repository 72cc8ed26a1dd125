import { Schema } from "effect"

/**
 * Identifiers are opaque `<prefix>_<base62>` strings (docs/contract.md §1); `newId` in
 * `@parley/platform` makes 22 characters (128 bits). The schemas accept 16–64 base62 characters so
 * that ids of any generation decode, and brand them per prefix so an `OrgId` cannot be passed where
 * a `WebhookId` is wanted.
 */
export const IdPrefixes = {
  org: "org",
  usr: "usr",
  key: "key",
  wh: "wh",
  dlv: "dlv",
  lead: "lead",
  bkg: "bkg",
  cmp: "cmp",
  tpl: "tpl",
  ses: "ses",
  cnv: "cnv",
  msg: "msg",
  med: "med",
  evt: "evt",
} as const
export type IdPrefix = keyof typeof IdPrefixes

/** A string shaped like an id of this prefix (unbranded; each id schema below adds its brand). */
export const idString = (prefix: IdPrefix) =>
  Schema.String.check(
    Schema.isPattern(new RegExp(`^${prefix}_[0-9A-Za-z]{16,64}$`, "u"), { expected: `an id ${prefix}_…` }),
  )

export const OrgId = idString("org").pipe(Schema.brand("OrgId"))
export type OrgId = typeof OrgId.Type
export const UserId = idString("usr").pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type
export const KeyId = idString("key").pipe(Schema.brand("KeyId"))
export type KeyId = typeof KeyId.Type
export const WebhookId = idString("wh").pipe(Schema.brand("WebhookId"))
export type WebhookId = typeof WebhookId.Type
export const DeliveryId = idString("dlv").pipe(Schema.brand("DeliveryId"))
export type DeliveryId = typeof DeliveryId.Type
export const LeadId = idString("lead").pipe(Schema.brand("LeadId"))
export type LeadId = typeof LeadId.Type
export const BookingId = idString("bkg").pipe(Schema.brand("BookingId"))
export type BookingId = typeof BookingId.Type
export const CampaignId = idString("cmp").pipe(Schema.brand("CampaignId"))
export type CampaignId = typeof CampaignId.Type
export const TemplateId = idString("tpl").pipe(Schema.brand("TemplateId"))
export type TemplateId = typeof TemplateId.Type
export const SessionId = idString("ses").pipe(Schema.brand("SessionId"))
export type SessionId = typeof SessionId.Type
export const MessageId = idString("msg").pipe(Schema.brand("MessageId"))
export type MessageId = typeof MessageId.Type
export const MediaId = idString("med").pipe(Schema.brand("MediaId"))
export type MediaId = typeof MediaId.Type
export const EventId = idString("evt").pipe(Schema.brand("EventId"))
export type EventId = typeof EventId.Type
