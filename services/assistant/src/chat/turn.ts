import type { OutboxWriter } from "@parley/bus"
import { Database } from "@parley/db"
import { Effect } from "effect"
import { organizationNow } from "../bookings/calendar.ts"
import { loadBookingSettings } from "../bookings/settings-store.ts"
import type { LeadSource } from "../engine/lead-capture.ts"
import type { ConversationState } from "../engine/state.ts"
import { LanguageModel } from "../llm/language-model.ts"
import { countTurn } from "../metrics.ts"
import { engineProfile, loadProfile } from "../profile/profile-store.ts"
import { deterministicTurn } from "./deterministic-turn.ts"
import type { TurnContext, TurnResult } from "./turn-context.ts"

export type { TurnContext, TurnResult } from "./turn-context.ts"

export interface TurnInput {
  readonly orgId: string
  /** The organization's name, when the caller knows it (the default profile's business name). */
  readonly organizationName?: string | undefined
  readonly conversationId: string
  readonly source: LeadSource
  readonly customerPhone: string | undefined
  readonly state: ConversationState
  readonly message: string
  readonly history: TurnContext["history"]
}

const FALLBACK_TEXT = "Thanks for your message! How can I help?"

/** Everything a turn runs with: the settings, the profile and the organization's wall clock. */
export const turnContextOf = (input: TurnInput) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const settings = yield* loadBookingSettings(sql, input.orgId)
    const profile = engineProfile(yield* loadProfile(sql, input.orgId, input.organizationName ?? ""))
    const now = yield* organizationNow(settings)
    return {
      orgId: input.orgId,
      conversationId: input.conversationId,
      source: input.source,
      customerPhone: input.customerPhone,
      settings,
      profile,
      ...now,
      history: input.history,
    } satisfies TurnContext
  })

/**
 * Answers one message. With a language model configured the model answers (tools for leads and
 * bookings, under the guardrails of `llm/model-turn.ts`); any failure of the model, or its deadline,
 * hands the turn to the deterministic engine. The reply is never empty.
 */
export const runTurn = (input: TurnInput): Effect.Effect<TurnResult, never, Database | OutboxWriter | LanguageModel> =>
  Effect.gen(function* () {
    const context = yield* turnContextOf(input)
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
