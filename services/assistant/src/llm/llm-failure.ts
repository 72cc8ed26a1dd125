import { Schema } from "effect"
import { ConversationState } from "../engine/state.ts"

/**
 * The model could not answer this turn (timeout, HTTP error, malformed answer or tool arguments).
 * `state` is the conversation after the tool calls that did succeed (a booking already made), so
 * the fallback continues from there instead of repeating them.
 */
export class LlmFailure extends Schema.TaggedError<LlmFailure>()("LlmFailure", {
  reason: Schema.String,
  state: Schema.optional(ConversationState),
}) {}
