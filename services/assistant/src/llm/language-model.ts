import type { OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import { Context, Effect, Layer } from "effect"
import type { TurnContext, TurnResult } from "../chat/turn-context.ts"
import type { ConversationState } from "../engine/state.ts"
import { LlmFailure } from "./llm-failure.ts"
import { type LlmSettings, type ModelProgress, modelTurn } from "./model-turn.ts"

/**
 * The optional language model (PARLEY_LLM_*). Disabled, every turn goes to the deterministic
 * engine; enabled, the model answers within `turnTimeoutMs` and the caller falls back on any
 * `LlmFailure` or past the deadline, reading what the model's tools already did from `progress`.
 */
export class LanguageModel extends Context.Service<
  LanguageModel,
  {
    readonly enabled: boolean
    /** The deadline of a whole turn with the model (PARLEY_LLM_TURN_TIMEOUT_MS). */
    readonly turnTimeoutMs: number
    answer(
      state: ConversationState,
      message: string,
      context: TurnContext,
      progress: ModelProgress,
    ): Effect.Effect<TurnResult, LlmFailure, Database | OutboxWriter>
  }
>()("@parley/assistant/LanguageModel") {
  static readonly disabled = Layer.succeed(LanguageModel, {
    enabled: false,
    turnTimeoutMs: 0,
    answer: () => Effect.fail(new LlmFailure({ reason: "no language model configured" })),
  })

  static readonly layer = (settings: LlmSettings | undefined) =>
    settings === undefined
      ? LanguageModel.disabled
      : Layer.succeed(LanguageModel, {
          enabled: true,
          turnTimeoutMs: settings.turnTimeoutMs,
          answer: (state, message, context, progress) => modelTurn(settings, state, message, context, progress),
        })
}

export { LlmFailure }
