import type { Bus, OutboxWriter } from "@parley/bus"
import type { assistantRoutes } from "@parley/contracts"
import type { Database } from "@parley/db"
import type { RouteHandlers } from "@parley/platform"
import type { ManagedRuntime } from "effect"
import type { ConversationFeed } from "../conversations/feed.ts"
import type { AssistantError } from "../errors.ts"
import type { LanguageModel } from "../llm/language-model.ts"
import type { AssistantMetrics } from "../metrics.ts"

/** What route logic runs on: the service's infrastructure and its language model (or none). */
export type AssistantServices = Database | OutboxWriter | Bus | LanguageModel | AssistantMetrics | ConversationFeed
export type AssistantRuntime = ManagedRuntime.ManagedRuntime<AssistantServices, never>

/** One handler per route `assistantRoutes` declares (`@parley/contracts`). */
export type AssistantHandlers = RouteHandlers<typeof assistantRoutes.routes, AssistantError, AssistantServices>
