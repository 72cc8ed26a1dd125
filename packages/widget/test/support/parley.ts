/**
 * One Parley per browser test file, started as a newcomer starts it (`npm start` as a child, embedded
 * Postgres, nothing configured), with the demo's full-access key for the tenant's set-up and a
 * Chromium to drive. `env` adds configuration (a low rate limit, say).
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { launchChromium, type PageWatch, watchPage } from "@parley/browser-testing"
import {
  embeddedEnvironment,
  firstStartCredentials,
  type StandaloneProcess,
  startStandaloneProcess,
} from "@parley/standalone/testing"
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core"

export interface WidgetTestbed {
  readonly parley: StandaloneProcess
  /** The demo organization's full-access key (acts as its administrator). */
  readonly adminKey: string
  readonly browser: Browser
  readonly close: () => Promise<void>
}

export const startTestbed = async (env: Record<string, string> = {}): Promise<WidgetTestbed> => {
  const dataDir = await mkdtemp(join(tmpdir(), "parley-widget-test-"))
  const parley = await startStandaloneProcess(
    { ...(await embeddedEnvironment(dataDir)), ...env },
    { timeoutMs: 120_000 },
  )
  const credentials = firstStartCredentials(parley.output())
  if (credentials === undefined) throw new Error(`no first-start credentials in:\n${parley.output()}`)
  const browser = await launchChromium()
  return {
    parley,
    adminKey: credentials.apiKey,
    browser,
    close: async () => {
      await browser.close()
      await parley.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export interface VisitorPage {
  readonly context: BrowserContext
  readonly page: Page
  readonly watch: PageWatch
}

/** A fresh visitor (own storage) watched for console errors, CSP violations and other origins. */
export const newVisitor = async (
  browser: Browser,
  allowedOrigins: ReadonlyArray<string>,
  options: { expectedConsoleErrors?: ReadonlyArray<RegExp>; context?: BrowserContextOptions } = {},
): Promise<VisitorPage> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options.context })
  const page = await context.newPage()
  const watch = await watchPage(page, {
    allowedOrigins,
    ...(options.expectedConsoleErrors === undefined ? {} : { expectedConsoleErrors: options.expectedConsoleErrors }),
  })
  return { context, page, watch }
}

/** Chromium logs every 4xx/5xx a page's fetch receives; a test that provokes one expects it. */
export const failedLoad = (status: number): RegExp =>
  new RegExp(`Failed to load resource: the server responded with a status of ${status}`)
