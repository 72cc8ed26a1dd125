/**
 * The evaluation corpus: conversations as visitors of a small business write them on the website
 * widget, in the five supported languages, each with what a competent receptionist would end up
 * with — the lead (phone, name, type), the booking, and a few things the replies must say.
 *
 * Every conversation runs in an organization of its own, set up as `world.ts` describes for its
 * language, at a fixed instant: Wednesday 25 November 2026, 10:00 in the organization's zone.
 */
import type { World } from "./world.ts"

export type Lang = "en" | "es" | "de" | "fr" | "pt"

export type Category =
  | "callback" // asks to be called
  | "demo" // asks for a demo (also with words like "booking" in it)
  | "booking" // books an appointment in the chat
  | "dates" // dates and times as people write them; weekday/date disagreements
  | "closed-past" // a closed day, a past time: said before any phone number is asked
  | "faq" // a question the profile's FAQ answers, reworded
  | "hours-services" // opening hours, services, the business's name, from the settings
  | "unknown" // a question nothing answers: an honest "I don't know" and a callback offer
  | "reference" // order, invoice, membership… numbers that are not phone numbers
  | "phone-format" // national and international ways of writing a phone number
  | "name" // the ways people give their name
  | "cancel-move" // cancelling or moving a booking made in the conversation
  | "correction" // a phone number corrected, a request withdrawn ("don't call me")
  | "general" // a number left with a general question, or nothing to record

export interface Booking {
  readonly date: string
  readonly time: string
  /** Omitted: the organization's first service. */
  readonly service?: string
}

export interface ExpectedLead {
  /** International digits only. */
  readonly phone: string
  /** `""`: no name given. */
  readonly name: string
  readonly type: "CALLBACK_REQUESTED" | "DEMO_REQUESTED" | "BOOKING" | "GENERAL_INQUIRY"
  readonly booking: Booking | null
}

/** A visitor message, optionally with what the reply to it must (not) contain. */
export interface Turn {
  readonly say: string
  /** Each entry must appear in the reply (case-insensitive); `a|b` accepts either. */
  readonly says?: ReadonlyArray<string>
  /** None of these may appear in the reply (case-insensitive). */
  readonly never?: ReadonlyArray<string>
}

export interface Conversation {
  readonly id: string
  readonly lang: Lang
  readonly category: Category
  readonly turns: ReadonlyArray<string | Turn>
  /** The organization's one lead at the end, or `null` for none. */
  readonly lead: ExpectedLead | null
  /** Digits that must never be recorded as a phone number (reference numbers in the text). */
  readonly notPhones?: ReadonlyArray<string>
  /** The business this conversation talks to; omitted: its language's world (`world.ts`). */
  readonly world?: World
  /** The organization's wall clock when the conversation starts; omitted: the corpus's `NOW`. */
  readonly moment?: Moment
}

/** A wall-clock instant in the organization's zone, and a label to report it by. */
export interface Moment {
  readonly label: string
  readonly date: string
  readonly time: string
}

/** A terse constructor, so a corpus file reads as a list of conversations. */
export const conversation =
  (lang: Lang) =>
  (
    id: string,
    category: Category,
    turns: ReadonlyArray<string | Turn>,
    lead: ExpectedLead | null,
    notPhones?: ReadonlyArray<string>,
  ): Conversation => ({
    id: `${lang}-${id}`,
    lang,
    category,
    turns,
    lead,
    ...(notPhones === undefined ? {} : { notPhones }),
  })

export const lead = (
  phone: string,
  name: string,
  type: ExpectedLead["type"],
  booking: Booking | null = null,
): ExpectedLead => ({ phone, name, type, booking })

export const at = (date: string, time: string, service?: string): Booking =>
  service === undefined ? { date, time } : { date, time, service }
