import * as chrono from "chrono-node"
import { addDays, dateOf, timeOf, weekdayOf } from "./calendar-date.ts"
import type { Language, PerLanguage } from "./text.ts"
import { correctedHourIn, impossibleDateIn } from "./when-corrections.ts"
import { inAWhileIn, nextWeekIn, type PartOfDay, partOfDayIn, weekdayInWeek } from "./when-spans.ts"

/**
 * The date and time a visitor names, read in their language relative to `today` (the
 * organization's wall date) with chrono-node, plus what chrono leaves out in these five languages
 * and what a booking needs that a date parser does not give:
 * - a weekday and a day of the month that disagree ("Thursday the 4th" when the 4th is a Friday)
 *   are both kept, so the dialogue asks instead of picking one;
 * - a day of the month alone ("the 5th", "el 3", "am 3.", "le 3", "dia 3") is this month's, or
 *   next month's once it has passed;
 * - "the day after tomorrow", "in two days", "half past two", British "half two", "halb drei",
 *   "y media", "et demie", "e meia", "14h30", "noon" in each language;
 * - an hour from 1 to 7 with no am/pm is an afternoon hour (nobody books 2 in the morning).
 * Times are `HH:MM` on the wall clock, dates `YYYY-MM-DD`.
 */
export interface NamedWhen {
  readonly date?: string
  readonly time?: string
  /** The weekday named (0 = Sunday), when one was. */
  readonly weekday?: number
  /** The date comes from a weekday alone ("Friday": the next one), no day of the month was named. */
  readonly weekdayOnly?: boolean
  /** A weekday and a day of the month that are not the same day: the dates each would give. */
  readonly conflict?: { readonly byWeekday: string; readonly byDay: string }
  /** "the first one", "earliest": the earliest free slot of the day in play. */
  readonly earliest: boolean
  /** The hour was named without am/pm and read as an afternoon one ("at 3" → 15:00). */
  readonly hourShifted?: boolean
  /** A part of the day named ("tomorrow afternoon"): the times offered are that part's. */
  readonly partOfDay?: PartOfDay
  /** "Next week": the Monday it starts on; a weekday named alone falls in it. */
  readonly week?: string
  /**
   * The weekday named alone is today's and the time named with it has passed ("Saturday at 11" on a
   * Saturday afternoon): the date is the same weekday a week on, a guess the visitor must accept.
   */
  readonly weekOn?: boolean
  /** A date that does not exist ("the 31st of November"), as written: nothing else is read. */
  readonly impossible?: string
}

const WEEKDAYS: PerLanguage<ReadonlyArray<string>> = {
  en: [
    "sun(?:day)?",
    "mon(?:day)?",
    "tue(?:s|sday)?",
    "wed(?:nesday)?",
    "thu(?:r|rs|rsday)?",
    "fri(?:day)?",
    "sat(?:urday)?",
  ],
  es: ["domingo", "lunes", "martes", "mi[eé]rcoles", "jueves", "viernes", "s[aá]bado"],
  de: ["sonntag", "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag|sonnabend"],
  fr: ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
  pt: [
    "domingo",
    "segunda(?:-feira)?",
    "ter[cç]a(?:-feira)?",
    "quarta(?:-feira)?",
    "quinta(?:-feira)?",
    "sexta(?:-feira)?",
    "s[aá]bado",
  ],
}

const NUMBER_WORDS: PerLanguage<ReadonlyArray<string>> = {
  en: ["one|a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"],
  es: ["una|uno|un", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce"],
  de: [
    "eins|ein|einem|einen",
    "zwei",
    "drei",
    "vier",
    "f[uü]nf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "zehn",
    "elf",
    "zw[oö]lf",
  ],
  fr: [
    "une|un",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "six",
    "sept",
    "huit",
    "neuf",
    "dix",
    "onze",
    "douze",
    // The 24-hour clock in words ("quinze heures trente").
    "treize",
    "quatorze",
    "quinze",
    "seize",
    "dix-sept",
    "dix-huit",
    "dix-neuf",
    "vingt",
  ],
  pt: ["uma|um", "duas|dois", "tr[eê]s", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez", "onze", "doze"],
}

const compiled = new Map<string, RegExp>()
const re = (source: string): RegExp => {
  let pattern = compiled.get(source)
  if (pattern === undefined) {
    pattern = new RegExp(source, "u")
    compiled.set(source, pattern)
  }
  return pattern
}

const B = "(?<![\\p{L}\\p{N}])"
const E = "(?![\\p{L}\\p{N}])"

const numberPattern = (language: Language): string => `(\\d{1,2}|${NUMBER_WORDS[language].join("|")})`

const numberValue = (language: Language, word: string): number => {
  if (/^\d+$/.test(word)) return Number(word)
  const index = NUMBER_WORDS[language].findIndex((pattern) => re(`^(?:${pattern})$`).test(word))
  return index === -1 ? Number.NaN : index + 1
}

const weekdayPattern = (language: Language): RegExp =>
  re(`${B}(${WEEKDAYS[language].map((w) => `(?:${w})`).join("|")})\\.?${E}`)

/** Words before the weekday a visitor moves to: "move it to Wednesday", "auf Mittwoch", "para quarta". */
const TO_WEEKDAY: PerLanguage<RegExp> = {
  en: /(?<![\p{L}])(?:to|for|until|till)\s+(?:the\s+|this\s+|next\s+)?$/u,
  es: /(?<![\p{L}])(?:al|para\s+el|para|a\s+el)\s+(?:pr[oó]ximo\s+)?$/u,
  de: /(?<![\p{L}])(?:auf|zum|zu|f[uü]r)\s+(?:den\s+|n[aä]chsten\s+)?$/u,
  fr: /(?<![\p{L}])(?:[àa]|au|pour)\s+(?:ce\s+)?$/u,
  pt: /(?<![\p{L}])(?:para|pra|p'ra)\s+(?:a\s+|o\s+|na\s+|no\s+)?(?:pr[oó]xim[ao]\s+)?$/u,
}

/**
 * The weekday asked for: the first named, unless another is named as where to go ("Tuesday won't
 * work, can you move it to Wednesday?").
 */
const wantedWeekday = (language: Language, text: string): RegExpExecArray | null => {
  const first = weekdayPattern(language).exec(text)
  if (first === null) return null
  const all = new RegExp(weekdayPattern(language).source, "gu")
  let target: RegExpExecArray | null = null
  for (let found = all.exec(text); found !== null; found = all.exec(text)) {
    if (found.index > first.index && TO_WEEKDAY[language].test(text.slice(0, found.index))) target = found
  }
  return target ?? first
}

/**
 * Words that make a weekday the next one rather than the nearest: "next Saturday", "el sábado que
 * viene", "nächsten Samstag", "samedi prochain", "no próximo sábado". On that weekday itself, they
 * mean a week on; without them, the weekday that is today's is today (see `readWhen`).
 */
const NEXT_OF_A_WEEKDAY: PerLanguage<RegExp> = {
  en: /(?<![\p{L}])(?:next|following|coming)(?![\p{L}])/u,
  es: /(?<![\p{L}])(?:pr[oó]xim[oa]|siguiente|que\s+viene)(?![\p{L}])/u,
  de: /(?<![\p{L}])(?:n[aä]chste[nmrs]?|kommende[nmrs]?|folgende[nmrs]?)(?![\p{L}])/u,
  fr: /(?<![\p{L}])(?:prochain|suivant)(?![\p{L}])/u,
  pt: /(?<![\p{L}])(?:pr[oó]xim[oa]|seguinte|que\s+vem)(?![\p{L}])/u,
}

const weekdayIndex = (language: Language, word: string): number =>
  WEEKDAYS[language].findIndex((pattern) => re(`^(?:${pattern})$`).test(word))

/** "the day after tomorrow": two days from today. */
const DAY_AFTER_TOMORROW: PerLanguage<string> = {
  en: "(?:the\\s+)?day\\s+after\\s+tomorrow",
  es: "pasado\\s+ma[nñ]ana",
  de: "[uü]bermorgen",
  fr: "apr[eè]s[\\s-]demain",
  pt: "depois\\s+de\\s+amanh[aã]",
}

/** "in two days". */
const IN_DAYS: PerLanguage<(n: string) => string> = {
  en: (n) => `in\\s+${n}\\s+days?`,
  es: (n) => `(?:dentro\\s+de|en)\\s+${n}\\s+d[ií]as?`,
  de: (n) => `in\\s+${n}\\s+tag(?:en)?`,
  fr: (n) => `dans\\s+${n}\\s+jours?`,
  pt: (n) => `(?:daqui\\s+a|em|dentro\\s+de)\\s+${n}\\s+dias?`,
}

/** A day of the month named without its month: the capture is the day. */
const DAY_OF_MONTH: PerLanguage<string> = {
  en: "(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)(?!\\s*(?:of\\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))",
  es: "(?:el\\s+(?:d[ií]a\\s+)?|d[ií]a\\s+)(\\d{1,2})(?!\\s*(?:de\\s+\\p{L}|[:.h/]\\d|\\s*h\\b|\\s*(?:am|pm)))",
  de: "(?:am|den|der)\\s+(\\d{1,2})\\.(?!\\s*\\d|\\s*(?:jan|feb|m[aä]r|apr|mai|jun|jul|aug|sep|okt|nov|dez))",
  fr: "(?:le\\s+)(\\d{1,2})(?:er)?(?!\\s*(?:h|:|heures?|janv|f[eé]v|mars|avr|mai|juin|juil|ao[uû]t|sept|oct|nov|d[eé]c)|\\d|/)",
  pt: "(?:(?:no\\s+)?dia\\s+)(\\d{1,2})(?!\\s*(?:de\\s+\\p{L}|[:h/]|\\d))",
}

/**
 * What makes a number written right after a weekday its hour, in any of the five languages: minutes
 * ("10:30", "10.30", "10h30"), am/pm, an hour word ("10 Uhr", "10 horas", "10 hrs", "10 heures",
 * "10 o'clock") or a part of the day ("10 de la mañana", "10 da manhã", "10 du matin").
 */
const HOUR_MARK =
  "[:.,h]\\d|\\s*(?:a\\.?\\s?m\\.?|p\\.?\\s?m\\.?|h|hs|hrs?|horas?|uhr|heures?|o'?clock)(?![\\p{L}])|\\s+(?:e|y|et)\\s+(?:meia|media|demie|cuarto|quart)(?![\\p{L}])|\\s+(?:de\\s+la|da|de|du|in\\s+the)\\s+(?:ma[nñ]ana|tarde|noche|manh[aã]|noite|matin|soir|apr[eè]s-midi|morning|afternoon|evening)(?![\\p{L}])"

/** A weekday directly followed by a day number: "jueves 3", "Donnerstag, den 3.", "jeudi 3", "quinta dia 3". */
const WEEKDAY_THEN_DAY: PerLanguage<string> = {
  en: `,?\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?(?!\\d|${HOUR_MARK})`,
  es: `,?\\s+(?:el\\s+)?(?:d[ií]a\\s+)?(\\d{1,2})(?!\\d|${HOUR_MARK}|\\s*(?:de\\s+\\p{L}))`,
  de: ",?\\s+(?:den\\s+|der\\s+)?(\\d{1,2})\\.(?!\\d)",
  fr: `,?\\s+(?:le\\s+)?(\\d{1,2})(?:er)?(?!\\d|${HOUR_MARK})`,
  pt: `,?\\s+(?:,\\s*)?(?:dia\\s+)?(\\d{1,2})(?!\\d|${HOUR_MARK}|\\s*de\\s+\\p{L})`,
}

/**
 * How far past the weekday's next date a bare number after it may fall and still be read as its day
 * ("Friday 24" on the 7th, three weeks on): "el lunes 10" when the 10th that is a Monday is a month away is asked
 * about, never taken as that date.
 */
const BARE_DAY_REACH_DAYS = 20

const NOON: PerLanguage<string> = {
  en: "noon|midday|12\\s*noon",
  es: "(?:al\\s+|a\\s+)?mediod[ií]a",
  de: "mittags?|zur\\s+mittagszeit",
  // Not the "midi" of "après-midi" (the afternoon, `when-spans.ts`).
  fr: "(?<!apr[eè]s[\\s-])(?:[àa]\\s+)?midi",
  pt: "(?:ao\\s+)?meio[\\s-]dia",
}

/** "and a half" after noon: "meio-dia e meia", "mediodía y media", "midi et demi". */
const HALF: PerLanguage<string> = {
  en: "\\s+thirty",
  es: "\\s+y\\s+media",
  de: "\\s+drei(?:ss|ß)ig",
  fr: "\\s+et\\s+demie?",
  pt: "\\s+e\\s+meia",
}

/** "and a quarter" after noon: "midi et quart", "mediodía y cuarto", "meio-dia e um quarto". */
const QUARTER_PAST: PerLanguage<string> = {
  en: "\\s+fifteen",
  es: "\\s+y\\s+cuarto",
  de: "\\s+(?:und\\s+)?f[uü]nfzehn",
  fr: "\\s+et\\s+quart",
  pt: "\\s+e\\s+(?:um\\s+)?quarto",
}

/** "at" before an hour: "at five", "a las cinco", "um fünf", "à cinq", "às cinco". */
const AT_HOUR: PerLanguage<string | undefined> = {
  en: "at",
  es: "(?:a\\s+)?las|a\\s+la",
  de: "um|gegen",
  // French says the hour ("à cinq heures", `CLOCK_PHRASES`): "à un ami" is no time.
  fr: undefined,
  pt: "[àa]s|pelas|[àa](?=\\s+uma)",
}

/** One o'clock after "at", without the article ("at a loss", "um einen Termin" are no times). */
const ONE_O_CLOCK: PerLanguage<string> = { en: "one", es: "una", de: "eins", fr: "une", pt: "uma" }

/** Clock phrases in words: `h` is the hour word; each yields minutes after the hour or before it. */
const CLOCK_PHRASES: PerLanguage<
  ReadonlyArray<readonly [(h: string) => string, (hour: number) => readonly [number, number]]>
> = {
  en: [
    [(h) => `half\\s+past\\s+${h}`, (hour) => [hour, 30]],
    // British "half two", "half 10": half past ("half a day" is no time).
    [(h) => `half\\s+(?!a${E})${h}`, (hour) => [hour, 30]],
    [(h) => `(?:a\\s+)?quarter\\s+past\\s+${h}`, (hour) => [hour, 15]],
    [(h) => `(?:a\\s+)?quarter\\s+to\\s+${h}`, (hour) => [hour - 1, 45]],
    [(h) => `${h}\\s+thirty`, (hour) => [hour, 30]],
  ],
  es: [
    [(h) => `(?:las\\s+|la\\s+)?${h}\\s+y\\s+media`, (hour) => [hour, 30]],
    [(h) => `(?:las\\s+|la\\s+)?${h}\\s+y\\s+cuarto`, (hour) => [hour, 15]],
    [(h) => `(?:las\\s+|la\\s+)?${h}\\s+menos\\s+cuarto`, (hour) => [hour - 1, 45]],
  ],
  de: [
    [(h) => `halb\\s+${h}`, (hour) => [hour - 1, 30]],
    [(h) => `viertel\\s+nach\\s+${h}`, (hour) => [hour, 15]],
    [(h) => `viertel\\s+vor\\s+${h}`, (hour) => [hour - 1, 45]],
  ],
  fr: [
    [(h) => `${h}\\s+heures?\\s+trente`, (hour) => [hour, 30]],
    [(h) => `${h}\\s+heures?\\s+quinze`, (hour) => [hour, 15]],
    [(h) => `${h}\\s+heures?\\s+quarante-cinq`, (hour) => [hour, 45]],
    [(h) => `${h}\\s*(?:h|heures?)\\s+et\\s+demie`, (hour) => [hour, 30]],
    [(h) => `${h}\\s*(?:h|heures?)\\s+et\\s+quart`, (hour) => [hour, 15]],
    [(h) => `${h}\\s*(?:h|heures?)\\s+moins\\s+(?:le\\s+)?quart`, (hour) => [hour - 1, 45]],
    [(h) => `${h}\\s+heures?`, (hour) => [hour, 0]],
  ],
  pt: [
    [(h) => `${h}\\s+e\\s+meia`, (hour) => [hour, 30]],
    [(h) => `${h}\\s+e\\s+quinze`, (hour) => [hour, 15]],
  ],
}

/**
 * "14h30", "15h", "10 Uhr", "10:30 Uhr", "10 hrs", and "a las 10 horas" / "às 10 horas" (after "at":
 * chrono reads "10 horas" as ten hours from now, and a bare "10 horas" may be a duration).
 */
const H_CLOCK =
  /(?<![\p{L}\p{N}:])(\d{1,2})\s?(?:h|uhr|hrs?|hs|(?<=(?:las|[àa]s|pelas)\s+\d{1,2}\s?)horas)(?:\s?(\d{2}))?(?![\p{L}\p{N}])/u
const AFTERNOON: PerLanguage<RegExp> = {
  en: /(?<![\p{L}])(?:pm|p\.m\.|in the afternoon|in the evening)(?![\p{L}])/u,
  es: /(?<![\p{L}])(?:de la tarde|de la noche|por la tarde)(?![\p{L}])/u,
  de: /(?<![\p{L}])(?:nachmittags?|abends)(?![\p{L}])/u,
  fr: /(?<![\p{L}])(?:de l'apr[eè]s-midi|du soir|l'apr[eè]s-midi)(?![\p{L}])/u,
  pt: /(?<![\p{L}])(?:da tarde|da noite|[àa] tarde)(?![\p{L}])/u,
}
const MORNING: PerLanguage<RegExp> = {
  en: /(?<![\p{L}])(?:am|a\.m\.|in the morning)(?![\p{L}])/u,
  es: /(?<![\p{L}])(?:de la ma[nñ]ana|por la ma[nñ]ana)(?![\p{L}])/u,
  de: /(?<![\p{L}])(?:morgens|vormittags?|fr[uü]h)(?![\p{L}])/u,
  fr: /(?<![\p{L}])(?:du matin|le matin)(?![\p{L}])/u,
  pt: /(?<![\p{L}])(?:da manh[aã]|de manh[aã])(?![\p{L}])/u,
}

/** Words just before a number that make it a clock time ("at 9.30"), in the five languages. */
const AT_CLOCK = /(?<![\p{L}])(?:at|by|from|around|um|gegen|ab|bis|[àa]|vers|las|la|[àa]s|pelas|por\s+volta\s+das)\s*$/u

/** "now" in the five languages: chrono reads it as this very minute, which is never a time asked for. */
const NOW_WORDS = /^(?:(?:right\s+)?now|ahora(?:\s+mismo)?|jetzt|gerade|maintenant|agora|hoje\s+agora)$/u

/**
 * Phrases that hold a word for "tomorrow" or a weekday but name neither: the morning ("a las 10 de la
 * mañana", "Guten Morgen", "am Morgen") and Portuguese "segunda via" (a second copy, not Monday).
 * They are blanked before the date is read; the morning still moves an hour (`MORNING` reads the text
 * as written).
 */
const NOT_A_DAY: PerLanguage<RegExp | undefined> = {
  en: undefined,
  es: /(?<![\p{L}])(?:de|por|en|a)\s+la\s+ma[nñ]ana(?![\p{L}])/gu,
  de: /(?<![\p{L}])(?:guten|am|jeden)\s+morgen(?![\p{L}])/gu,
  fr: undefined,
  pt: /(?<![\p{L}])(?:segunda|2\.?\s?[ªa])\s+via(?![\p{L}])/gu,
}

/**
 * Words people type without their accent (or with the wrong one) that chrono reads only with it, as
 * `[written, meant]`, each of the same length so spans keep their place: Portuguese "as 11" and
 * "ás 11" for "às 11" ("as" before a number is the hour's article; "as unhas" stays), "pelas 11"
 * (around 11). Weekdays, "amanha", "sabado", "miercoles", "apres-midi" are read without accents
 * already.
 */
const UNACCENTED: PerLanguage<ReadonlyArray<readonly [RegExp, string]>> = {
  en: [],
  es: [],
  de: [],
  fr: [],
  pt: [
    [/(?<![\p{L}])(?:as|ás)(?=\s+\d)/gu, "às"],
    [/(?<![\p{L}])pelas(?=\s+\d)/gu, "   às"],
  ],
}

/** German writes a weekday and its part of the day as one word: "Dienstagnachmittag", "Montagmorgen". */
const WEEKDAY_PART_OF_DAY =
  /(?<![\p{L}])(montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)(morgen|vormittag|mittag|nachmittag|abend)(?![\p{L}])/gu

/** "this morning", "this afternoon", "tonight" as a day: today ("ce matin", "esta tarde", "hoje à tarde"). */
const THIS_PART_OF_DAY: PerLanguage<RegExp> = {
  en: /(?<![\p{L}])(?:this\s+(?:morning|afternoon|evening)|tonight)(?![\p{L}])/u,
  es: /(?<![\p{L}])(?:esta\s+(?:ma[nñ]ana|tarde|noche))(?![\p{L}])/u,
  de: /(?<![\p{L}])(?:heute\s+(?:morgen|vormittag|mittag|nachmittag|abend))(?![\p{L}])/u,
  fr: /(?<![\p{L}])(?:ce\s+(?:matin|soir)|cet\s+apr[eè]s-midi|cette\s+apr[eè]s-midi)(?![\p{L}])/u,
  pt: /(?<![\p{L}])(?:esta\s+(?:manh[aã]|tarde|noite)|hoje\s+(?:de|[àa])\s+(?:manh[aã]|tarde|noite))(?![\p{L}])/u,
}

/** A date in digits without words: day first except in English (the organization's US-style m/d). */
const NUMERIC_DATE =
  /(?<![\p{L}\p{N}.:/])(\d{1,2})[./](\d{1,2})(?:[./](\d{4}|\d{2}))?\.?(?![\p{N}:]|\s*(?:h|uhr)(?![\p{L}]))/u

const EARLIEST: PerLanguage<string> = {
  en: "earliest|soonest|first\\s+(?:one|slot|time|available|free)|the\\s+first",
  es: "(?:la|el)\\s+primer[oa]|lo\\s+antes\\s+posible|primera\\s+hora",
  de: "(?:den|der|die)\\s+erste[nr]?|fr[uü]hestm[oö]glich|so\\s+fr[uü]h\\s+wie\\s+m[oö]glich",
  fr: "(?:le|la)\\s+premi[eè]re?|au\\s+plus\\s+t[oô]t|d[eè]s\\s+que\\s+possible",
  pt: "(?:o|a)\\s+primeir[oa]|o\\s+quanto\\s+antes|mais\\s+cedo",
}

const CHRONO: PerLanguage<chrono.Chrono> = {
  en: chrono.en.casual,
  es: chrono.es.casual,
  de: chrono.de.casual,
  fr: chrono.fr.casual,
  pt: chrono.pt.casual,
}

/** Replaces a matched span with spaces (same length), so chrono does not read it again. */
const blank = (text: string, index: number, length: number): string =>
  text.slice(0, index) + " ".repeat(length) + text.slice(index + length)

/** A day of the month from today: this month's, or next month's once it has passed. */
const dayOfMonthFrom = (today: string, day: number): string | undefined => {
  const year = Number(today.slice(0, 4))
  const month = Number(today.slice(5, 7))
  const thisMonth = dateOf(year, month, day)
  if (thisMonth !== undefined && thisMonth >= today) return thisMonth
  return month === 12 ? dateOf(year + 1, 1, day) : dateOf(year, month + 1, day)
}

/** The date with `weekday` closest to `date` ("Thursday the 4th" when the 4th is a Friday → the 3rd). */
const nearestWeekday = (date: string, weekday: number): string => {
  const ahead = (weekday - weekdayOf(date) + 7) % 7
  return addDays(date, ahead <= 3 ? ahead : ahead - 7)
}

const nextWeekday = (today: string, weekday: number): string =>
  addDays(today, (weekday - weekdayOf(today) + 7) % 7 || 7)

/** An hour named without am/pm: 1–7 are afternoon hours. */
const businessHour = (hour: number, text: string, language: Language): number => {
  if (AFTERNOON[language].test(text)) return hour < 12 ? hour + 12 : hour
  if (MORNING[language].test(text)) return hour === 12 ? 0 : hour
  return hour >= 1 && hour <= 7 ? hour + 12 : hour
}

/**
 * Words with which a visitor takes back the day or time just written and names another: "tomorrow at
 * 10… no wait, Sunday at 10", "mañana a las 10, no espera, mejor el domingo", "morgen um 10, nein
 * warte, lieber Sonntag", "demain 10h, non attendez, plutôt dimanche", "amanhã às 11. Não, pera,
 * segunda às 11". For lower-case text; the last one in a message counts.
 */
const TAKEN_BACK: PerLanguage<RegExp> = {
  en: /(?<![\p{L}])(?:no,?\s+wait|wait,?\s+no|actually|scratch\s+that|or\s+rather|sorry,?\s+i\s+mean[t]?|i\s+mean[t]?)(?![\p{L}])/gu,
  es: /(?<![\p{L}])(?:no,?\s+(?:espera|espere|perd[oó]n)|espera,?\s+no|mejor\s+dicho|mejor|perd[oó]n,?\s+(?:quise\s+decir|digo)|o\s+sea)(?![\p{L}])/gu,
  de: /(?<![\p{L}])(?:nein,?\s+warte|warte,?\s+nein|doch\s+lieber|lieber\s+doch|ich\s+meine|sorry,?\s+ich\s+meine|besser)(?![\p{L}])/gu,
  fr: /(?<![\p{L}])(?:non,?\s+attend(?:s|ez)|attend(?:s|ez),?\s+non|plut[oô]t|pardon,?\s+je\s+veux\s+dire|je\s+veux\s+dire)(?![\p{L}])/gu,
  pt: /(?<![\p{L}])(?:n[aã]o,?\s+(?:pera|espera|perd[aã]o)|(?:pera|espera),?\s+n[aã]o|melhor|ali[aá]s|quer\s+dizer)(?![\p{L}])/gu,
}

/** Where the last taking-back in `text` ends, when something stands before it. */
const takenBackAt = (text: string, language: Language): number | undefined => {
  const lowered = text.toLowerCase()
  if (lowered.length !== text.length) return undefined
  let end: number | undefined
  for (const found of lowered.matchAll(TAKEN_BACK[language])) {
    if (found.index > 0) end = found.index + found[0].length
  }
  return end
}

/** Whether `when` names a day or an hour. */
const namesAny = (when: NamedWhen): boolean =>
  when.date !== undefined || when.time !== undefined || when.weekday !== undefined || when.impossible !== undefined

export const readWhen = (
  text: string,
  language: Language,
  today: string,
  /** Spans to ignore (phone numbers already found). */
  ignore: ReadonlyArray<{ readonly start: number; readonly end: number }> = [],
  /** The organization's wall-clock time (`HH:MM`), for "in half an hour". */
  now?: string,
): NamedWhen => {
  // "Tomorrow at 10… no wait, Sunday at 10": what follows the taking-back is what is asked; what it
  // leaves out (the hour, or the day) stays as written before it.
  const at = takenBackAt(text, language)
  if (at !== undefined) {
    const later = readWhenOnce(blank(text, 0, at), language, today, ignore, now)
    if (namesAny(later)) {
      const earlier = readWhenOnce(blank(text, at, text.length - at), language, today, ignore, now)
      const day = later.date !== undefined || later.weekday !== undefined || later.impossible !== undefined
      const { date, weekday, weekdayOnly, conflict, week, weekOn, impossible, time, hourShifted } = earlier
      return withoutUndefined({
        ...(day ? {} : { date, weekday, weekdayOnly, conflict, week, weekOn, impossible }),
        ...(later.time === undefined ? { time, hourShifted } : {}),
        partOfDay: later.partOfDay ?? earlier.partOfDay,
        ...later,
        earliest: later.earliest || (later.time === undefined && earlier.earliest),
      })
    }
  }
  return readWhenOnce(text, language, today, ignore, now)
}

/** `when` without its undefined fields (a `NamedWhen` leaves out what was not named). */
const withoutUndefined = (when: NamedWhen): NamedWhen =>
  Object.fromEntries(Object.entries(when).filter(([, value]) => value !== undefined)) as NamedWhen

const readWhenOnce = (
  text: string,
  language: Language,
  today: string,
  ignore: ReadonlyArray<{ readonly start: number; readonly end: number }>,
  now: string | undefined,
): NamedWhen => {
  let rest = text.toLowerCase()
  if (rest.length !== text.length)
    rest = text.replace(/\p{Lu}/gu, (c) => (c.toLowerCase().length === 1 ? c.toLowerCase() : c))
  for (const span of ignore) rest = blank(rest, span.start, span.end - span.start)
  const impossible = impossibleDateIn(rest, language, today)
  if (impossible !== undefined) return { earliest: false, impossible: text.slice(impossible.start, impossible.end) }
  if (language === "de") {
    // The part of the day stays for the hour ("Dienstagnachmittag um 3" is 15:00), not as a "morgen".
    rest = rest.replace(WEEKDAY_PART_OF_DAY, (_, day: string, part: string) => `${day} ${part}`)
  }
  for (const [written, meant] of UNACCENTED[language]) rest = rest.replace(written, meant)
  const lowered = rest
  const notADay = NOT_A_DAY[language]
  if (notADay !== undefined) rest = rest.replace(notADay, (phrase) => " ".repeat(phrase.length))
  if (language === "de") {
    rest = rest.replace(WEEKDAY_PART_OF_DAY, (phrase, day: string) => day.padEnd(phrase.length))
    rest = rest.replace(
      /(?<![\p{L}])(montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)\s+(morgen|vormittag|mittag|nachmittag|abend)(?![\p{L}])/gu,
      (phrase, day: string) => day.padEnd(phrase.length),
    )
  }
  const partOfDay = partOfDayIn(lowered, language)
  const inAWhile = now === undefined ? undefined : inAWhileIn(rest, language, today, now)
  if (inAWhile !== undefined) rest = blank(rest, inAWhile.index, inAWhile.length)
  const week = nextWeekIn(rest, language, today)
  if (week !== undefined) rest = blank(rest, week.index, week.length)
  let date: string | undefined = inAWhile?.date
  let time: string | undefined = inAWhile?.time
  let weekday: number | undefined
  let dayNamed: string | undefined
  let weekdayOnly = false
  /** The day was a bare number right after the weekday ("el lunes 10"), which may have been an hour. */
  let bareDay = false
  let hourShifted = false
  /** An hour as the visitor meant it (see `businessHour`), noting when it was moved to the afternoon. */
  const hourOf = (hour: number): number => {
    const read = businessHour(hour, lowered, language)
    if (read !== hour && !AFTERNOON[language].test(lowered)) hourShifted = true
    return read
  }

  const weekdayMatch = wantedWeekday(language, rest)
  if (weekdayMatch?.[1] !== undefined) {
    weekday = weekdayIndex(language, weekdayMatch[1])
    // Read in the text before the morning was blanked: "lunes 10 de la mañana" is 10 o'clock.
    const after = re(`^${WEEKDAY_THEN_DAY[language]}`).exec(lowered.slice(weekdayMatch.index + weekdayMatch[0].length))
    if (after?.[1] !== undefined) {
      dayNamed = dayOfMonthFrom(today, Number(after[1]))
      bareDay = /^[,\s]*\d{1,2}$/u.test(after[0])
      rest = blank(rest, weekdayMatch.index, weekdayMatch[0].length + after[0].length)
    }
  }
  const afterTomorrow = re(`${B}${DAY_AFTER_TOMORROW[language]}${E}`).exec(rest)
  if (afterTomorrow !== null) {
    date = addDays(today, 2)
    rest = blank(rest, afterTomorrow.index, afterTomorrow[0].length)
  }
  const inDays = re(`${B}${IN_DAYS[language](numberPattern(language))}${E}`).exec(rest)
  if (inDays?.[1] !== undefined) {
    const days = numberValue(language, inDays[1])
    if (days >= 0 && days <= 60) date = addDays(today, days)
    rest = blank(rest, inDays.index, inDays[0].length)
  }
  if (dayNamed === undefined && date === undefined) {
    const numeric = NUMERIC_DATE.exec(rest)
    const clockLike =
      numeric?.[1] !== undefined &&
      numeric[2] !== undefined &&
      numeric[3] === undefined &&
      /^\d{2}$/.test(numeric[2]) &&
      Number(numeric[1]) <= 23 &&
      Number(numeric[2]) < 60 &&
      AT_CLOCK.test(rest.slice(0, numeric.index))
    if (clockLike && numeric?.[1] !== undefined && numeric[2] !== undefined) {
      // "at 9.30", "um 9.30", "à 9.30": a time written with a dot, not the 30th of September.
      time = timeOf(hourOf(Number(numeric[1])), Number(numeric[2]))
      rest = blank(rest, numeric.index, numeric[0].length)
    } else if (numeric?.[1] !== undefined && numeric[2] !== undefined) {
      const [first, second] = [Number(numeric[1]), Number(numeric[2])]
      const [month, day] = language === "en" ? [first, second] : [second, first]
      const year =
        numeric[3] === undefined ? undefined : Number(numeric[3].length === 2 ? `20${numeric[3]}` : numeric[3])
      const found =
        year === undefined
          ? (() => {
              const thisYear = dateOf(Number(today.slice(0, 4)), month, day)
              return thisYear !== undefined && thisYear >= today
                ? thisYear
                : dateOf(Number(today.slice(0, 4)) + 1, month, day)
            })()
          : dateOf(year, month, day)
      if (found !== undefined) {
        dayNamed = found
        rest = blank(rest, numeric.index, numeric[0].length)
      }
    }
  }
  if (date === undefined && dayNamed === undefined) {
    // Not blanked: the part of the day may still be the time ("heute Mittag").
    if (THIS_PART_OF_DAY[language].test(rest)) date = today
  }
  if (dayNamed === undefined) {
    const day = re(`${B}${DAY_OF_MONTH[language]}`).exec(rest)
    if (day?.[1] !== undefined) {
      dayNamed = dayOfMonthFrom(today, Number(day[1]))
      rest = blank(rest, day.index, day[0].length)
    }
  }
  for (const [phrase, clock] of CLOCK_PHRASES[language]) {
    const found = re(`${B}${phrase(numberPattern(language))}${E}`).exec(rest)
    if (found?.[1] !== undefined) {
      const [hour, minute] = clock(numberValue(language, found[1]))
      time = timeOf(hourOf(hour), minute)
      rest = blank(rest, found.index, found[0].length)
      break
    }
  }
  if (time === undefined) {
    // An hour in words after "at" ("a las cinco", "um zwölf", "às três", "at five"); digits are chrono's.
    const at = AT_HOUR[language]
    const words = `(${[ONE_O_CLOCK[language], ...NUMBER_WORDS[language].slice(1)].join("|")})`
    const spoken = at === undefined ? null : re(`${B}(?:${at})\\s+${words}${E}`).exec(rest)
    if (spoken?.[1] !== undefined) {
      time = timeOf(hourOf(numberValue(language, spoken[1])), 0)
      rest = blank(rest, spoken.index, spoken[0].length)
    }
  }
  if (time === undefined) {
    const noon = re(`${B}(?:${NOON[language]})(${HALF[language]})?(${QUARTER_PAST[language]})?${E}`).exec(rest)
    if (noon !== null) {
      time = noon[1] !== undefined ? "12:30" : noon[2] !== undefined ? "12:15" : "12:00"
      rest = blank(rest, noon.index, noon[0].length)
    }
  }
  if (time === undefined) {
    const clock = H_CLOCK.exec(rest)
    if (clock?.[1] !== undefined) {
      time = timeOf(hourOf(Number(clock[1])), Number(clock[2] ?? "0"))
      rest = blank(rest, clock.index, clock[0].length)
    }
  }

  const reference = { instant: new Date(`${today}T12:00:00.000Z`), timezone: 0 }
  for (const result of CHRONO[language].parse(rest, reference, { forwardDate: true })) {
    // "now" is not a time anyone books ("are you open now?"), and "so", "mi", "do" are words before
    // they are weekday abbreviations (chrono reads German "Ach so" as Sunday).
    // A short word that names a day ("hoy") is one.
    const start = result.start
    // "at the last minute", "yesterday": a moment before this one, named in words, is no time to book.
    const pastInWords = start.date().getTime() < reference.instant.getTime() && !/\d/.test(result.text)
    if (
      pastInWords ||
      NOW_WORDS.test(result.text.trim()) ||
      (/^\p{L}{1,3}\p{P}*$/u.test(result.text.trim()) && !start.isCertain("day"))
    )
      continue
    // A weekday already read is the one asked for (`wantedWeekday`), not chrono's first.
    const anotherWeekday = weekday !== undefined && !start.isCertain("day") && start.get("weekday") !== weekday
    if (
      date === undefined &&
      dayNamed === undefined &&
      !anotherWeekday &&
      (start.isCertain("day") || start.isCertain("weekday"))
    ) {
      const found = dateOf(start.get("year") ?? 0, start.get("month") ?? 0, start.get("day") ?? 0)
      if (found !== undefined) {
        if (start.isCertain("day")) dayNamed = found
        else {
          date = found
          weekdayOnly = true
        }
      }
      if (start.isCertain("weekday") && weekday === undefined) weekday = start.get("weekday") ?? undefined
    }
    // A part of the day is no hour ("demain après-midi" is read as 12:00): `partOfDay` narrows the times.
    const partOnly = partOfDay !== undefined && !/\d/.test(result.text)
    if (time === undefined && start.isCertain("hour") && !partOnly) {
      const hour = start.get("hour") ?? 0
      // Chrono's am/pm is taken only when written as such: it reads the preposition in "a las 4 a
      // consulta" as "a.m." and "às 4 a tarde" as 4:00; other hours go through `hourOf`'s lexicons.
      const meridiem = start.isCertain("meridiem") && /\d\s*[ap]\.?\s?m\.?(?![\p{L}])/iu.test(result.text)
      time = timeOf(meridiem ? hour : hourOf(hour), start.get("minute") ?? 0)
    }
  }

  if (time === undefined) {
    // "make it 11", "I meant 11 not 10", "lieber 11": an hour given alone to correct one.
    const corrected = correctedHourIn(rest, language)
    if (corrected !== undefined) time = timeOf(hourOf(corrected.hour), corrected.minute)
  }
  // "Tuesday next week", "nächste Woche Dienstag": the weekday of that week, not the next one.
  if (week !== undefined && weekday !== undefined && dayNamed === undefined && (date === undefined || weekdayOnly)) {
    date = weekdayInWeek(week.start, weekday)
    weekdayOnly = true
  }
  let conflict: NamedWhen["conflict"]
  if (dayNamed !== undefined) {
    weekdayOnly = false
    const next = weekday === undefined ? undefined : nextWeekday(today, weekday)
    if (bareDay && next !== undefined && dayNamed > addDays(next, BARE_DAY_REACH_DAYS)) {
      // "el lunes 10" with the 10th weeks away: the coming Monday or that date, asked (§8).
      conflict = { byWeekday: next, byDay: dayNamed }
    } else if (weekday !== undefined && weekdayOf(dayNamed) !== weekday) {
      conflict = { byWeekday: nearestWeekday(dayNamed, weekday), byDay: dayNamed }
    }
    date = dayNamed
  } else if (date === undefined && weekday !== undefined) {
    date = nextWeekday(today, weekday)
    weekdayOnly = true
  }
  // Today's weekday named alone ("Saturday at 11", "this Saturday" on a Saturday) is today while its
  // time is still ahead — chrono's reading depended on the hour named against its noon reference,
  // and the next one was a week away — and once the time has passed, the same weekday a week on,
  // proposed (`weekOn`). "Next Saturday" said on a Saturday stays a week on.
  let weekOn = false
  if (weekdayOnly && weekday === weekdayOf(today) && week === undefined && conflict === undefined) {
    const ahead = time === undefined || now === undefined || time > now
    if (NEXT_OF_A_WEEKDAY[language].test(lowered)) date = addDays(today, 7)
    else {
      date = ahead ? today : addDays(today, 7)
      weekOn = !ahead
    }
  }
  return {
    ...(date === undefined ? {} : { date }),
    ...(time === undefined ? {} : { time }),
    ...(weekday === undefined ? {} : { weekday }),
    ...(conflict === undefined ? {} : { conflict }),
    ...(weekdayOnly ? { weekdayOnly } : {}),
    earliest: re(`${B}(?:${EARLIEST[language]})${E}`).test(lowered),
    ...(hourShifted && time !== undefined ? { hourShifted } : {}),
    ...(partOfDay === undefined ? {} : { partOfDay }),
    ...(week === undefined ? {} : { week: week.start }),
    ...(weekOn ? { weekOn } : {}),
  }
}
