import { dateOf } from "./calendar-date.ts"
import { fold, type Language, type PerLanguage } from "./text.ts"

/**
 * Two things a visitor writes that a date parser passes over in silence (issue #23), for lower-case
 * text (`when.ts`):
 * - a date that does not exist ("the 31st of November", "el 31 de noviembre", "30. Februar"): said to
 *   be impossible, never read as another day or left out (which made the dialogue guess today);
 * - an hour given alone as a correction ("make it 11", "I meant 11 not 10", "11 instead", "lieber
 *   11", "plutôt 11", "melhor 11"): the hour asked for, though no "at" or "am" stands before it.
 */

/** Month names, folded, in the order of the year (a short form after its long one). */
const MONTHS: PerLanguage<ReadonlyArray<string>> = {
  en: [
    "jan(?:uary)?",
    "feb(?:ruary)?",
    "mar(?:ch)?",
    "apr(?:il)?",
    "may",
    "june?",
    "july?",
    "aug(?:ust)?",
    "sep(?:t(?:ember)?)?",
    "oct(?:ober)?",
    "nov(?:ember)?",
    "dec(?:ember)?",
  ],
  es: [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "sept?iembre",
    "octubre",
    "noviembre",
    "diciembre",
  ],
  de: [
    "jan(?:uar)?|janner",
    "feb(?:ruar)?",
    "marz",
    "apr(?:il)?",
    "mai",
    "juni",
    "juli",
    "aug(?:ust)?",
    "sep(?:tember)?",
    "okt(?:ober)?",
    "nov(?:ember)?",
    "dez(?:ember)?",
  ],
  fr: [
    "janv(?:ier)?",
    "fevr?(?:ier)?",
    "mars",
    "avr(?:il)?",
    "mai",
    "juin",
    "juil(?:let)?",
    "aout",
    "sept(?:embre)?",
    "oct(?:obre)?",
    "nov(?:embre)?",
    "dec(?:embre)?",
  ],
  pt: [
    "janeiro",
    "fevereiro",
    "marco",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
  ],
}

const monthAlternation = (language: Language): string => MONTHS[language].map((month) => `(${month})`).join("|")

const monthIndex = (groups: ReadonlyArray<string | undefined>): number => groups.findIndex((g) => g !== undefined) + 1

/** Whether day `day` of month `month` exists this year or the next (the 29th of February in a leap year). */
const exists = (today: string, month: number, day: number): boolean => {
  const year = Number(today.slice(0, 4))
  return dateOf(year, month, day) !== undefined || dateOf(year + 1, month, day) !== undefined
}

/** Where a day of a named month that no year of the next two has ("the 31st of November") is written. */
export const impossibleDateIn = (
  text: string,
  language: Language,
  today: string,
): { readonly start: number; readonly end: number } | undefined => {
  const folded = fold(text)
  const months = monthAlternation(language)
  const count = MONTHS[language].length
  const dayFirst = new RegExp(
    `(?<![\\p{L}\\p{N}])(\\d{1,2})(?:st|nd|rd|th|er|º|ª)?\\.?\\s*(?:of\\s+|de\\s+)?(?:${months})(?![\\p{L}])`,
    "u",
  ).exec(folded)
  const monthFirst =
    language === "en"
      ? new RegExp(`(?<![\\p{L}])(?:${months})\\.?\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?(?![\\p{N}:.])`, "u").exec(
          folded,
        )
      : null
  for (const [found, day, months] of [
    [dayFirst, dayFirst?.[1], dayFirst?.slice(2, 2 + count)],
    [monthFirst, monthFirst?.[count + 1], monthFirst?.slice(1, 1 + count)],
  ] as const) {
    if (found === null || day === undefined || months === undefined) continue
    const [number, month] = [Number(day), monthIndex(months)]
    if (number >= 1 && number <= 31 && month >= 1 && !exists(today, month, number)) {
      // Folding keeps the text's length but for "ß" (no month name has one).
      if (folded.length !== text.length) return undefined
      return { start: found.index, end: found.index + found[0].length }
    }
  }
  return undefined
}

/** A bare hour after (or before) the words that correct one, in each language; the hour is group 1, minutes group 2. */
const HOUR = "(\\d{1,2})(?:[:.h](\\d{2}))?"
const NOT_A_COUNT =
  "(?![\\p{N}:.]|\\s*(?:people|persons?|personas?|personen|personnes|pessoas|min|minut|hour|hora|stunde|heure|day|dia|tag|jour|week|semana|woche|semaine|%|\\$|€))"
const CORRECTION: PerLanguage<ReadonlyArray<RegExp>> = {
  en: [
    new RegExp(
      `(?<![\\p{L}])(?:make\\s+it|meant|rather|how\\s+about|what\\s+about|change\\s+(?:it\\s+)?to|(?:can|could)\\s+(?:we|i|you)\\s+do|let'?s\\s+(?:do|say))\\s+(?:at\\s+)?${HOUR}${NOT_A_COUNT}`,
      "u",
    ),
    new RegExp(`(?<![\\p{L}\\p{N}])${HOUR}\\s+instead`, "u"),
  ],
  es: [
    new RegExp(
      `(?<![\\p{L}])(?:mejor|quer[ií]a\\s+decir|que\\s+sea|c[aá]mbia(?:lo|la)?\\s+a|ponlo\\s+a|ponla\\s+a)\\s+(?:a\\s+)?(?:las\\s+|la\\s+)?${HOUR}${NOT_A_COUNT}`,
      "u",
    ),
    new RegExp(`(?<![\\p{L}\\p{N}])${HOUR}\\s+en\\s+(?:vez|lugar)`, "u"),
  ],
  de: [
    new RegExp(
      `(?<![\\p{L}])(?:lieber|eher|meinte|machen\\s+wir)\\s+(?:doch\\s+)?(?:um\\s+)?${HOUR}${NOT_A_COUNT}`,
      "u",
    ),
    new RegExp(`(?<![\\p{L}\\p{N}])${HOUR}\\s+(?:stattdessen|statt)`, "u"),
  ],
  fr: [
    new RegExp(
      `(?<![\\p{L}])(?:plut[oô]t|je\\s+voulais\\s+dire|disons|mettez(?:-le)?|mets(?:-le)?)\\s+(?:[àa]\\s+)?${HOUR}${NOT_A_COUNT}`,
      "u",
    ),
    new RegExp(`(?<![\\p{L}\\p{N}])${HOUR}\\s+plut[oô]t`, "u"),
  ],
  pt: [
    new RegExp(
      `(?<![\\p{L}])(?:melhor|quis\\s+dizer|queria\\s+dizer|pode\\s+ser|prefiro)\\s+(?:[àa]s\\s+)?${HOUR}${NOT_A_COUNT}`,
      "u",
    ),
    new RegExp(`(?<![\\p{L}\\p{N}])${HOUR}\\s+em\\s+(?:vez|lugar)`, "u"),
  ],
}

/** The hour a correction names ("make it 11"): hour and minutes as written, or undefined. */
export const correctedHourIn = (text: string, language: Language): { hour: number; minute: number } | undefined => {
  for (const pattern of CORRECTION[language]) {
    const found = pattern.exec(text)
    if (found?.[1] === undefined) continue
    const [hour, minute] = [Number(found[1]), Number(found[2] ?? "0")]
    if (hour >= 1 && hour <= 23 && minute < 60) return { hour, minute }
  }
  return undefined
}
