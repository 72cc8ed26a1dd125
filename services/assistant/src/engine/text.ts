/** Text helpers shared by the readers of a message. Pure. */

/** The languages the assistant reads and writes (docs/contract.md §8). */
export const LANGUAGES = ["en", "es", "de", "fr", "pt"] as const
export type Language = (typeof LANGUAGES)[number]

export const isLanguage = (value: string): value is Language => (LANGUAGES as ReadonlyArray<string>).includes(value)

/**
 * Lower case without diacritics, with typographic apostrophes made plain and ß spelled out:
 * "Rückruf" → "ruckruf", "llámame" → "llamame", "m’appeler" → "m'appeler", "heiße" → "heisse".
 * Keyword lists are written in this form. Lengths change (ß → ss), so match positions in it are
 * not positions in the original.
 */
export const fold = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/[’‘`´]/g, "'")
    .replace(/ß/g, "ss")
    .toLowerCase()

/** A regular expression of whole words (or phrases) from a list, for folded text. */
export const wordsPattern = (words: ReadonlyArray<string>, flags = ""): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeWord).join("|")})(?![\\p{L}\\p{N}])`, `u${flags}`)

/** A word as a pattern: spaces match any blank, and a final `*` any letters after it ("cancel*"). */
const escapeWord = (word: string): string => {
  const prefix = word.endsWith("*")
  const escaped = (prefix ? word.slice(0, -1) : word).replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+")
  return prefix ? `${escaped}\\p{L}*` : escaped
}

/** Each language's words for one idea, written folded (see `fold`). */
export type PerLanguage<A> = Readonly<Record<Language, A>>

/** One pattern per language from word lists, plus one that matches any language's words. */
export const lexicon = (
  words: PerLanguage<ReadonlyArray<string>>,
): { readonly of: (language: Language) => RegExp; readonly any: RegExp } => {
  const patterns = Object.fromEntries(
    Object.entries(words).map(([language, list]) => [language, wordsPattern(list)]),
  ) as Record<Language, RegExp>
  const any = wordsPattern(Object.values(words).flat())
  return { of: (language) => patterns[language], any }
}
