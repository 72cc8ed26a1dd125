import type { BookingSettings } from "../bookings/settings.ts"
import type { Faq } from "./knowledge.ts"
import type { Language } from "./text.ts"

/** What the engine knows of the business (docs/contract.md §8's profile), as the engine reads it. */
export interface AssistantProfile {
  readonly businessName: string
  /** One to ten; the first is the default. */
  readonly languages: ReadonlyArray<Language>
  readonly greeting?: string | undefined
  readonly about?: string | undefined
  readonly faqs: ReadonlyArray<Faq>
  readonly handoffMessage?: string | undefined
}

/** Everything a turn of the engine runs with, none of it read by the engine itself. */
export interface EngineContext {
  readonly profile: AssistantProfile
  readonly settings: BookingSettings
  /** The organization's wall clock now. */
  readonly today: string
  readonly nowTime: string
  /** On a phone channel: the customer's own number (leads and bookings use it, never numbers in the text). */
  readonly customerPhone?: string | undefined
}
