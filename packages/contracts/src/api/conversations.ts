import { Schema } from "effect"
import { pageQuery } from "./assistant.ts"

/**
 * The bodies of the conversations inbox (docs/contract.md §17): every conversation the assistant holds —
 * a widget session or a customer number on a channel —, who holds it, and a person's replies.
 */

export const ConversationChannel = Schema.Literals(["widget", "cloud", "bridge"])
export type ConversationChannel = typeof ConversationChannel.Type

export const ConversationState = Schema.Literals(["assistant", "human"])
export type ConversationState = typeof ConversationState.Type

export const ConversationRole = Schema.Literals(["customer", "assistant", "staff"])
export type ConversationRole = typeof ConversationRole.Type

export const ListConversationsQuery = Schema.Struct({
  ...pageQuery,
  channel: Schema.optionalKey(ConversationChannel),
  state: Schema.optionalKey(ConversationState),
})

export const ConversationParams = Schema.Struct({
  id: Schema.String.check(Schema.isPattern(/^cnv_[0-9A-Za-z]{16,64}$/u, { expected: "a conversation id cnv_…" })),
})

export const ConversationPageQuery = Schema.Struct(pageQuery)

const Member = Schema.Struct({ id: Schema.String, email: Schema.String })

export const ConversationSummary = Schema.Struct({
  id: Schema.String,
  channel: ConversationChannel,
  customer: Schema.Struct({ phone: Schema.NullOr(Schema.String), name: Schema.NullOr(Schema.String) }),
  lead: Schema.NullOr(Schema.Struct({ id: Schema.String, type: Schema.String })),
  state: ConversationState,
  assignee: Schema.NullOr(Member),
  /**
   * The customer asked for a person, or the assistant handed off because it could not answer, and no
   * person has answered since (Parley's addition to §17's listing, so the inbox can make it stand out).
   */
  waiting: Schema.Boolean,
  lastMessage: Schema.NullOr(Schema.Struct({ role: ConversationRole, text: Schema.String, at: Schema.String })),
  updatedAt: Schema.String,
})
export type ConversationSummary = typeof ConversationSummary.Type

export const ListConversationsResponse = Schema.Struct({
  data: Schema.Array(ConversationSummary),
  nextCursor: Schema.NullOr(Schema.String),
})

export const ConversationMessage = Schema.Struct({
  role: ConversationRole,
  text: Schema.String,
  at: Schema.String,
  author: Schema.optionalKey(Member),
})
export type ConversationMessage = typeof ConversationMessage.Type

/** A conversation with one page of its messages, oldest first; `nextCursor` pages on to newer ones. */
export const ConversationDetail = Schema.Struct({
  ...ConversationSummary.fields,
  messages: Schema.Array(ConversationMessage),
  nextCursor: Schema.NullOr(Schema.String),
})
export type ConversationDetail = typeof ConversationDetail.Type

export const StaffMessageRequest = Schema.Struct({
  text: Schema.String.check(
    Schema.isMinLength(1, { expected: "a non-empty string" }),
    Schema.isMaxLength(4096),
    Schema.makeFilter((text: string) => text.trim().length > 0, { expected: "a message with some text" }),
  ),
})
export type StaffMessageRequest = typeof StaffMessageRequest.Type

export const StaffMessageAccepted = Schema.Struct({ id: Schema.String })
