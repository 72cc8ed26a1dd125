import { Schema } from "effect"

/**
 * The bodies of the messaging part of the private API (CONTRACT.md §9) and of the bridge channel's
 * ingress (§10.2). Phone numbers are accepted in any human form here ("+1 (415) 555-0100"); the
 * messaging service normalises them to digits before anything is stored or sent.
 */

const NonEmpty = (max: number) =>
  Schema.String.check(Schema.isMinLength(1, { expected: "a non-empty string" }), Schema.isMaxLength(max))

/** A phone number as a person may type it: 7–15 digits, with an optional `+`, spaces, dashes, dots or parentheses. */
export const PhoneInput = Schema.String.check(
  Schema.makeFilter(
    (s: string) => /^\+?[0-9 ().-]{7,30}$/.test(s.trim()) && /^[0-9]{7,15}$/.test(s.replace(/[^0-9]/g, "")),
    { expected: "a phone number of 7–15 digits (+1 415 555 0100)" },
  ),
)

export const ChannelKind = Schema.Literals(["cloud", "bridge"])
export type ChannelKind = typeof ChannelKind.Type

export const PutCloudChannelBody = Schema.Struct({
  phoneNumberId: NonEmpty(64).check(Schema.isPattern(/^[0-9]+$/, { expected: "the provider's numeric id" })),
  businessAccountId: NonEmpty(64).check(Schema.isPattern(/^[0-9]+$/, { expected: "the provider's numeric id" })),
  accessToken: NonEmpty(4096),
})
export type PutCloudChannelBody = typeof PutCloudChannelBody.Type

export const PutBridgeChannelBody = Schema.Struct({ outboundUrl: NonEmpty(2048) })
export type PutBridgeChannelBody = typeof PutBridgeChannelBody.Type

/** A channel as the API shows it; the cloud access token and the bridge token's digest never leave. */
export const Channel = Schema.Struct({
  id: Schema.String,
  type: ChannelKind,
  phoneNumberId: Schema.NullOr(Schema.String),
  businessAccountId: Schema.NullOr(Schema.String),
  outboundUrl: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type Channel = typeof Channel.Type

export const TemplateRef = Schema.Struct({
  name: NonEmpty(512),
  language: NonEmpty(16),
})

export const SendTextBody = Schema.Struct({
  to: PhoneInput,
  channel: Schema.optionalKey(ChannelKind),
  text: NonEmpty(4096),
})
export const SendTemplateBody = Schema.Struct({
  to: PhoneInput,
  channel: Schema.optionalKey(Schema.Literal("cloud")),
  template: Schema.Struct({
    name: NonEmpty(512),
    language: NonEmpty(16),
    variables: Schema.optionalKey(
      Schema.Array(Schema.String.check(Schema.isMaxLength(1024))).check(Schema.isMaxLength(100)),
    ),
  }),
})
export const SendMessageBody = Schema.Union([SendTextBody, SendTemplateBody])
export type SendMessageBody = typeof SendMessageBody.Type

export const SendMessageResponse = Schema.Struct({
  id: Schema.String,
  messageId: Schema.String,
  status: Schema.Literal("sent"),
})

export const MessageStatus = Schema.Literals(["pending", "sent", "delivered", "read", "failed"])

export const Message = Schema.Struct({
  id: Schema.String,
  channel: ChannelKind,
  direction: Schema.Literals(["inbound", "outbound"]),
  phone: Schema.String,
  type: Schema.String,
  text: Schema.String,
  messageId: Schema.NullOr(Schema.String),
  status: Schema.String,
  error: Schema.NullOr(Schema.String),
  campaignId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type Message = typeof Message.Type

const LimitParam = Schema.optionalKey(
  Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })),
)

export const ListMessagesQuery = Schema.Struct({
  phone: Schema.optionalKey(PhoneInput),
  limit: LimitParam,
  cursor: Schema.optionalKey(NonEmpty(200)),
})
export const ListQuery = Schema.Struct({ limit: LimitParam, cursor: Schema.optionalKey(NonEmpty(200)) })

export const TemplateCategory = Schema.Literals(["MARKETING", "UTILITY", "AUTHENTICATION"])

export const CreateTemplateBody = Schema.Struct({
  /** The provider's rule: lowercase letters, digits and underscores. */
  name: NonEmpty(512).check(Schema.isPattern(/^[a-z0-9_]+$/, { expected: "lowercase letters, digits and _" })),
  language: NonEmpty(16).check(
    Schema.isPattern(/^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$/, { expected: "a language code (en_US)" }),
  ),
  category: TemplateCategory,
  components: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)).check(
    Schema.isMinLength(1),
    Schema.isMaxLength(20),
  ),
})
export type CreateTemplateBody = typeof CreateTemplateBody.Type

export const Template = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  language: Schema.String,
  category: Schema.String,
  status: Schema.String,
  qualityScore: Schema.NullOr(Schema.String),
  metaTemplateId: Schema.NullOr(Schema.String),
  reason: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type Template = typeof Template.Type

export const CreateCampaignBody = Schema.Struct({
  name: NonEmpty(200),
  template: TemplateRef,
  recipients: Schema.Array(PhoneInput).check(
    Schema.isMinLength(1, { expected: "at least 1 recipient" }),
    Schema.isMaxLength(100_000, { expected: "at most 100000 recipients" }),
  ),
})
export type CreateCampaignBody = typeof CreateCampaignBody.Type

export const Campaign = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: Schema.Literals(["running", "completed"]),
  totalRecipients: Schema.Number,
  sent: Schema.Number,
  failed: Schema.Number,
  completedAt: Schema.NullOr(Schema.String),
})
export type Campaign = typeof Campaign.Type

export const ContactsImportResult = Schema.Struct({
  imported: Schema.Number,
  skipped: Schema.Number,
  errors: Schema.Array(Schema.Struct({ line: Schema.Number, error: Schema.String })),
})

export const Contact = Schema.Struct({
  id: Schema.String,
  phone: Schema.String,
  name: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String,
})

export const Media = Schema.Struct({
  id: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
  sha256: Schema.String,
})

/** `POST /channels/bridge/inbound` (§10.2). */
export const BridgeInboundBody = Schema.Struct({
  from: PhoneInput,
  name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(256))),
  type: NonEmpty(32),
  text: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(65_536))),
  messageId: NonEmpty(256),
})
export type BridgeInboundBody = typeof BridgeInboundBody.Type

/** `POST /channels/bridge/status` (§10.2). */
export const BridgeStatusBody = Schema.Struct({
  messageId: NonEmpty(256),
  status: Schema.Literals(["sent", "delivered", "read", "failed"]),
  recipient: PhoneInput,
})
export type BridgeStatusBody = typeof BridgeStatusBody.Type
