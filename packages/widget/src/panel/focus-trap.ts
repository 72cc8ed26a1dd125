/**
 * Keeps Tab inside the open panel (it is a modal dialog: on a phone it covers the page): Tab from the
 * last control goes to the first, Shift+Tab from the first to the last. Focus inside a shadow root is
 * `shadowRoot.activeElement` (the page's `document.activeElement` is only the widget's host).
 */
const TABBABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type=hidden])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  '[tabindex]:not([tabindex="-1"])',
].join(",")

const shown = (element: HTMLElement) => element.getClientRects().length > 0

export const keepTabInside = (event: KeyboardEvent, container: HTMLElement, root: ShadowRoot): void => {
  if (event.key !== "Tab") return
  const tabbable = [...container.querySelectorAll<HTMLElement>(TABBABLE)].filter(shown)
  const first = tabbable[0]
  const last = tabbable.at(-1)
  if (first === undefined || last === undefined) return
  const active = root.activeElement
  const inside = active !== null && container.contains(active)
  if (event.shiftKey && (active === first || !inside)) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && (active === last || !inside)) {
    event.preventDefault()
    first.focus()
  }
}
