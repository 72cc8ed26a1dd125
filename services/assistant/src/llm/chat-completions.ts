import { tracedCall } from "@parley/platform"
import { Effect, Redacted, Schema } from "effect"
import { LlmFailure } from "./llm-failure.ts"

/**
 * The slice of the OpenAI-compatible chat-completions API the assistant uses: messages, function
 * tools, and the first choice's message (its content and tool calls).
 */

export type ChatMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | {
      readonly role: "assistant"
      readonly content: string | null
      readonly tool_calls?: ReadonlyArray<ToolCall>
    }
  | { readonly role: "tool"; readonly tool_call_id: string; readonly content: string }

export const ToolCall = Schema.Struct({
  id: Schema.String,
  type: Schema.optionalKey(Schema.String),
  function: Schema.Struct({ name: Schema.String, arguments: Schema.String }),
})
export type ToolCall = typeof ToolCall.Type

const CompletionResponse = Schema.Struct({
  choices: Schema.Array(
    Schema.Struct({
      message: Schema.Struct({
        content: Schema.optionalKey(Schema.NullOr(Schema.String)),
        tool_calls: Schema.optionalKey(Schema.NullOr(Schema.Array(ToolCall))),
      }),
    }),
  ).check(Schema.isMinLength(1)),
})

export interface CompletionEndpoint {
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly model: string
  readonly timeoutMs: number
}

export interface ToolSpec {
  readonly name: string
  readonly description: string
  readonly parameters: object
}

/** One completion; a timeout, a non-2xx answer or a body of the wrong shape is an `LlmFailure`. */
export const complete = (
  endpoint: CompletionEndpoint,
  messages: ReadonlyArray<ChatMessage>,
  tools: ReadonlyArray<ToolSpec>,
): Effect.Effect<{ content: string | null; toolCalls: ReadonlyArray<ToolCall> }, LlmFailure> =>
  Effect.gen(function* () {
    const response = yield* Effect.tryPromise({
      try: (signal) => {
        const headers: Record<string, string> = {
          "content-type": "application/json",
          authorization: `Bearer ${Redacted.value(endpoint.apiKey)}`,
        }
        return tracedCall("llm POST chat/completions", headers, { "gen_ai.request.model": endpoint.model }, () =>
          fetch(`${endpoint.baseUrl.replace(/\/$/, "")}/chat/completions`, {
            method: "POST",
            headers,
            body: JSON.stringify({
              model: endpoint.model,
              messages,
              tools: tools.map((tool) => ({ type: "function", function: tool })),
            }),
            signal: AbortSignal.any([signal, AbortSignal.timeout(endpoint.timeoutMs)]),
          }).then(async (answer) => ({ status: answer.status, body: await answer.text() })),
        )
      },
      catch: (error) =>
        new LlmFailure({
          reason:
            error instanceof Error && error.name === "TimeoutError" ? "timeout" : `request failed: ${String(error)}`,
        }),
    })
    if (response.status < 200 || response.status >= 300) {
      return yield* Effect.fail(new LlmFailure({ reason: `HTTP ${response.status}` }))
    }
    const parsed = yield* Effect.try({
      try: () => JSON.parse(response.body) as unknown,
      catch: () => new LlmFailure({ reason: "the answer is not JSON" }),
    })
    const decoded = yield* Schema.decodeUnknownEffect(CompletionResponse)(parsed).pipe(
      Effect.mapError((error) => new LlmFailure({ reason: `unexpected answer: ${error.message}` })),
    )
    const message = decoded.choices[0]?.message
    return { content: message?.content ?? null, toolCalls: message?.tool_calls ?? [] }
  })
