/**
 * One Parley for a browser-test file, started as `npm start` starts it (a child process of
 * services/standalone's entry point, embedded Postgres, first-start demo account), with what the
 * console's tests need around it: the public URL set to the origin the browser uses (CSRF, §2.4),
 * webhooks allowed to loopback receivers, and a loopback stand-in for the messaging provider.
 * Plus one Chromium, and pages that fail the test on a console error, a CSP violation or a request
 * to another origin.
 */
import { createHmac, randomBytes } from "node:crypto"
import { rm } from "node:fs/promises"
import { join } from "node:path"
import { launchChromium, type PageWatch, VIEWPORTS, watchPage } from "@parley/browser-testing"
import { type StubServer, startHttpServer } from "@parley/platform/testing"
import {
  cloudProviderHandler,
  embeddedEnvironment,
  type FirstStartCredentials,
  firstStartCredentials,
  type StandaloneProcess,
  startStandaloneProcess,
  temporaryRoot,
} from "@parley/standalone/testing"
import type { Browser, BrowserContext, Locator, Page } from "playwright-core"

export interface ConsolePage {
  readonly context: BrowserContext
  readonly page: Page
  readonly watch: PageWatch
}

export interface Parley {
  /** `http://localhost:<port>`: the public URL, the one origin sessions accept. */
  readonly origin: string
  readonly demo: FirstStartCredentials
  readonly process: StandaloneProcess
  readonly provider: StubServer
  readonly browser: Browser
  /** A fresh browser context (no cookies) and page, watched. */
  newPage(options?: { viewport?: keyof typeof VIEWPORTS; colorScheme?: "light" | "dark" }): Promise<ConsolePage>
  /** Opens the console and signs in. */
  signIn(page: Page, email: string, password: string): Promise<void>
  /** A call to the API as a server would make it (no browser), with the demo's full-access key by default. */
  api(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: unknown }>
  /** The provider calling Parley back, signed with the app secret (§10.1). */
  providerCallback(payload: unknown): Promise<number>
  close(): Promise<void>
}

const unique = () => randomBytes(6).toString("hex")

export const startParley = async (): Promise<Parley> => {
  // Reachable by the embedded PostgreSQL's own user when the tests run as root.
  const dataDir = await temporaryRoot("parley-console-")
  const provider = await startHttpServer(cloudProviderHandler)
  const env = await embeddedEnvironment(join(dataDir, "data"))
  const origin = `http://localhost:${env.PARLEY_PORT}`
  const appSecret = randomBytes(16).toString("hex")
  const process = await startStandaloneProcess(
    {
      ...env,
      PARLEY_PUBLIC_URL: origin,
      PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
      PARLEY_CLOUD_API_URL: provider.url,
      PARLEY_CLOUD_APP_SECRET: appSecret,
      PARLEY_CLOUD_VERIFY_TOKEN: unique(),
      // Every test of the machine is 127.0.0.1: a walk through every screen must not meet the limit.
      PARLEY_RATE_GENERAL_PER_MIN: "100000",
      PARLEY_RATE_HEAVY_PER_MIN: "100000",
    },
    // A first start (embedded Postgres, migrations, the demo account) on a loaded machine.
    { timeoutMs: 120_000 },
  )
  const demo = firstStartCredentials(process.output())
  if (demo === undefined) throw new Error(`no first-start credentials in:\n${process.output()}`)
  const browser = await launchChromium()
  const contexts: Array<BrowserContext> = []

  const api: Parley["api"] = async (method, path, body, key = demo.apiKey) => {
    const response = await fetch(`${process.url}${path}`, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }

  return {
    origin,
    demo,
    process,
    provider,
    browser,
    newPage: async ({ viewport = "desktop", colorScheme = "light" } = {}) => {
      const context = await browser.newContext({ viewport: VIEWPORTS[viewport], colorScheme, acceptDownloads: true })
      contexts.push(context)
      const page = await context.newPage()
      const watch = await watchPage(page, {
        allowedOrigins: [origin],
        // Refusals the tests provoke on purpose are logged by Chromium as failed loads.
        expectedConsoleErrors: [/Failed to load resource: the server responded with a status of 4\d\d/],
      })
      return { context, page, watch }
    },
    signIn: async (page, email, password) => {
      await page.goto(`${origin}/console/`)
      await page.getByLabel("Email").fill(email)
      await page.getByLabel("Password").fill(password)
      await page.getByRole("button", { name: "Sign in" }).click()
      await page.getByRole("button", { name: "Sign out" }).waitFor()
    },
    api,
    providerCallback: async (payload) => {
      const raw = JSON.stringify(payload)
      const signature = createHmac("sha256", appSecret).update(raw).digest("hex")
      const response = await fetch(`${process.url}/channels/cloud/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${signature}` },
        body: raw,
      })
      await response.body?.cancel()
      return response.status
    },
    close: async () => {
      for (const context of contexts) await context.close().catch(() => undefined)
      await browser.close().catch(() => undefined)
      await process.stop()
      await provider.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Waits until `locator` is visible (Playwright's own auto-wait, bounded). */
export const visible = async (locator: Locator, timeout = 15_000): Promise<Locator> => {
  await locator.waitFor({ state: "visible", timeout })
  return locator
}

/** Opens `url` and waits for its screen: the heading, then nothing still loading. */
export const openScreen = async (page: Page, url: string, heading: string | RegExp): Promise<void> => {
  await page.goto(url)
  await visible(page.getByRole("heading", { name: heading, level: 1 }))
  await page
    .getByText(/^Loading /)
    .first()
    .waitFor({ state: "detached", timeout: 10_000 })
}
