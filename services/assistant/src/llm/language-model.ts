import type { OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import { Context, Effect, Layer } from "effect"
import type { TurnContext, TurnResult } from "../chat/turn-context.ts"
import type { ConversationState } from "../engine/state.ts"
import { LlmFailure } from "./llm-failure.ts"
import { type LlmSettings, modelTurn } from "./model-turn.ts"

/**
 * The optional language model (PARLEY_LLM_*). Disabled, every turn goes to the deterministic
 * engine; enabled, the model answers and the caller falls back on any `LlmFailure`.
 */
export class LanguageModel extends Context.Service<
  LanguageModel,
  {
    readonly enabled: boolean
    answer(
      state: ConversationState,
      message: string,
      context: TurnContext,
    ): Effect.Effect<TurnResult, LlmFailure, Database | OutboxWriter>
  }
>()("@parley/assistant/LanguageModel") {
  static readonly disabled = Layer.succeed(LanguageModel, {
    enabled: false,
    answer: () => Effect.fail(new LlmFailure({ reason: "no language model configured" })),
  })

  static readonly layer = (settings: LlmSettings | undefined) =>
    settings === undefined
      ? LanguageModel.disabled
      : Layer.succeed(LanguageModel, {
          enabled: true,
          answer: (state, message, context) => modelTurn(settings, state, message, context),
        })
}

export { LlmFailure }
