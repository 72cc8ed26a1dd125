import type { Bus, OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import type { ManagedRuntime } from "effect"
import type { LanguageModel } from "../llm/language-model.ts"
import type { AssistantMetrics } from "../metrics.ts"

/** What route logic runs on: the service's infrastructure and its language model (or none). */
export type AssistantServices = Database | OutboxWriter | Bus | LanguageModel | AssistantMetrics
export type AssistantRuntime = ManagedRuntime.ManagedRuntime<AssistantServices, never>
