import { Schema } from "effect"
import { OrgId } from "../ids.ts"
import { IsoTimestamp, PhoneDigits } from "../values.ts"

export const ChannelKind = Schema.Literals(["cloud", "bridge"])
export type ChannelKind = typeof ChannelKind.Type

/** `parley.channel.inbound.v1` (key: orgId): a customer's message arrived on a channel. */
export const ChannelInbound = Schema.Struct({
  orgId: OrgId,
  channel: ChannelKind,
  from: PhoneDigits,
  name: Schema.String,
  type: Schema.String,
  text: Schema.String,
  /** The provider's message id (the idempotency key). */
  messageId: Schema.String,
  receivedAt: IsoTimestamp,
}).annotate({ identifier: "ChannelInbound" })
export type ChannelInbound = typeof ChannelInbound.Type

/** `parley.channel.outbound.v1` (key: orgId): the assistant's answer to send through a channel. */
export const ChannelOutbound = Schema.Struct({
  orgId: OrgId,
  channel: ChannelKind,
  to: PhoneDigits,
  text: Schema.String,
  /** The provider's id of the message this answers, when it answers one. */
  inReplyTo: Schema.optionalKey(Schema.String),
}).annotate({ identifier: "ChannelOutbound" })
export type ChannelOutbound = typeof ChannelOutbound.Type
