/**
 * Every sentence the deterministic engine writes, one implementation per language (en, es, de, fr,
 * pt). Arguments arrive already formatted for the language (see `format.ts`); `name` is the
 * visitor's name or `undefined`.
 */
export interface Catalog {
  greeting(business: string): string
  menu(business: string): string
  /**
   * A bare "hello" on the widget, which showed the greeting before the visitor typed: short, not the
   * greeting again, asking what they need.
   */
  helloBack(): string
  niceToMeet(name: string): string
  /** A name sent after a booking made without one (a channel's): thanks by name, the booking said again. */
  nameNoted(name: string, day: string, time: string): string
  closing(name: string | undefined): string
  /** Thanks after a booking was confirmed: a warm closing with the booking's day and time. */
  closingBooked(name: string | undefined, day: string, time: string): string
  /** "Ok", "great", "no" after a booking was confirmed and nothing was asked: the booking's day and time. */
  allSet(name: string | undefined, day: string, time: string): string
  /** "Ok", "great", "no" after a reply that asked nothing (an answer, a callback noted). */
  noted(name: string | undefined): string
  /** A "no" to the times, the day or the slot offered: which other day or time. */
  otherTime(): string
  /** A "yes" to "would another day suit you?" / "would you like to book another time?": which day. */
  whichDay(): string
  /** A "yes" to "is there anything else I can help with?". */
  whatElse(): string

  askPhoneForCallback(name: string | undefined): string
  askPhoneForDemo(name: string | undefined): string
  callbackNoted(name: string | undefined, phone: string): string
  demoNoted(name: string | undefined, phone: string): string
  numberNoted(name: string | undefined, phone: string): string
  /** A number (or a name) given while offered times wait for a choice: noted, and the time asked for again. */
  numberNotedWhichTime(name: string | undefined, phone: string, day: string): string
  nameNotedWhichTime(name: string, day: string): string
  phoneCorrected(phone: string): string
  callWithdrawn(name: string | undefined): string
  /**
   * Asked for no more messages on a phone channel: how to stop them — §9's stop word of the language
   * (STOP, BAJA, ABMELDEN, ARRET, PARAR), which messaging records as an opt-out; STOP works in all.
   */
  howToStopMessages(): string
  /** Asked for no more messages on the widget, where no stop word applies: not contacted unless asked. */
  notContacted(): string

  /** Free times of a day; `day` is a formatted date. */
  offerTimes(service: string, day: string, times: string): string
  dayFull(service: string, day: string): string
  closedDay(day: string, nextOpen: string | undefined): string
  pastTime(day: string, time: string, later: string | undefined): string
  slotNotOffered(day: string, time: string, times: string): string
  outsideHours(day: string, time: string, ranges: string, times: string): string
  slotTaken(day: string, time: string, times: string): string
  noOpenDay(service: string): string
  whichTime(day: string): string
  /** A weekday and a bare number after it whose date is weeks away ("el lunes 10"): which of two days. */
  whichDate(first: string, second: string): string
  weekdayMismatch(named: string, byWeekday: string, byDay: string): string

  askName(service: string, day: string, time: string): string
  /** A slot on a day the visitor did not name (today, the next open day): booked only if they accept. */
  proposeSlot(service: string, day: string, time: string): string
  askPhoneForBooking(name: string | undefined): string
  booked(name: string | undefined, service: string, day: string, time: string): string
  cancelled(service: string, day: string, time: string): string
  /**
   * Asked to cancel a booking on a day or at a time the booking held is not: nothing is cancelled,
   * the booking held is said, and how to cancel that one.
   */
  notThatBooking(named: string, service: string, day: string, time: string): string
  nothingToCancel(): string
  moved(service: string, day: string, time: string): string
  /** Asked about the booking held ("is my appointment still on?"): that booking. */
  yourBooking(service: string, day: string, time: string): string
  /** Asked about a booking when none is held by this conversation (or its widget form). */
  noBookingHeld(): string
  /** A date that does not exist ("the 31st of November"), as the visitor wrote it. */
  noSuchDate(written: string): string
  /** Several services and none named: which one (`list` already joined). */
  whichService(list: string): string
  /** A number that is no phone number of the organization's country, as written: checked with the visitor. */
  checkNumber(written: string): string

  hours(week: string): string
  hoursOn(day: string, ranges: string): string
  closedOn(day: string): string
  /**
   * Asked "are you open now?" (or until when today) while open: `close` is when this opening range
   * ends; `later` today's opening ranges after it (a reopening after a lunch break), if any; `yes`
   * false for a when-question ("when do you close today?"), which no "yes" answers.
   */
  openNow(close: string, later?: string, yes?: boolean): string
  /** Closed at this moment; open again today at `time`. */
  closedNowOpensToday(time: string): string
  /** Closed at this moment and for the rest of today; open again on `day` at `time`. */
  closedNowOpensOn(day: string, time: string): string
  /** A time asked for today after today's closing: `nextOpen` the next open day, if any. */
  closedForToday(nextOpen: string | undefined): string
  /** The services; `offerBooking` false beside a booking already under way (no "would you like to book one?"). */
  services(list: string, offerBooking?: boolean): string
  about(business: string, about: string | undefined): string
  dontKnow(): string
  /** After an answer that does not state the kind of fact asked ("we do whitening" to "how much?"). */
  cannotTell(kind: "price" | "location"): string
  /** A callback offered after `cannotTell` (the profile's `handoffMessage` instead when set). */
  offerCallback(): string
  /** A step failed on our side (the calendar, the database): said as such, nothing promised. */
  stepFailed(): string
  /** "Monday to Friday 9:00–18:00; Saturday 10:00–14:00; closed on Sunday" pieces. */
  weekRange(first: string, last: string): string
  closedDays(days: string): string
}

/**
 * A sentence that starts with what the business typed ("consultation") starts with a capital letter:
 * the service name keeps its own spelling elsewhere in the sentence.
 */
export const sentenceStart = (text: string): string => text.replace(/^\p{Ll}/u, (letter) => letter.toLocaleUpperCase())
