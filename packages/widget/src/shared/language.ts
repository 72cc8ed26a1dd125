/** The languages the widget speaks: those of the assistant (docs/contract.md §8). English is the fallback. */
export const LANGUAGES = ["en", "es", "de", "fr", "pt"] as const
export type Language = (typeof LANGUAGES)[number]

/** `pt-BR` → `pt`; an unsupported or missing tag → `en`. */
export const languageOf = (tag: string | undefined | null): Language => {
  const primary = (tag ?? "").trim().toLowerCase().split(/[-_]/)[0] ?? ""
  return (LANGUAGES as ReadonlyArray<string>).includes(primary) ? (primary as Language) : "en"
}
