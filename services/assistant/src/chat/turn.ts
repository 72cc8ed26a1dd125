import type { OutboxWriter } from "@parley/bus"
import { Database } from "@parley/db"
import { Effect } from "effect"
import { organizationNow } from "../bookings/calendar.ts"
import type { BookingSettings } from "../bookings/settings.ts"
import { loadBookingSettings } from "../bookings/settings-store.ts"
import type { ConversationState } from "../engine/state.ts"
import type { LeadSource } from "../leads/record-lead.ts"
import { LanguageModel } from "../llm/language-model.ts"
import { countTurn } from "../metrics.ts"
import { deterministicTurn } from "./deterministic-turn.ts"

/** What a turn runs with: whose conversation, the calendar's settings and the wall clock. */
export interface TurnContext {
  readonly orgId: string
  readonly conversationId: string
  readonly source: LeadSource
  /** On a phone channel: the customer's own number (bookings and leads use it). */
  readonly customerPhone: string | undefined
  readonly settings: BookingSettings
  readonly today: string
  readonly nowTime: string
  readonly history: ReadonlyArray<{ readonly role: "visitor" | "assistant"; readonly text: string }>
}

export interface TurnResult {
  readonly text: string
  readonly state: ConversationState
}

export interface TurnInput {
  readonly orgId: string
  readonly conversationId: string
  readonly source: LeadSource
  readonly customerPhone: string | undefined
  readonly state: ConversationState
  readonly message: string
  readonly history: TurnContext["history"]
}

const FALLBACK_TEXT = "Thanks for your message! How can I help?"

/**
 * Answers one message. With a language model configured the model answers (tools for leads and
 * bookings); a timeout or any error of the model falls back to the deterministic engine for this
 * turn. The reply is never empty.
 */
export const runTurn = (input: TurnInput): Effect.Effect<TurnResult, never, Database | OutboxWriter | LanguageModel> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const settings = yield* loadBookingSettings(sql, input.orgId)
    const now = yield* organizationNow(settings)
    const context: TurnContext = {
      orgId: input.orgId,
      conversationId: input.conversationId,
      source: input.source,
      customerPhone: input.customerPhone,
      settings,
      ...now,
      history: input.history,
    }
    const model = yield* LanguageModel
    const surface = input.customerPhone === undefined ? "widget" : "channel"
    const result = model.enabled
      ? yield* model.answer(input.state, input.message, context).pipe(
          Effect.tap(() => countTurn(surface, "model")),
          Effect.catch((failure) =>
            Effect.logWarning("language model failed; the deterministic engine answers this turn").pipe(
              Effect.annotateLogs({ orgId: input.orgId, reason: failure.reason }),
              Effect.andThen(deterministicTurn(failure.state ?? input.state, input.message, context)),
              Effect.tap(() => countTurn(surface, "fallback")),
            ),
          ),
        )
      : yield* deterministicTurn(input.state, input.message, context).pipe(
          Effect.tap(() => countTurn(surface, "deterministic")),
        )
    return result.text.trim() === "" ? { ...result, text: FALLBACK_TEXT } : result
  }).pipe(Effect.withSpan("assistant.turn"))
