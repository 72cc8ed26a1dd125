import { Schema } from "effect"
import { Booking } from "../events.ts"
import { CalendarDate, ClockTime } from "../values.ts"
import { HumanPhoneNumber } from "./messaging.ts"
import { PageCursor, PageLimit } from "./page-limit.ts"

/**
 * The bodies of the assistant's routes: the widget surface (docs/contract.md §8) and the leads and
 * bookings rows of the private API (§9). Phones are accepted in human form and stored as digits.
 */

const Text = (min: number, max: number) =>
  Schema.String.check(
    Schema.isMinLength(min, { expected: min === 1 ? "a non-empty string" : `at least ${min} characters` }),
    Schema.isMaxLength(max),
  )

/** A session id as the widget sends it back; an unknown (or foreign) one starts a new session. */
const SessionIdParam = Text(1, 100)

export const LeadType = Schema.Literals(["CALLBACK_REQUESTED", "DEMO_REQUESTED", "BOOKING", "GENERAL_INQUIRY"])
export type LeadType = typeof LeadType.Type

export const ChatRequest = Schema.Struct({
  sessionId: Schema.optionalKey(SessionIdParam),
  message: Text(1, 2000),
  visitor: Schema.optionalKey(
    Schema.Struct({
      name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100))),
      phone: Schema.optionalKey(HumanPhoneNumber),
    }),
  ),
})
export type ChatRequest = typeof ChatRequest.Type

export const ChatResponse = Schema.Struct({
  sessionId: Schema.String,
  /** `null` while a person holds the conversation (docs/contract.md §17): the message went to the inbox. */
  reply: Schema.NullOr(Schema.Struct({ text: Schema.String })),
  lead: Schema.NullOr(Schema.Struct({ id: Schema.String, type: Schema.String })),
})
export type ChatResponse = typeof ChatResponse.Type

export const ChatResetRequest = Schema.Struct({ sessionId: SessionIdParam })

export const ChatSessionParams = Schema.Struct({ sessionId: SessionIdParam })

export const ChatTranscript = Schema.Struct({
  sessionId: Schema.String,
  messages: Schema.Array(
    Schema.Struct({
      /** `staff`: a person of the organization answered (docs/contract.md §17). */
      role: Schema.Literals(["visitor", "assistant", "staff"]),
      text: Schema.String,
      createdAt: Schema.String,
    }),
  ),
})

/** `GET /api/public/assistant?locale=`: what the widget shows before the first message (docs/contract.md §15). */
export const WidgetWelcomeQuery = Schema.Struct({
  /** The widget's language; the greeting is in it when the assistant speaks it, else in its default. */
  locale: Schema.optionalKey(Text(2, 35)),
})

export const WidgetWelcome = Schema.Struct({
  /** The panel's title when the page sets none. */
  businessName: Schema.String,
  /** Shown when the panel opens on an empty conversation: the profile's greeting, else the assistant's own. */
  greeting: Schema.String,
})

export const SlotsQuery = Schema.Struct({
  date: CalendarDate,
  /** Omitted: the organization's first service. */
  service: Schema.optionalKey(Text(1, 100)),
})

export const SlotsResponse = Schema.Struct({
  date: Schema.String,
  timezone: Schema.String,
  /** The services the organization offers, in its order: what the widget's booking form lists. */
  services: Schema.Array(Schema.String),
  slots: Schema.Array(Schema.Struct({ time: Schema.String, available: Schema.Boolean })),
})

export const CreateBookingRequest = Schema.Struct({
  name: Text(1, 100).check(Schema.isPattern(/\S/u, { expected: "a name" })),
  phone: HumanPhoneNumber,
  date: CalendarDate,
  time: ClockTime,
  service: Text(1, 100),
  sessionId: Schema.optionalKey(SessionIdParam),
  notes: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000))),
})
export type CreateBookingRequest = typeof CreateBookingRequest.Type

export const BookingRecord = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  phone: Schema.String,
  date: Schema.String,
  time: Schema.String,
  service: Schema.String,
  status: Schema.Literal("confirmed"),
})
export type BookingRecord = typeof BookingRecord.Type

/**
 * The answer of `POST /api/public/bookings`: the booking and the widget session it belongs to — the
 * one the request named, or one the booking started — so the chat can move or cancel it.
 */
export const FormBookingRecord = Schema.Struct({ ...BookingRecord.fields, sessionId: Schema.String })
export type FormBookingRecord = typeof FormBookingRecord.Type

/**
 * An item of `GET /api/bookings`, and the answer of `DELETE /api/bookings/:id`: the booking, its
 * status (a cancelled booking stays listed), and what the dashboard shows with it.
 */
export const ListedBooking = Schema.Struct({
  ...BookingRecord.fields,
  status: Schema.Literals(["confirmed", "cancelled"]),
  notes: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
})
export type ListedBooking = typeof ListedBooking.Type

/** `?limit=` (1–100) and `?cursor=` of a list that can grow without bound (docs/contract.md §1). */
export const pageQuery = {
  limit: Schema.optionalKey(PageLimit),
  cursor: Schema.optionalKey(PageCursor),
}

export const ListBookingsQuery = Schema.Struct({ date: Schema.optionalKey(CalendarDate), ...pageQuery })

/** `HH:MM` opening ranges of one weekday; an empty list (or an omitted day) is closed. */
const OpeningRange = Schema.Tuple([ClockTime, ClockTime]).check(
  Schema.makeFilter((range: readonly [string, string]) => range[0] < range[1], {
    expected: "an opening range [open, close] with open before close",
  }),
)
const OpeningRanges = Schema.Array(OpeningRange).check(Schema.isMaxLength(24))

export const WeekdayKeys = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const
export type WeekdayKey = (typeof WeekdayKeys)[number]

export const WeeklyHours = Schema.Struct({
  mon: Schema.optionalKey(OpeningRanges),
  tue: Schema.optionalKey(OpeningRanges),
  wed: Schema.optionalKey(OpeningRanges),
  thu: Schema.optionalKey(OpeningRanges),
  fri: Schema.optionalKey(OpeningRanges),
  sat: Schema.optionalKey(OpeningRanges),
  sun: Schema.optionalKey(OpeningRanges),
})

/** Time zone names are checked against the runtime's IANA database (Intl). */
export const IanaTimeZone = Schema.String.check(
  Schema.makeFilter(
    (zone: string) => {
      if (zone.length === 0 || zone.length > 64) return false
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: zone })
        return true
      } catch {
        return false
      }
    },
    { expected: "an IANA time zone (Europe/Berlin)" },
  ),
)

/** An ISO 3166-1 alpha-2 region that Intl knows ("US", "DE"); how national phone numbers are read. */
export const CountryCode = Schema.String.check(
  Schema.makeFilter(
    (code: string) => {
      if (!/^[A-Z]{2}$/.test(code)) return false
      try {
        return new Intl.DisplayNames(["en"], { type: "region", fallback: "none" }).of(code) !== undefined
      } catch {
        return false
      }
    },
    { expected: "an ISO 3166-1 alpha-2 country code (US, DE)" },
  ),
)

export const PutBookingSettingsRequest = Schema.Struct({
  timezone: IanaTimeZone,
  /** Omitted: `US`. */
  country: Schema.optionalKey(CountryCode),
  services: Schema.Array(Text(1, 100).check(Schema.isPattern(/\S/u, { expected: "a service name" }))).check(
    Schema.isMinLength(1),
    Schema.isMaxLength(50),
  ),
  slotMinutes: Schema.Int.check(Schema.isBetween({ minimum: 5, maximum: 480 })),
  capacity: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 })),
  hours: WeeklyHours,
})
export type PutBookingSettingsRequest = typeof PutBookingSettingsRequest.Type

export const BookingSettingsRecord = Schema.Struct({
  timezone: Schema.String,
  country: Schema.String,
  services: Schema.Array(Schema.String),
  slotMinutes: Schema.Number,
  capacity: Schema.Number,
  hours: Schema.Record(Schema.String, Schema.Array(Schema.Tuple([Schema.String, Schema.String]))),
})

export const BookingParams = Schema.Struct({ id: Text(1, 100) })

/** The languages the assistant speaks (docs/contract.md §8). */
export const AssistantLanguage = Schema.Literals(["en", "es", "de", "fr", "pt"])
export type AssistantLanguage = typeof AssistantLanguage.Type

export const AssistantFaq = Schema.Struct({ question: Text(1, 1000), answer: Text(1, 1000) })

const OptionalText = (max: number) => Schema.optionalKey(Schema.String.check(Schema.isMaxLength(max)))

/** `PUT /api/assistant/profile` (docs/contract.md §8); the first language is the default. */
export const PutAssistantProfileRequest = Schema.Struct({
  businessName: Text(1, 100).check(Schema.isPattern(/\S/u, { expected: "a business name" })),
  languages: Schema.Array(AssistantLanguage).check(Schema.isMinLength(1), Schema.isMaxLength(10)),
  greeting: OptionalText(1000),
  about: OptionalText(2000),
  faqs: Schema.Array(AssistantFaq).check(Schema.isMaxLength(200)),
  handoffMessage: OptionalText(1000),
})
export type PutAssistantProfileRequest = typeof PutAssistantProfileRequest.Type

export const AssistantProfileRecord = Schema.Struct({
  businessName: Schema.String,
  languages: Schema.Array(AssistantLanguage),
  greeting: Schema.optionalKey(Schema.String),
  about: Schema.optionalKey(Schema.String),
  faqs: Schema.Array(Schema.Struct({ question: Schema.String, answer: Schema.String })),
  handoffMessage: Schema.optionalKey(Schema.String),
})
export type AssistantProfileRecord = typeof AssistantProfileRecord.Type

export const ListLeadsQuery = Schema.Struct({ ...pageQuery, type: Schema.optionalKey(LeadType) })

/** `GET /api/leads/export`'s query: the same `type` filter as the list, so an export is what the list shows. */
export const ExportLeadsQuery = Schema.Struct({ type: Schema.optionalKey(LeadType) })

export const LeadRecord = Schema.Struct({
  id: Schema.String,
  phone: Schema.String,
  name: Schema.String,
  type: Schema.String,
  booking: Schema.NullOr(Booking),
  source: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type LeadRecord = typeof LeadRecord.Type

/** List answers (docs/contract.md §1's `{ data, nextCursor }`). */
export const ListLeadsResponse = Schema.Struct({
  data: Schema.Array(LeadRecord),
  nextCursor: Schema.NullOr(Schema.String),
})
export const ListBookingsResponse = Schema.Struct({
  data: Schema.Array(ListedBooking),
  nextCursor: Schema.NullOr(Schema.String),
})
