/**
 * A layout check for a screen as it is drawn: nothing sticks out of its box or is cut off. For every
 * rendered element it compares `scrollWidth` with `clientWidth` — a table wider than its panel, a
 * dialog with a horizontal scrollbar, an input too narrow for its value ("09:00–17:0"), a heading
 * wider than the phone — and it checks that short identifiers (`lead.created`, a key's prefix) are
 * not broken across lines. Scroll regions a design allows (a wide table on a phone) are named by
 * the caller.
 */
import type { Page } from "playwright-core"

export interface LayoutCheckOptions {
  /** Named in the failure message: which screen was checked. */
  readonly screen: string
  /**
   * A CSS selector of the elements allowed to scroll sideways (e.g. `.table-scroll` on a phone).
   * Everything else that scrolls or overflows sideways is a failure.
   */
  readonly scrollable?: string
}

/** Values up to this many characters (two opening ranges, "09:00–12:00, 13:00–17:00") must fit their field. */
const SHORT_VALUE = 24

/** What is cut off or overflowing on the page now, in words (empty when nothing is). */
export const layoutProblems = (page: Page, scrollable = ""): Promise<Array<string>> =>
  page.evaluate(
    ([allowed, shortValue]) => {
      const problems: Array<string> = []
      const name = (element: Element): string => {
        const label =
          element.getAttribute("aria-label") ??
          (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement
            ? `${element.labels?.[0]?.textContent ?? ""} = "${element.value}"`
            : (element.textContent ?? ""))
        const classes = element.classList.length === 0 ? "" : `.${[...element.classList].join(".")}`
        return `<${element.tagName.toLowerCase()}${classes}> “${label.replace(/\s+/g, " ").trim().slice(0, 60)}”`
      }
      const root = document.documentElement
      if (root.scrollWidth > root.clientWidth) {
        // Name what reaches past the window's edge (the innermost such elements), not only that something does.
        const past = [...document.body.querySelectorAll("*")].filter(
          (element) =>
            element.getBoundingClientRect().right > root.clientWidth + 1 &&
            ![...element.children].some((child) => child.getBoundingClientRect().right > root.clientWidth + 1),
        )
        problems.push(
          `the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window: ${past
            .slice(0, 3)
            .map(name)
            .join(", ")}`,
        )
      }
      for (const element of document.body.querySelectorAll("*")) {
        // Not drawn: hidden, or inside a closed <details> or dialog.
        if (!(element instanceof HTMLElement) || !element.checkVisibility()) continue
        if (element.closest(".visually-hidden") !== null) continue
        const style = getComputedStyle(element)
        if (style.display === "inline" || style.display === "contents") {
          // A short identifier broken across lines reads as two words ("lead.cre / ated").
          const text = element.textContent ?? ""
          if (
            element.tagName === "CODE" &&
            text.length <= 32 &&
            !/\s/.test(text) &&
            element.getClientRects().length > 1
          ) {
            problems.push(`${name(element)} is broken across lines`)
          }
          continue
        }
        const over = element.scrollWidth - element.clientWidth
        if (over <= 1 || element.clientWidth === 0) continue
        if (allowed !== "" && element.matches(allowed)) continue
        // Shortened on purpose, with an ellipsis that says so (a conversation's last message in a list).
        if (style.textOverflow === "ellipsis" && style.overflowX === "hidden" && style.whiteSpace === "nowrap") continue
        // A field scrolls a long value (a URL, a key shown once beside its copy button) as fields do;
        // a short one (a time range, a name, a number) must show whole.
        if (element instanceof HTMLInputElement && (element.readOnly || element.value.length > shortValue)) continue
        problems.push(`${name(element)} overflows its ${element.clientWidth} px by ${over} px`)
      }
      return problems
    },
    [scrollable, SHORT_VALUE] as const,
  )

/** Fails, listing each, when anything on the page is cut off or overflows its container. */
export const expectNothingCutOff = async (page: Page, options: LayoutCheckOptions): Promise<void> => {
  const problems = await layoutProblems(page, options.scrollable)
  if (problems.length === 0) return
  throw new Error(`layout of ${options.screen}:\n  ${[...new Set(problems)].slice(0, 12).join("\n  ")}`)
}
