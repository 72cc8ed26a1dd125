/**
 * The options of docs/contract.md §15 from the script tag's `data-parley-*` attributes. Pure: the page's
 * facts (its language and direction, the browser's language) come in as arguments.
 */
import type { WidgetOptions } from "../shared/bridge.ts"

export interface PageFacts {
  /** `<html lang>`; may be empty. */
  readonly pageLanguage: string
  /** The page's writing direction, which the widget follows (`rtl` puts the launcher on the left by default). */
  readonly direction: "ltr" | "rtl"
  /** `navigator.language`. */
  readonly browserLanguage: string
}

/** `data-parley-*` attributes as `HTMLElement.dataset` gives them (`parleyKey`, `parleyTitle`…). */
export type ScriptDataset = Readonly<Record<string, string | undefined>>

const nonEmpty = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim()
  return trimmed === undefined || trimmed === "" ? undefined : trimmed
}

/** `data-parley-open` (present), `data-parley-open="true"` open it; `"false"` does not. */
const flag = (value: string | undefined): boolean => value !== undefined && value.trim().toLowerCase() !== "false"

export const readOptions = (dataset: ScriptDataset, page: PageFacts): WidgetOptions => {
  const position = nonEmpty(dataset.parleyPosition)?.toLowerCase()
  return {
    key: nonEmpty(dataset.parleyKey) ?? "",
    title: nonEmpty(dataset.parleyTitle),
    color: nonEmpty(dataset.parleyColor),
    position: position === "left" || position === "right" ? position : page.direction === "rtl" ? "left" : "right",
    startOpen: flag(dataset.parleyOpen),
    locale: nonEmpty(dataset.parleyLocale) ?? (nonEmpty(page.pageLanguage) || page.browserLanguage || "en"),
  }
}
