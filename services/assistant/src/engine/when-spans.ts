import { addDays, weekdayOf } from "./calendar-date.ts"
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

/** Whether `time` (`HH:MM`) falls in `part`: the morning before noon, the evening from 17:00. */
export const inPartOfDay = (time: string, part: PartOfDay): boolean =>
  part === "morning" ? time < "12:00" : part === "afternoon" ? time >= "12:00" && time < "18:00" : time >= "17:00"

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
