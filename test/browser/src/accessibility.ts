/**
 * An axe-core scan (through `@axe-core/playwright`, which injects axe by the driver, so the page's
 * CSP does not stop it) that fails on any serious or critical violation of WCAG 2.1 A/AA rules.
 * Open shadow roots are scanned too. The page must come from `browser.newContext()` (axe runs in
 * every frame through the context), not `browser.newPage()`. Finite animations (a panel fading in)
 * are waited out first: scanned half-transparent, text fails colour contrast that it passes once shown.
 */
import { AxeBuilder } from "@axe-core/playwright"
import type { Page } from "playwright-core"

export interface AccessibilityScanOptions {
  /** Only this part of the page (a CSS selector), e.g. the widget's host element. */
  readonly include?: string
  /** Named in the failure message: which screen was scanned. */
  readonly screen: string
}

export const expectAccessible = async (page: Page, options: AccessibilityScanOptions): Promise<void> => {
  await settledAnimations(page)
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
  if (options.include !== undefined) builder = builder.include(options.include)
  const results = await builder.analyze()
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
  if (blocking.length === 0) return
  const lines = blocking.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}×: ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join(", ")})`,
  )
  throw new Error(`accessibility of ${options.screen}:\n  ${lines.join("\n  ")}`)
}

/** Waits for the finite animations of the page and of its open shadow roots (infinite ones never end). */
const settledAnimations = (page: Page): Promise<void> =>
  page.evaluate(async () => {
    const roots: Array<Document | ShadowRoot> = [document]
    for (const element of document.querySelectorAll("*")) if (element.shadowRoot) roots.push(element.shadowRoot)
    const finite = roots
      .flatMap((root) => root.getAnimations())
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)))
  })
