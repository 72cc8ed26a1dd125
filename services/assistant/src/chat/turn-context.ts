import type { OrgId } from "@parley/contracts"
import type { BookingSettings } from "../bookings/settings.ts"
import type { LeadSource } from "../engine/lead-capture.ts"
import type { AssistantProfile } from "../engine/profile.ts"
import type { ConversationState } from "../engine/state.ts"

/**
 * What one turn runs with and gives back, shared by the deterministic engine's runner and the
 * model's tool loop (kept apart from `turn.ts`, which calls both, so neither imports its caller).
 */
export interface TurnContext {
  readonly orgId: OrgId
  readonly conversationId: string
  readonly source: LeadSource
  /** On a phone channel: the customer's own number (bookings and leads use it). */
  readonly customerPhone: string | undefined
  /**
   * On a phone channel: the name the provider gives the customer (their profile), `""` when none. A
   * booking takes it when the customer gave no name, as their lead does (it never replaces one given).
   */
  readonly customerName?: string | undefined
  readonly settings: BookingSettings
  readonly profile: AssistantProfile
  readonly today: string
  readonly nowTime: string
  readonly history: ReadonlyArray<{ readonly role: "visitor" | "assistant"; readonly text: string }>
}

export interface TurnResult {
  readonly text: string
  readonly state: ConversationState
}
