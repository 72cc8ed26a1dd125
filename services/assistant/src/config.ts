/** The assistant's configuration, decoded once by the composition root (`loadConfig`). */
import { optionalString, serviceBasics } from "@parley/platform"
import { Config, Redacted } from "effect"
import type { LlmSettings } from "./llm/model-turn.ts"

/**
 * The optional language model: all three of PARLEY_LLM_BASE_URL, PARLEY_LLM_API_KEY and
 * PARLEY_LLM_MODEL, else none (the deterministic assistant). PARLEY_LLM_TURN_TIMEOUT_MS bounds a
 * whole turn with the model (default 20 s, docs/contract.md §13), PARLEY_LLM_TIMEOUT_MS each request to it
 * (default 15 s); past either, the deterministic engine answers that turn.
 */
const llm: Config.Config<LlmSettings | undefined> = Config.all({
  baseUrl: optionalString("PARLEY_LLM_BASE_URL"),
  apiKey: optionalString("PARLEY_LLM_API_KEY"),
  model: optionalString("PARLEY_LLM_MODEL"),
  timeoutMs: Config.Int("PARLEY_LLM_TIMEOUT_MS").pipe(Config.withDefault(15_000)),
  turnTimeoutMs: Config.Int("PARLEY_LLM_TURN_TIMEOUT_MS").pipe(Config.withDefault(20_000)),
}).pipe(
  Config.map(({ baseUrl, apiKey, model, timeoutMs, turnTimeoutMs }) =>
    baseUrl === undefined || apiKey === undefined || model === undefined
      ? undefined
      : { baseUrl, apiKey: Redacted.make(apiKey), model, timeoutMs, turnTimeoutMs },
  ),
)

export const AssistantConfig = Config.all({
  ...serviceBasics("ASSISTANT", 3104),
  llm,
})
export type AssistantConfig = Config.Success<typeof AssistantConfig>
