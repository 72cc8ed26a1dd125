import { addDays, minutesOf, timeFromMinutes, weekdayOf } from "./calendar-date.ts"
import type { Language, PerLanguage } from "./text.ts"

/**
 * Spans of time a visitor names that are not one day or one hour (`when.ts` reads those): a part of
 * the day ("in the afternoon", "por la tarde", "am Nachmittag", "l'après-midi", "à tarde") and a
 * week ("next week", "la semana que viene", "nächste Woche", "la semaine prochaine", "semana que
 * vem"). A part of the day narrows the times offered; a week is where a weekday named alone falls,
 * in this message or a later one ("next week?" … "Tuesday at 10" is next week's Tuesday).
 * Written for lower-case text with its accents.
 */
export type PartOfDay = "morning" | "afternoon" | "evening"

/** Each part's words; a greeting ("good afternoon", "buenas tardes", "guten Abend") names none. */
const PARTS: PerLanguage<ReadonlyArray<readonly [PartOfDay, RegExp]>> = {
  en: [
    ["morning", /(?<![\p{L}])(?<!good\s)mornings?(?![\p{L}])/u],
    ["afternoon", /(?<![\p{L}])(?<!good\s)afternoons?(?![\p{L}])/u],
    ["evening", /(?<![\p{L}])(?:(?<!good\s)evenings?|tonight)(?![\p{L}])/u],
  ],
  es: [
    ["morning", /(?<![\p{L}])(?:por|de|en|a)\s+la\s+ma[nñ]ana(?![\p{L}])|(?<![\p{L}])esta\s+ma[nñ]ana(?![\p{L}])/u],
    ["afternoon", /(?<![\p{L}])(?:(?:por|de|en|a)\s+la|esta)\s+tarde(?![\p{L}])/u],
    ["evening", /(?<![\p{L}])(?:(?:por|de|en|a)\s+la|esta)\s+noche(?![\p{L}])/u],
  ],
  de: [
    ["morning", /(?<![\p{L}])(?:vormittags?|morgens|am\s+morgen|morgen\s+fr[uü]h|fr[uü]hmorgens)(?![\p{L}])/u],
    ["afternoon", /(?<![\p{L}])(?:am\s+)?nachmittags?(?![\p{L}])/u],
    ["evening", /(?<![\p{L}])(?:abends|am\s+abend|heute\s+abend|feierabend)(?![\p{L}])/u],
  ],
  fr: [
    ["morning", /(?<![\p{L}])(?:matin|matinée)(?![\p{L}])/u],
    ["afternoon", /(?<![\p{L}])(?<!bon\s)(?<!bonne\s)(?:apr[eè]s[\s-]midi|aprem)(?![\p{L}])/u],
    ["evening", /(?<![\p{L}])(?:(?:le|ce|du)\s+soir|en\s+soirée)(?![\p{L}])/u],
  ],
  pt: [
    ["morning", /(?<![\p{L}])(?:de|pela|da|na|esta|nesta)\s+(?:parte\s+da\s+)?manh[aã](?![\p{L}])/u],
    ["afternoon", /(?<![\p{L}])(?:[àa]|de|pela|da|na|esta|nesta)\s+(?:parte\s+da\s+)?tarde(?![\p{L}])/u],
    ["evening", /(?<![\p{L}])(?:[àa]|de|pela|da|esta|nesta)\s+noite(?![\p{L}])/u],
  ],
}

/** The part of the day named in `text`, if one is (the first of the list a message names). */
export const partOfDayIn = (text: string, language: Language): PartOfDay | undefined =>
  PARTS[language].find(([, pattern]) => pattern.test(text))?.[0]

/**
 * Where the afternoon starts: in English right after noon ("12:30 PM" is the afternoon); in Spanish,
 * German, French and Portuguese at 13:00, since noon and the lunch hour are their own part of the day
 * ("mediodía", "Mittag", "midi", "meio-dia") and the first afternoon hour is "la una de la tarde",
 * "ein Uhr nachmittags", "treize heures", "uma da tarde".
 */
const AFTERNOON_FROM: PerLanguage<string> = { en: "12:01", es: "13:00", de: "13:00", fr: "13:00", pt: "13:00" }

/** Whether `time` (`HH:MM`) falls in `part`: the morning before noon, the afternoon after it, the evening from 17:00. */
export const inPartOfDay = (time: string, part: PartOfDay, language: Language = "en"): boolean =>
  part === "morning"
    ? time < "12:00"
    : part === "afternoon"
      ? time >= AFTERNOON_FROM[language] && time < "18:00"
      : time >= "17:00"

const NEXT_WEEK: PerLanguage<RegExp> = {
  en: /(?<![\p{L}])(?:(?:the\s+)?(?:next|following|coming)\s+week|the\s+week\s+after\s+this(?:\s+one)?)(?![\p{L}])/u,
  es: /(?<![\p{L}])(?:(?:la\s+)?semana\s+(?:que\s+viene|pr[oó]xima|siguiente)|(?:la\s+)?pr[oó]xima\s+semana)(?![\p{L}])/u,
  de: /(?<![\p{L}])(?:n[aä]chste[nr]?|kommende[nr]?|folgende[nr]?)\s+woche(?![\p{L}])/u,
  fr: /(?<![\p{L}])(?:(?:la\s+)?semaine\s+(?:prochaine|suivante|d'apr[eè]s)|(?:la\s+)?prochaine\s+semaine)(?![\p{L}])/u,
  pt: /(?<![\p{L}])(?:(?:a\s+|na\s+)?semana\s+(?:que\s+vem|seguinte)|(?:a\s+|na\s+)?pr[oó]xima\s+semana)(?![\p{L}])/u,
}

/** "Next week" in `text`: the span, and the Monday it starts on (tomorrow, on a Sunday). */
export const nextWeekIn = (
  text: string,
  language: Language,
  today: string,
): { readonly start: string; readonly index: number; readonly length: number } | undefined => {
  const found = NEXT_WEEK[language].exec(text)
  if (found === null) return undefined
  return { start: addDays(today, 8 - (weekdayOf(today) || 7)), index: found.index, length: found[0].length }
}

/** The date of `weekday` (0 = Sunday) in the week that starts on the Monday `start`. */
export const weekdayInWeek = (start: string, weekday: number): string => addDays(start, (weekday + 6) % 7)

/** "In half an hour", "in an hour", "in 20 minutes": minutes from now. */
const IN_A_WHILE: PerLanguage<ReadonlyArray<readonly [RegExp, (n: string | undefined) => number]>> = {
  en: [
    [/(?<![\p{L}])in\s+(?:a\s+)?half\s+(?:an\s+)?hour(?![\p{L}])/u, () => 30],
    [/(?<![\p{L}])in\s+(?:an|one)\s+hour(?![\p{L}])/u, () => 60],
    [/(?<![\p{L}])in\s+(\d{1,3})\s*(?:minutes|mins?)(?![\p{L}])/u, (n) => Number(n)],
  ],
  es: [
    [/(?<![\p{L}])(?:en|dentro\s+de)\s+media\s+hora(?![\p{L}])/u, () => 30],
    [/(?<![\p{L}])(?:en|dentro\s+de)\s+una\s+hora(?![\p{L}])/u, () => 60],
    [/(?<![\p{L}])(?:en|dentro\s+de)\s+(\d{1,3})\s*minutos(?![\p{L}])/u, (n) => Number(n)],
  ],
  de: [
    [/(?<![\p{L}])in\s+einer\s+halben\s+stunde(?![\p{L}])/u, () => 30],
    [/(?<![\p{L}])in\s+einer\s+stunde(?![\p{L}])/u, () => 60],
    [/(?<![\p{L}])in\s+(\d{1,3})\s*minuten(?![\p{L}])/u, (n) => Number(n)],
  ],
  fr: [
    [/(?<![\p{L}])dans\s+une\s+demi-?\s*heure(?![\p{L}])/u, () => 30],
    [/(?<![\p{L}])dans\s+une\s+heure(?![\p{L}])/u, () => 60],
    [/(?<![\p{L}])dans\s+(\d{1,3})\s*minutes(?![\p{L}])/u, (n) => Number(n)],
  ],
  pt: [
    [/(?<![\p{L}])(?:daqui\s+a|em|dentro\s+de)\s+meia\s+hora(?![\p{L}])/u, () => 30],
    [/(?<![\p{L}])(?:daqui\s+a|em|dentro\s+de)\s+uma\s+hora(?![\p{L}])/u, () => 60],
    [/(?<![\p{L}])(?:daqui\s+a|em|dentro\s+de)\s+(\d{1,3})\s*minutos(?![\p{L}])/u, (n) => Number(n)],
  ],
}

/**
 * "In half an hour" from the organization's wall clock `now` (`HH:MM` on `today`): the date and time
 * it names, and its span in `text`; past midnight it is tomorrow's.
 */
export const inAWhileIn = (
  text: string,
  language: Language,
  today: string,
  now: string,
): { readonly date: string; readonly time: string; readonly index: number; readonly length: number } | undefined => {
  for (const [pattern, minutes] of IN_A_WHILE[language]) {
    const found = pattern.exec(text)
    if (found === null) continue
    const at = minutesOf(now) + minutes(found[1])
    if (!(at > minutesOf(now)) || at >= 2 * 24 * 60) return undefined
    const date = at >= 24 * 60 ? addDays(today, 1) : today
    return { date, time: timeFromMinutes(at % (24 * 60)), index: found.index, length: found[0].length }
  }
  return undefined
}
