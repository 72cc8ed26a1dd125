import type { OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import { Effect, type Redacted } from "effect"
import type { TurnContext, TurnResult } from "../chat/turn-context.ts"
import type { ConversationState } from "../engine/state.ts"
import { type ChatMessage, complete } from "./chat-completions.ts"
import { LlmFailure } from "./llm-failure.ts"
import { runTool, TOOL_SPECS } from "./tools.ts"

export interface LlmSettings {
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly model: string
  /** Per request to the model; past it the turn falls back to the deterministic engine. */
  readonly timeoutMs: number
}

/** Tool rounds per turn before giving up (a model looping on tools would never answer). */
const MAX_ROUNDS = 5

const systemPrompt = (context: TurnContext): string =>
  [
    "You are the assistant of a business, answering customers briefly and politely.",
    `Today is ${context.today}, ${context.nowTime} in ${context.settings.timezone}.`,
    `Services that can be booked: ${context.settings.services.join(", ")}.`,
    context.customerPhone === undefined
      ? "When the visitor gives a phone number, call record_lead."
      : "The customer writes from their own phone; call record_lead when they give a name or ask for something.",
    "To book: call list_slots, offer the free times, and call book_slot once the visitor picks a date and time.",
  ].join(" ")

/** One turn answered by the model, with its tool calls applied to the conversation's state. */
export const modelTurn = (
  settings: LlmSettings,
  initial: ConversationState,
  message: string,
  context: TurnContext,
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
    let state = initial
    const failing = (failure: LlmFailure) => new LlmFailure({ reason: failure.reason, state })
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const answer = yield* complete(settings, messages, TOOL_SPECS).pipe(Effect.mapError(failing))
      if (answer.toolCalls.length === 0) {
        const text = answer.content?.trim() ?? ""
        if (text === "") return yield* Effect.fail(new LlmFailure({ reason: "empty reply", state }))
        return { text, state }
      }
      messages.push({ role: "assistant", content: answer.content, tool_calls: answer.toolCalls })
      for (const call of answer.toolCalls) {
        const outcome = yield* runTool(call, state, context).pipe(Effect.mapError(failing))
        state = outcome.state
        messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(outcome.result) })
      }
    }
    return yield* Effect.fail(new LlmFailure({ reason: "too many tool rounds", state }))
  }).pipe(Effect.withSpan("assistant.modelTurn"))
