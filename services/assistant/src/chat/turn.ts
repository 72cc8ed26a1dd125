import type { OutboxWriter } from "@parley/bus"
import type { OrgId } from "@parley/contracts"
import { Database } from "@parley/db"
import { withHotSpan } from "@parley/platform"
import { Cause, Duration, Effect, Option } from "effect"
import { organizationNow } from "../bookings/calendar.ts"
import { bookingConfirmation, captureFacts } from "../engine/dialogue.ts"
import type { LeadSource } from "../engine/lead-capture.ts"
import { CATALOGS } from "../engine/messages/index.ts"
import { findPhone, internationalDigits } from "../engine/phone.ts"
import { readMessage } from "../engine/read-message.ts"
import type { ConversationState } from "../engine/state.ts"
import { isLanguage, type Language } from "../engine/text.ts"
import { LanguageModel } from "../llm/language-model.ts"
import type { ModelProgress } from "../llm/model-turn.ts"
import { countTurn } from "../metrics.ts"
import { engineProfile, loadTurnSetup, type TurnSetup } from "../profile/profile-store.ts"
import { deterministicTurn, engineContextOf } from "./deterministic-turn.ts"
import type { TurnContext, TurnResult } from "./turn-context.ts"

export type { TurnContext, TurnResult } from "./turn-context.ts"

export interface TurnInput {
  readonly orgId: OrgId
  /** The organization's name, when the caller knows it (the default profile's business name). */
  readonly organizationName?: string | undefined
  readonly conversationId: string
  readonly source: LeadSource
  readonly customerPhone: string | undefined
  /** On a phone channel: the provider's profile name of the customer (`TurnContext.customerName`). */
  readonly customerName?: string | undefined
  readonly state: ConversationState
  /** A number from a form field (the widget's `visitor.phone`), read with the organization's country. */
  readonly visitorPhone?: string | undefined
  readonly message: string
  readonly history: TurnContext["history"]
  /** The settings and profile when the caller read them already (beside the conversation, at once). */
  readonly setup?: TurnSetup | undefined
}

const FALLBACK_TEXT = "Thanks for your message! How can I help?"

/** Everything a turn runs with: the settings, the profile and the organization's wall clock. */
export const turnContextOf = (input: TurnInput) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const setup = input.setup ?? (yield* loadTurnSetup(sql, input.orgId, input.organizationName ?? ""))
    const settings = setup.settings
    const profile = engineProfile(setup.profile)
    const now = yield* organizationNow(settings)
    return {
      orgId: input.orgId,
      conversationId: input.conversationId,
      source: input.source,
      customerPhone: input.customerPhone,
      ...(input.customerName === undefined ? {} : { customerName: input.customerName }),
      settings,
      profile,
      ...now,
      history: input.history,
    } satisfies TurnContext
  })

/**
 * Answers one message. Without a language model the deterministic engine answers. With one, the
 * model answers under docs/contract.md §8's guardrails:
 * - the whole turn has a deadline (PARLEY_LLM_TURN_TIMEOUT_MS); past it, or on any failure of the
 *   model, the deterministic engine answers from the state the model's tools left;
 * - deterministic capture runs on every turn after the model, so a model that forgets its tool
 *   loses no lead (the number, name and request the visitor wrote are folded into the state);
 * - a booking the model made is always confirmed: appended when its reply does not give the time,
 *   and the whole reply when the model failed after booking (the dialogue is not run again, so
 *   nothing is booked twice).
 * The reply is never empty.
 */
export const runTurn = (input: TurnInput): Effect.Effect<TurnResult, never, Database | OutboxWriter | LanguageModel> =>
  Effect.gen(function* () {
    const context = yield* turnContextOf(input)
    const country = context.settings.country
    // A form number no country's plan has (`07700 900123` to a US business) is not stored as a
    // made-up number: the conversation asks for the number when it needs one (docs/contract.md §8).
    const start: ConversationState =
      input.visitorPhone === undefined || findPhone(input.visitorPhone, country)?.doubtful === true
        ? input.state
        : { ...input.state, phone: internationalDigits(input.visitorPhone, country) }
    const model = yield* LanguageModel
    const surface = input.customerPhone === undefined ? "widget" : "channel"
    if (!model.enabled) {
      const result = yield* safely(deterministicTurn(start, input.message, context), start, context)
      yield* countTurn(surface, "deterministic")
      return nonEmpty(result)
    }
    const engine = engineContextOf(context)
    const facts = readMessage(input.message, start, engine)
    const progress: ModelProgress = { state: start, booked: undefined }
    const answered = yield* model.answer(start, input.message, context, progress).pipe(
      Effect.map(Option.some),
      Effect.catch((failure) =>
        Effect.logWarning("language model failed; the deterministic engine answers this turn").pipe(
          Effect.annotateLogs({ orgId: input.orgId, reason: failure.reason }),
          Effect.as(Option.none()),
        ),
      ),
      Effect.timeoutOption(Duration.millis(model.turnTimeoutMs)),
      Effect.map(Option.flatten),
    )
    // Cut off at the deadline while a booking commits: wait for it, so it is confirmed, not booked again.
    const committing = progress.committing
    if (Option.isNone(answered) && committing !== undefined) yield* Effect.promise(() => committing)
    const booked = progress.booked
    if (Option.isSome(answered)) {
      yield* countTurn(surface, "model")
      const state = captureFacts(answered.value.state, facts, engine)
      const confirmed =
        booked === undefined || mentionsTime(answered.value.text, booked.time)
          ? answered.value.text
          : `${answered.value.text}\n\n${bookingConfirmation(state, facts, engine, booked)}`
      return nonEmpty({ text: confirmed, state })
    }
    yield* countTurn(surface, "fallback")
    if (booked !== undefined) {
      const state = captureFacts(progress.state, facts, engine)
      return { text: bookingConfirmation(state, facts, engine, booked), state }
    }
    return nonEmpty(yield* safely(deterministicTurn(progress.state, input.message, context), progress.state, context))
  }).pipe(withHotSpan("assistant.turn"))

/**
 * A step of the turn that failed on our side (a calendar query, a booking's transaction) still gets
 * a reply, in the conversation's language, saying so (docs/contract.md §8: never a 5xx to a visitor); the
 * state stays as it was, so nothing is half-remembered.
 */
const safely = (
  turn: Effect.Effect<TurnResult, never, Database | OutboxWriter>,
  state: ConversationState,
  context: TurnContext,
): Effect.Effect<TurnResult, never, Database | OutboxWriter> =>
  turn.pipe(
    Effect.catchCause((cause) =>
      Effect.logError("a step of the assistant's turn failed; the visitor is told").pipe(
        Effect.annotateLogs({ orgId: context.orgId, cause: Cause.pretty(cause) }),
        Effect.as({ text: CATALOGS[replyLanguage(state, context)].stepFailed(), state }),
      ),
    ),
  )

const replyLanguage = (state: ConversationState, context: TurnContext): Language => {
  const languages = context.profile.languages
  return state.language !== undefined && isLanguage(state.language) && languages.includes(state.language)
    ? state.language
    : (languages[0] ?? "en")
}

const nonEmpty = (result: TurnResult): TurnResult =>
  result.text.trim() === "" ? { ...result, text: FALLBACK_TEXT } : result

/** Whether a reply gives a booked time ("16:00", "4:00 PM", "4 PM", "16h"). */
const mentionsTime = (text: string, time: string): boolean => {
  const [hour = 0, minute = 0] = time.split(":").map(Number)
  const twelve = hour % 12 === 0 ? 12 : hour % 12
  const minutes = String(minute).padStart(2, "0")
  const shapes = [
    time,
    `${hour}:${minutes}`,
    `${twelve}:${minutes}`,
    ...(minute === 0 ? [`${twelve} ?[ap]\\.?m`, `${hour} ?h`, `${hour} ?uhr`] : [`${hour}h${minutes}`]),
  ]
  return new RegExp(`(?<!\\d)(?:${shapes.join("|")})(?!\\d)`, "i").test(text)
}
