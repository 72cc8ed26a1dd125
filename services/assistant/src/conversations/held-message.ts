/**
 * A customer's message in a conversation a person holds (docs/contract.md §17): stored for the inbox
 * with its lead captured, unanswered. The widget's answer is `reply: null`; on a channel nothing is
 * sent (and the provider's message is marked handled, so a redelivery does nothing).
 */
import type { OutboxWriter } from "@parley/bus"
import type { ChannelInbound, ChatRequest, OrgId } from "@parley/contracts"
import { type Database, withTransaction } from "@parley/db"
import { Effect } from "effect"
import { claimInbound } from "../bus/inbound-handled.ts"
import type { StaleConversation, StoredConversation } from "../chat/conversation-store.ts"
import { leadOfConversation } from "../engine/lead-capture.ts"
import { leadOfAnswer, recordConversationLead } from "../leads/conversation-lead.ts"
import { recordLead } from "../leads/record-lead.ts"
import { captureOnly, noteCustomerMessage, storeHeldMessage } from "./customer-turn.ts"

export const widgetMessageWhileHeld = (
  orgId: OrgId,
  request: ChatRequest,
  found: StoredConversation,
  organizationName: string,
  at: Date,
): Effect.Effect<
  { sessionId: string; reply: null; lead: { id: string; type: string } | null },
  StaleConversation,
  Database | OutboxWriter
> =>
  Effect.gen(function* () {
    const visitorName = request.visitor?.name?.trim()
    const state = yield* captureOnly({
      ...(request.visitor?.phone === undefined ? {} : { visitorPhone: request.visitor.phone }),
      orgId,
      organizationName,
      conversationId: found.id,
      source: "chat",
      customerPhone: undefined,
      state: { ...found.state, ...(visitorName === undefined || visitorName === "" ? {} : { name: visitorName }) },
      message: request.message,
      history: [],
    })
    const lead = yield* withTransaction((tx) =>
      Effect.gen(function* () {
        const recorded = yield* recordConversationLead(tx, orgId, found.state, state, "chat")
        yield* storeHeldMessage(tx, {
          id: found.id,
          readVersion: found.version,
          state: recorded.state,
          text: request.message,
          at,
        })
        yield* noteCustomerMessage(tx, found.id, { waiting: false })
        return recorded.recorded
      }),
    )
    return { sessionId: found.id, reply: null, lead: leadOfAnswer(lead) }
  })

export const channelMessageWhileHeld = (
  inbound: ChannelInbound,
  found: StoredConversation,
  at: Date,
): Effect.Effect<void, StaleConversation, Database | OutboxWriter> =>
  Effect.gen(function* () {
    const state = yield* captureOnly({
      orgId: inbound.orgId,
      conversationId: found.id,
      source: inbound.channel,
      customerPhone: inbound.from,
      state: found.state,
      message: inbound.text,
      history: [],
    })
    const profileName = inbound.name.trim()
    yield* withTransaction((tx) =>
      Effect.gen(function* () {
        if (!(yield* claimInbound(tx, inbound))) return
        yield* storeHeldMessage(tx, { id: found.id, readVersion: found.version, state, text: inbound.text, at })
        yield* noteCustomerMessage(tx, found.id, {
          waiting: false,
          receivedAt: new Date(inbound.receivedAt),
          customerName: profileName,
        })
        const capture = leadOfConversation(state, inbound.channel, inbound.from)
        if (capture !== undefined) {
          yield* recordLead(
            tx,
            inbound.orgId,
            capture.name === "" && profileName !== "" ? { ...capture, name: profileName } : capture,
          )
        }
      }),
    )
  })
