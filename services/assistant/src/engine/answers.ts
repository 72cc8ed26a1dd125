import { openingRangesOn } from "../bookings/settings.ts"
import { addDays } from "./calendar-date.ts"
import type { Catalog, Formats } from "./messages/index.ts"
import type { EngineContext } from "./profile.ts"
import type { MessageFacts } from "./read-message.ts"
import { fold } from "./text.ts"

/**
 * Answers to questions, from what the business configured: its opening hours and services (the
 * booking settings), its name and description, and the best-matching FAQ; otherwise an honest "I
 * don't know" with a callback offered (the profile's `handoffMessage` when set). Pure.
 */

/** A week of dates (2026-11-22 is a Sunday) to name weekdays through Intl. */
const WEEKDAY_DATES = ["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28"]

/** "9:00 AM–6:00 PM" or "9:00–12:00 and 14:00–18:00" for the opening ranges of a weekday. */
export const rangesText = (context: EngineContext, formats: Formats, date: string): string =>
  formats.list(openingRangesOn(context.settings, date).map(([open, close]) => formats.range(open, close)))

/** The week's opening hours, consecutive days with the same hours grouped: "Monday to Friday 9–18, …". */
export const weekText = (context: EngineContext, formats: Formats, catalog: Catalog): string => {
  const order = [1, 2, 3, 4, 5, 6, 0]
  const groups: Array<{ days: Array<number>; hours: string }> = []
  for (const day of order) {
    const hours = rangesText(context, formats, WEEKDAY_DATES[day] ?? "")
    const last = groups.at(-1)
    if (last !== undefined && last.hours === hours && last.days.at(-1) === (day === 0 ? 6 : day - 1))
      last.days.push(day)
    else groups.push({ days: [day], hours })
  }
  const name = (day: number) => formats.weekday(WEEKDAY_DATES[day] ?? "")
  const open = groups
    .filter((group) => group.hours !== "")
    .map((group) => {
      const first = group.days[0] ?? 1
      const last = group.days.at(-1) ?? first
      const days = group.days.length === 1 ? name(first) : catalog.weekRange(name(first), name(last))
      return `${days} ${group.hours}`
    })
  const closed = groups.filter((group) => group.hours === "").flatMap((group) => group.days.map(name))
  return [...open, ...(closed.length === 0 ? [] : [catalog.closedDays(formats.list(closed))])].join("; ")
}

/** An answer, and whether it ends by offering a callback (a "yes" to it is a callback request). */
export interface Answered {
  readonly text: string
  readonly callbackOffered: boolean
}

/**
 * The answer to a question in `facts`, or `undefined` when the message asks nothing we can tell.
 * `besideBooking`: a booking is under way in the same reply, so the services are not followed by
 * "would you like to book one?".
 */
export const answerQuestion = (
  facts: MessageFacts,
  context: EngineContext,
  catalog: Catalog,
  formats: Formats,
  besideBooking = false,
): Answered | undefined => {
  const services = () => catalog.services(formats.list(context.settings.services), !besideBooking)
  const text = answerText(facts, context, catalog, formats, services)
  if (text !== undefined) return { text, callbackOffered: false }
  const faq = facts.faq()
  // "Do you do straight-razor shaves?" names one of the services by its name: an entry that does not
  // speak of it (how long a shave takes) is not the answer; the services, which name it, are.
  if (
    facts.service !== undefined &&
    facts.intents.question &&
    DOES_IT.test(fold(facts.text)) &&
    fold(facts.text).includes(fold(facts.service)) &&
    (faq === undefined || !speaksOf(faq, facts.service))
  ) {
    return { text: services(), callbackOffered: false }
  }
  if (faq === undefined) return undefined
  if (faq.missing.length === 0) return { text: faq.answer, callbackOffered: false }
  // The part it can answer ("we do whitening"), then that it cannot tell the price, and a callback.
  const cannot = faq.missing.map((kind) => catalog.cannotTell(kind)).join(" ")
  const offer = context.profile.handoffMessage?.trim() || catalog.offerCallback()
  return { text: `${faq.answer} ${cannot} ${offer}`, callbackOffered: true }
}

const answerText = (
  facts: MessageFacts,
  context: EngineContext,
  catalog: Catalog,
  formats: Formats,
  services: () => string,
): string | undefined => {
  const { intents } = facts
  // Two questions in one message ("what do you offer, and when do you open tomorrow?") get both
  // answers: the hours, the business, then the services (whose answer ends by offering a booking).
  const parts = [
    intents.hours ? hoursAnswer(facts, context, catalog, formats) : undefined,
    intents.businessName ? catalog.about(context.profile.businessName, context.profile.about) : undefined,
    intents.services ? services() : undefined,
  ].filter((part) => part !== undefined)
  return parts.length === 0 ? undefined : parts.join(" ")
}

const hoursAnswer = (facts: MessageFacts, context: EngineContext, catalog: Catalog, formats: Formats): string => {
  const date = facts.when.date
  if (facts.intents.now && (date === undefined || date === context.today)) {
    return openNow(context, catalog, formats, !WHEN_QUESTION.test(fold(facts.text)))
  }
  if (date !== undefined) {
    const ranges = rangesText(context, formats, date)
    const day = formats.weekday(date)
    return ranges === "" ? catalog.closedOn(day) : catalog.hoursOn(day, ranges)
  }
  return catalog.hours(weekText(context, formats, catalog))
}

/**
 * Whether an entry's answer speaks of a service (each of its words of four letters or more): the
 * answer is what the visitor reads, without the FAQ's question ("about 40 minutes" does not say the
 * shave is done).
 */
const speaksOf = (faq: { readonly answer: string }, service: string): boolean => {
  const text = fold(faq.answer)
  return fold(service)
    .split(/[^\p{L}]+/u)
    .every((word) => word.length < 4 || text.includes(word))
}

/** "Do you do / offer / make …?" in the five languages (folded). */
const DOES_IT =
  /(?<![\p{L}])(?:do\s+(?:you|u|y'all)(?:\s+guys)?\s+(?:do|offer|have)|hac(?:en|eis)|ofrec(?:en|eis)|tienen|macht\s+ihr|machen\s+sie|bietet\s+ihr|bieten\s+sie|vous\s+faites|faites[\s-]vous|proposez|fazem|voces\s+fazem|vcs\s+fazem|oferecem)(?![\p{L}])/u

/** A question asking when (not whether): "when do you close today?", "¿a qué hora cierran?", "bis wann?" (folded). */
const WHEN_QUESTION =
  /(?<![\p{L}])(?:when|what\s+time|till\s+when|until\s+when|how\s+late|cuando|a\s+que\s+hora|hasta\s+que\s+hora|wann|um\s+wie\s*viel\s+uhr|wie\s+lange|quand|a\s+quelle\s+heure|jusqu'a\s+quelle\s+heure|quando|a\s+que\s+horas|que\s+horas|ate\s+que\s+horas)(?![\p{L}])/u

/** What to say when a question has no answer here. */
export const dontKnow = (context: EngineContext, catalog: Catalog): string =>
  context.profile.handoffMessage?.trim() || catalog.dontKnow()

/**
 * "Are you open now?", "until when today?": answered from the opening hours at the organization's
 * wall clock — open until when, or when it opens again (today, or the next open day within a week).
 */
export const openNow = (context: EngineContext, catalog: Catalog, formats: Formats, yes = true): string => {
  const { today, nowTime } = context
  const ranges = openingRangesOn(context.settings, today)
  const current = ranges.find(([open, close]) => nowTime >= open && nowTime < close)
  if (current !== undefined) {
    // Closing for lunch is not closing for the day: the afternoon's hours are said too.
    const later = ranges.filter(([open]) => open >= current[1])
    return catalog.openNow(
      formats.time(current[1]),
      later.length === 0 ? undefined : formats.list(later.map(([open, close]) => formats.range(open, close))),
      yes,
    )
  }
  const later = ranges.find(([open]) => open > nowTime)
  if (later !== undefined) {
    return `${catalog.closedNowOpensToday(formats.time(later[0]))} ${catalog.hoursOn(formats.weekday(today), rangesText(context, formats, today))}`
  }
  for (let ahead = 1; ahead <= 7; ahead++) {
    const date = addDays(today, ahead)
    const [first] = openingRangesOn(context.settings, date)
    if (first !== undefined) return catalog.closedNowOpensOn(formats.date(date), formats.time(first[0]))
  }
  return catalog.hours(weekText(context, formats, catalog))
}
