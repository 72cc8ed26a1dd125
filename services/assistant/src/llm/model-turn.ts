import type { OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import { Effect, type Redacted } from "effect"
import type { TurnContext, TurnResult } from "../chat/turn-context.ts"
import { weekText } from "../engine/answers.ts"
import { CATALOGS, formatsFor } from "../engine/messages/index.ts"
import { findPhones } from "../engine/phone.ts"
import type { ConversationState } from "../engine/state.ts"
import { type ChatMessage, complete } from "./chat-completions.ts"
import { LlmFailure } from "./llm-failure.ts"
import type { ModelProgress } from "./model-progress.ts"
import { runTool, TOOL_SPECS, type ToolGuard } from "./tools.ts"

export type { ModelProgress } from "./model-progress.ts"

export interface LlmSettings {
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly model: string
  /** Per request to the model. */
  readonly timeoutMs: number
  /** The whole turn (every request and tool call); past it the deterministic engine answers. */
  readonly turnTimeoutMs: number
}

/** Tool rounds per turn before giving up (a model looping on tools would never answer). */
const MAX_ROUNDS = 5

/**
 * The system prompt: who the business is and what it knows (the profile), its calendar (services,
 * hours, time zone), today's date and time in the organization's zone, and the rules the tools
 * enforce anyway.
 */
export const systemPrompt = (context: TurnContext): string => {
  const { profile, settings } = context
  const language = profile.languages[0] ?? "en"
  const formats = formatsFor(language, settings.country)
  const faqs = profile.faqs.map((faq) => `Q: ${faq.question}\nA: ${faq.answer}`).join("\n")
  return [
    `You are the assistant of ${profile.businessName || "a business"}, answering its customers briefly and politely.`,
    profile.about === undefined ? "" : `About the business: ${profile.about}`,
    `Answer in the customer's language when it is one of: ${profile.languages.join(", ")}; otherwise in ${language}.`,
    `Today is ${formats.date(context.today)} (${context.today}), ${context.nowTime} in the business's time zone ${settings.timezone}.`,
    `Services that can be booked: ${settings.services.join(", ")}. Opening hours: ${weekText(
      { profile, settings, today: context.today, nowTime: context.nowTime },
      formatsFor("en", settings.country),
      CATALOGS.en,
    )}.`,
    `Phone numbers are read with the country ${settings.country}.`,
    faqs === "" ? "" : `Frequently asked questions, answer from these:\n${faqs}`,
    profile.handoffMessage === undefined
      ? "When you cannot answer, say so and offer that someone from the team calls back."
      : `When you cannot answer, say: ${profile.handoffMessage}`,
    context.customerPhone === undefined
      ? "Call record_lead when the visitor gives a phone number; use only a number the visitor wrote."
      : "The customer writes from their own phone; call record_lead when they give a name or ask for something.",
    "To book: call list_slots, offer the free times, and call book_slot once the visitor picks a date and time. Book at most once per turn, and confirm the booking with its date and time.",
  ]
    .filter((line) => line !== "")
    .join("\n")
}

/** Every phone number the visitor wrote in this conversation (and the channel's sender): the only ones a tool may use. */
const visitorPhones = (message: string, state: ConversationState, context: TurnContext): ReadonlySet<string> => {
  const texts = [message, ...context.history.filter((turn) => turn.role === "visitor").map((turn) => turn.text)]
  const phones = new Set(
    texts.flatMap((text) =>
      findPhones(text, context.settings.country).flatMap((found) => (found.doubtful ? [] : [found.digits])),
    ),
  )
  if (state.phone !== undefined) phones.add(state.phone)
  if (context.customerPhone !== undefined) phones.add(context.customerPhone)
  return phones
}

/** One turn answered by the model, its tool calls applied to the state under the guardrails of `tools.ts`. */
export const modelTurn = (
  settings: LlmSettings,
  initial: ConversationState,
  message: string,
  context: TurnContext,
  progress: ModelProgress,
): Effect.Effect<TurnResult, LlmFailure, Database | OutboxWriter> =>
  Effect.gen(function* () {
    const messages: Array<ChatMessage> = [
      { role: "system", content: systemPrompt(context) },
      ...context.history.map(
        (turn): ChatMessage =>
          turn.role === "visitor" ? { role: "user", content: turn.text } : { role: "assistant", content: turn.text },
      ),
      { role: "user", content: message },
    ]
    progress.state = initial
    const guard: ToolGuard = { phones: visitorPhones(message, initial, context), progress }
    const failing = (failure: LlmFailure) => new LlmFailure({ reason: failure.reason, state: progress.state })
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const answer = yield* complete(settings, messages, TOOL_SPECS).pipe(Effect.mapError(failing))
      if (answer.toolCalls.length === 0) {
        const text = answer.content?.trim() ?? ""
        if (text === "") return yield* Effect.fail(new LlmFailure({ reason: "empty reply", state: progress.state }))
        return { text, state: progress.state }
      }
      messages.push({ role: "assistant", content: answer.content, tool_calls: answer.toolCalls })
      for (const call of answer.toolCalls) {
        const outcome = yield* runTool(call, progress.state, context, guard).pipe(Effect.mapError(failing))
        progress.state = outcome.state
        messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(outcome.result) })
      }
    }
    return yield* Effect.fail(new LlmFailure({ reason: "too many tool rounds", state: progress.state }))
  }).pipe(Effect.withSpan("assistant.modelTurn"))
