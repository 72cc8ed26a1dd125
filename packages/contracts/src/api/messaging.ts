import { Schema } from "effect"
import { ChannelKind } from "../bus/channel.ts"
import { PageCursor, PageLimit } from "./page-limit.ts"

/**
 * The bodies of the messaging part of the private API (docs/contract.md §9) and of the bridge channel's
 * ingress (§10.2). Phone numbers are accepted in any human form here ("+1 (415) 555-0100"); the
 * messaging service normalises them to digits before anything is stored or sent.
 */

const NonEmpty = (max: number) =>
  Schema.String.check(Schema.isMinLength(1, { expected: "a non-empty string" }), Schema.isMaxLength(max))

/** A phone number as a person may type it: 7–15 digits, with an optional `+`, spaces, dashes, dots or parentheses. */
export const HumanPhoneNumber = Schema.String.check(
  Schema.makeFilter(
    (s: string) => /^\+?[0-9 ().-]{7,30}$/.test(s.trim()) && /^[0-9]{7,15}$/.test(s.replace(/[^0-9]/g, "")),
    { expected: "a phone number of 7–15 digits (+1 415 555 0100)" },
  ),
)

export const PutRealCloudChannelRequest = Schema.Struct({
  phoneNumberId: NonEmpty(64).check(Schema.isPattern(/^[0-9]+$/u, { expected: "the provider's numeric id" })),
  businessAccountId: NonEmpty(64).check(Schema.isPattern(/^[0-9]+$/u, { expected: "the provider's numeric id" })),
  // Sent as `Authorization: Bearer <token>`: anything a header cannot carry would fail every later send.
  accessToken: NonEmpty(4096).check(
    Schema.isPattern(/^[\x21-\x7E]+$/u, { expected: "the provider's access token (visible ASCII, no spaces)" }),
  ),
})
/** docs/contract.md §16: a sandbox cloud channel, in which Parley plays the provider (no account, no token). */
export const PutSandboxCloudChannelRequest = Schema.Struct({ sandbox: Schema.Literal(true) })
export const PutCloudChannelRequest = Schema.Union([PutSandboxCloudChannelRequest, PutRealCloudChannelRequest])
export type PutCloudChannelRequest = typeof PutCloudChannelRequest.Type

export const PutBridgeChannelRequest = Schema.Struct({ outboundUrl: NonEmpty(2048) })
export type PutBridgeChannelRequest = typeof PutBridgeChannelRequest.Type

/** A channel as the API shows it; the cloud access token and the bridge token's digest never leave. */
export const ChannelRecord = Schema.Struct({
  id: Schema.String,
  type: ChannelKind,
  phoneNumberId: Schema.NullOr(Schema.String),
  businessAccountId: Schema.NullOr(Schema.String),
  outboundUrl: Schema.NullOr(Schema.String),
  /** A cloud channel in which Parley plays the provider (docs/contract.md §16); `false` otherwise. */
  sandbox: Schema.Boolean,
  /**
   * `connected` once the provider confirmed the token can read the number (§10.1), for a sandbox and
   * a bridge at once; `unverified` for a cloud channel stored before connections were verified.
   */
  status: Schema.Literals(["connected", "unverified"]),
  /** The number customers write to, as the provider shows it; `null` when unknown. */
  displayPhoneNumber: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type ChannelRecord = typeof ChannelRecord.Type

export const CampaignTemplateRef = Schema.Struct({
  name: NonEmpty(512),
  language: NonEmpty(16),
})

/**
 * A key the other shape of `POST /api/messages` owns: a message is a text or a template, never both
 * (docs/contract.md §9), so a body with both is a 400 naming them rather than one silently dropped.
 */
const OtherShapesKey = (other: "text" | "template") =>
  Schema.optionalKey(
    Schema.Never.annotate({ message: `not allowed with ${other}: a message is a text or a template, not both` }),
  )

export const SendTextMessageRequest = Schema.Struct({
  to: HumanPhoneNumber,
  channel: Schema.optionalKey(ChannelKind),
  text: NonEmpty(4096),
  template: OtherShapesKey("text"),
})
export const SendTemplateMessageRequest = Schema.Struct({
  to: HumanPhoneNumber,
  channel: Schema.optionalKey(Schema.Literal("cloud")),
  text: OtherShapesKey("template"),
  template: Schema.Struct({
    name: NonEmpty(512),
    language: NonEmpty(16),
    variables: Schema.optionalKey(
      Schema.Array(Schema.String.check(Schema.isMaxLength(1024))).check(Schema.isMaxLength(100)),
    ),
  }),
})
export const SendMessageRequest = Schema.Union([SendTextMessageRequest, SendTemplateMessageRequest])
export type SendMessageRequest = typeof SendMessageRequest.Type

export const SendMessageResponse = Schema.Struct({
  id: Schema.String,
  messageId: Schema.String,
  status: Schema.Literal("sent"),
})

export const StoredMessageStatus = Schema.Literals(["pending", "sent", "delivered", "read", "failed"])

export const MessageRecord = Schema.Struct({
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
  /** A customer message of a sandbox channel (docs/contract.md §16): `true`; never in webhook payloads. */
  sandbox: Schema.Boolean,
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type MessageRecord = typeof MessageRecord.Type

const LimitParam = Schema.optionalKey(PageLimit)

export const ListMessagesQuery = Schema.Struct({
  phone: Schema.optionalKey(HumanPhoneNumber),
  limit: LimitParam,
  cursor: Schema.optionalKey(PageCursor),
})
export const ListContactsQuery = Schema.Struct({ limit: LimitParam, cursor: Schema.optionalKey(PageCursor) })
export const ListCampaignsQuery = ListContactsQuery
export const ListOptOutsQuery = ListContactsQuery

export const TemplateCategoryName = Schema.Literals(["MARKETING", "UTILITY", "AUTHENTICATION"])

export const CreateTemplateRequest = Schema.Struct({
  /** The provider's rule: lowercase letters, digits and underscores. */
  name: NonEmpty(512).check(Schema.isPattern(/^[a-z0-9_]+$/u, { expected: "lowercase letters, digits and _" })),
  language: NonEmpty(16).check(
    Schema.isPattern(/^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$/u, { expected: "a language code (en_US)" }),
  ),
  category: TemplateCategoryName,
  components: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)).check(
    Schema.isMinLength(1),
    Schema.isMaxLength(20),
  ),
})
export type CreateTemplateRequest = typeof CreateTemplateRequest.Type

export const TemplateRecord = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  language: Schema.String,
  category: Schema.String,
  status: Schema.String,
  qualityScore: Schema.NullOr(Schema.String),
  metaTemplateId: Schema.NullOr(Schema.String),
  reason: Schema.String,
  /** As submitted: the body's `{{1}}`…`{{n}}` are the variables a send must give. */
  components: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)),
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type TemplateRecord = typeof TemplateRecord.Type

/**
 * A template body's values (`{{1}}`…`{{n}}`, in order), sent as the provider's body parameters.
 * The provider takes at most 1,024 characters per value.
 */
export const TemplateVariables = Schema.Array(Schema.String.check(Schema.isMaxLength(1024))).check(
  Schema.isMaxLength(100),
)

/**
 * One campaign recipient: a number as written (read with the organization's country), or the
 * number with its own template variables. A number that cannot be read is listed in `invalid`,
 * not refused with the request, so one bad line of a pasted list does not stop the rest.
 */
export const CampaignRecipient = Schema.Union([
  Schema.String.check(Schema.isMaxLength(64)),
  Schema.Struct({
    phone: Schema.String.check(Schema.isMaxLength(64)),
    variables: Schema.optionalKey(TemplateVariables),
  }),
])
export type CampaignRecipient = typeof CampaignRecipient.Type

export const CreateCampaignRequest = Schema.Struct({
  name: NonEmpty(200),
  template: CampaignTemplateRef,
  recipients: Schema.Array(CampaignRecipient).check(
    Schema.isMinLength(1, { expected: "at least 1 recipient" }),
    Schema.isMaxLength(100_000, { expected: "at most 100000 recipients" }),
  ),
  /** Count and check only: nothing is stored or sent (answered 200). */
  dryRun: Schema.optionalKey(Schema.Boolean),
})
export type CreateCampaignRequest = typeof CreateCampaignRequest.Type

export const InvalidRecipient = Schema.Struct({
  /** 0-based, into the request's `recipients`. */
  index: Schema.Number,
  input: Schema.String,
  error: Schema.String,
})

/** What a campaign's creation (or its dry run) found in the list. */
export const CampaignCounts = Schema.Struct({
  /** Distinct readable numbers, opted-out ones left out: who will be sent to. */
  totalRecipients: Schema.Number,
  invalid: Schema.Array(InvalidRecipient),
  /** Repeats of a number already in the list (each sent once). */
  duplicates: Schema.Number,
  /** Numbers left out because their owner opted out. */
  optedOut: Schema.Number,
})
export type CampaignCounts = typeof CampaignCounts.Type

export const CampaignTemplate = Schema.Struct({ name: Schema.String, language: Schema.String })

export const CampaignRecord = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  template: CampaignTemplate,
  status: Schema.Literals(["running", "completed"]),
  totalRecipients: Schema.Number,
  sent: Schema.Number,
  failed: Schema.Number,
  createdAt: Schema.String,
  completedAt: Schema.NullOr(Schema.String),
})
export type CampaignRecord = typeof CampaignRecord.Type

export const CampaignRecipientStatus = Schema.Literals(["pending", "sent", "failed"])
export const ListCampaignRecipientsQuery = Schema.Struct({
  status: Schema.optionalKey(CampaignRecipientStatus),
  limit: LimitParam,
  cursor: Schema.optionalKey(PageCursor),
})

export const CampaignRecipientRecord = Schema.Struct({
  phone: Schema.String,
  status: CampaignRecipientStatus,
  /** The provider's message id once sent. */
  messageId: Schema.NullOr(Schema.String),
  /** Why it failed: the provider's code and message, `opted_out`, or an unknown outcome. */
  error: Schema.NullOr(Schema.String),
})
export type CampaignRecipientRecord = typeof CampaignRecipientRecord.Type

export const OptOutRecord = Schema.Struct({
  phone: Schema.String,
  optedOutAt: Schema.String,
  /** `keyword` (the customer wrote a stop word). */
  source: Schema.String,
})
export type OptOutRecord = typeof OptOutRecord.Type

/** `:phone` of `DELETE /api/contacts/opt-outs/:phone`: international digits. */
export const PhoneDigitsParam = Schema.String.check(
  Schema.isPattern(/^[0-9]{7,15}$/u, { expected: "international digits (14155550100)" }),
)

export const ImportContactsResponse = Schema.Struct({
  imported: Schema.Number,
  skipped: Schema.Number,
  errors: Schema.Array(Schema.Struct({ line: Schema.Number, error: Schema.String })),
})

export const ContactRecord = Schema.Struct({
  id: Schema.String,
  phone: Schema.String,
  name: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type ContactRecord = typeof ContactRecord.Type

export const MediaRecord = Schema.Struct({
  id: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
  sha256: Schema.String,
})
export type MediaRecord = typeof MediaRecord.Type

/** `POST /channels/bridge/inbound` (§10.2). */
export const BridgeInboundRequest = Schema.Struct({
  from: HumanPhoneNumber,
  name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(256))),
  type: NonEmpty(32),
  text: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(65_536))),
  messageId: NonEmpty(256),
})
export type BridgeInboundRequest = typeof BridgeInboundRequest.Type

/** `POST /channels/bridge/status` (§10.2). */
export const BridgeStatusRequest = Schema.Struct({
  messageId: NonEmpty(256),
  status: Schema.Literals(["sent", "delivered", "read", "failed"]),
  recipient: HumanPhoneNumber,
})
export type BridgeStatusRequest = typeof BridgeStatusRequest.Type

/** The `:id` of `GET /api/campaigns/:id`: any id up to 100 characters (a longer one names no campaign). */
export const CampaignIdParam = Schema.String.check(Schema.isMaxLength(100))

const page = <S extends Schema.Top>(record: S) =>
  Schema.Struct({ data: Schema.Array(record), nextCursor: Schema.NullOr(Schema.String) })

export const ListChannelsResponse = Schema.Struct({
  data: Schema.Array(ChannelRecord),
  /** What to paste into the provider's app settings (docs/contract.md §10.1). */
  cloudWebhook: Schema.Struct({
    callbackUrl: Schema.String,
    /** `PARLEY_CLOUD_VERIFY_TOKEN`; `null` when the operator has not set one. */
    verifyToken: Schema.NullOr(Schema.String),
  }),
})
export const BridgeChannelResponse = Schema.Struct({ ...ChannelRecord.fields, inboundToken: Schema.String })
export const ListMessagesResponse = page(MessageRecord)
export const ListTemplatesResponse = Schema.Struct({ data: Schema.Array(TemplateRecord) })
export const ListContactsResponse = page(ContactRecord)
export const CampaignStarted = Schema.Struct({
  id: Schema.String,
  status: Schema.Literal("running"),
  ...CampaignCounts.fields,
})

// ---- the sandbox (docs/contract.md §16) ----

/** `POST /api/sandbox/inbound`: a customer's message, as the sandbox provider will deliver it. */
export const SandboxInboundRequest = Schema.Struct({
  from: HumanPhoneNumber,
  name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(256))),
  text: NonEmpty(4096),
})
export type SandboxInboundRequest = typeof SandboxInboundRequest.Type
export const SandboxInboundResponse = Schema.Struct({ messageId: Schema.String })

/** `POST /api/sandbox/templates/:id`: the provider's decision about a template, or a re-scoring. */
export const SandboxTemplateUpdateRequest = Schema.Struct({
  status: Schema.optionalKey(Schema.Literals(["APPROVED", "REJECTED", "PAUSED", "DISABLED"])),
  reason: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(512))),
  qualityScore: Schema.optionalKey(Schema.Literals(["GREEN", "YELLOW", "RED"])),
  category: Schema.optionalKey(TemplateCategoryName),
})
export type SandboxTemplateUpdateRequest = typeof SandboxTemplateUpdateRequest.Type
/** The `:id` of `POST /api/sandbox/templates/:id` (a longer one names no template). */
export const TemplateIdParam = Schema.String.check(Schema.isMaxLength(100))

export const SandboxOutboxQuery = Schema.Struct({
  phone: Schema.optionalKey(HumanPhoneNumber),
  limit: LimitParam,
  cursor: Schema.optionalKey(PageCursor),
})
export const SandboxOutboxRecord = Schema.Struct({
  messageId: Schema.String,
  to: Schema.String,
  type: Schema.Literals(["text", "template"]),
  text: Schema.String,
  template: Schema.NullOr(
    Schema.Struct({ name: Schema.String, language: Schema.String, variables: Schema.Array(Schema.String) }),
  ),
  status: Schema.Literals(["accepted", "sent", "delivered", "read"]),
  sentAt: Schema.String,
})
export type SandboxOutboxRecord = typeof SandboxOutboxRecord.Type
export const SandboxOutboxResponse = page(SandboxOutboxRecord)
export const ListCampaignsResponse = page(CampaignRecord)
export const ListCampaignRecipientsResponse = page(CampaignRecipientRecord)
export const ListOptOutsResponse = page(OptOutRecord)
