/**
 * What a page must never do while a test drives it: log an error, throw, break its
 * Content-Security-Policy, or talk to an origin other than the ones it may (Parley's own, and the
 * host page's for the widget). Attach before the first navigation; assert at the end.
 */
import type { Page } from "playwright-core"

export interface PageWatchOptions {
  /** Origins the page may request (`http://127.0.0.1:3000`). `data:` and `blob:` URLs always pass. */
  readonly allowedOrigins: ReadonlyArray<string>
  /**
   * Console errors a test provokes on purpose (Chromium logs a failed fetch, a 429 say, as
   * "Failed to load resource: … status of 429"). Everything else is a problem.
   */
  readonly expectedConsoleErrors?: ReadonlyArray<RegExp>
}

export interface PageWatch {
  /** Every problem seen so far, one sentence each. */
  readonly problems: () => ReadonlyArray<string>
  /** CSP violations reported by the page's `securitypolicyviolation` events (also in `problems`). */
  readonly cspViolations: () => Promise<ReadonlyArray<string>>
  /** Throws, listing them, when anything went wrong. */
  readonly expectClean: () => Promise<void>
}

declare global {
  interface Window {
    __parleyCspViolations?: Array<string>
  }
}

export const watchPage = async (page: Page, options: PageWatchOptions): Promise<PageWatch> => {
  const allowed = new Set(options.allowedOrigins.map((origin) => new URL(origin).origin))
  const expected = options.expectedConsoleErrors ?? []
  const seen: Array<string> = []

  page.on("console", (message) => {
    if (message.type() !== "error") return
    const where = message.location().url
    const text = where === "" ? message.text() : `${message.text()} (${where})`
    if (!expected.some((pattern) => pattern.test(text))) seen.push(`console error: ${text}`)
  })
  page.on("pageerror", (error) => seen.push(`uncaught: ${error.message}`))
  page.on("request", (request) => {
    const url = request.url()
    if (url.startsWith("data:") || url.startsWith("blob:")) return
    const origin = new URL(url).origin
    if (!allowed.has(origin)) seen.push(`request to another origin: ${request.method()} ${url}`)
  })
  // Injected by the driver, not by the page, so the page's own CSP does not apply to it.
  await page.addInitScript(() => {
    window.__parleyCspViolations = []
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__parleyCspViolations?.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`)
    })
  })

  const cspViolations = async (): Promise<ReadonlyArray<string>> =>
    page.isClosed() ? [] : await page.evaluate(() => window.__parleyCspViolations ?? [])

  return {
    problems: () => [...seen],
    cspViolations,
    expectClean: async () => {
      const all = [...seen, ...(await cspViolations()).map((violation) => `CSP violation: ${violation}`)]
      if (all.length > 0) throw new Error(`the page misbehaved:\n  ${all.join("\n  ")}`)
    },
  }
}
