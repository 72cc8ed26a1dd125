/**
 * `npm run demo:widget`: the widget on a business's page, in a minute. Starts Parley as `npm start`
 * does (embedded, its data under `.parley/widget-demo/`), makes a widget key and opening hours on the
 * first run, and serves a host page on another origin with a strict CSP. It prints the console's
 * address and login too, so the leads and bookings made on the page can be looked at there (the
 * login is kept beside the widget key, in a file only its owner reads). Ctrl-C stops both.
 *
 *   PARLEY_DEMO_PORT   the host page's port (default 5173)
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { embeddedEnvironment, firstStartCredentials, startStandaloneProcess } from "@parley/standalone/testing"
import { startHostPage } from "./host-page.ts"
import { createWidgetKey, openEveryDay } from "./parley-setup.ts"

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
const dataDir = join(repoRoot, ".parley", "widget-demo")
const keyFile = join(dataDir, "demo-widget.json")

interface SavedDemo {
  readonly widgetKey?: string
  readonly console?: { readonly email: string; readonly password: string }
}

const readSaved = async (): Promise<SavedDemo> => {
  try {
    return JSON.parse(await readFile(keyFile, "utf8")) as SavedDemo
  } catch {
    return {}
  }
}

await mkdir(dataDir, { recursive: true })
console.log("Starting Parley for the widget demo (data in .parley/widget-demo)…")
const environment = await embeddedEnvironment(dataDir)
// The console accepts sessions from its public URL's origin only (docs/contract.md §2.4): this port's.
const publicUrl = `http://localhost:${environment.PARLEY_PORT}`
const parley = await startStandaloneProcess({ ...environment, PARLEY_PUBLIC_URL: publicUrl }, { timeoutMs: 120_000 })

const saved = await readSaved()
let widgetKey = saved.widgetKey
let login = saved.console
if (widgetKey === undefined) {
  const credentials = firstStartCredentials(parley.output())
  if (credentials === undefined) {
    await parley.stop()
    throw new Error(`The demo's Parley was set up before but its widget key is lost: delete ${dataDir} and run again.`)
  }
  await openEveryDay(parley.url, credentials.apiKey)
  widgetKey = await createWidgetKey(parley.url, credentials.apiKey, { name: "Widget demo" })
  login = { email: credentials.adminEmail, password: credentials.adminPassword }
  await writeFile(keyFile, `${JSON.stringify({ widgetKey, console: login } satisfies SavedDemo, null, 2)}\n`, {
    mode: 0o600,
  })
}

const host = await startHostPage({
  parleyUrl: parley.url,
  widgetKey,
  port: Number(process.env.PARLEY_DEMO_PORT ?? 5173),
})

console.log(`
Parley:     ${parley.url}
Host page:  ${host.origin}/   ← open this: the launcher is in the bottom corner
            ${host.origin}/hostile   the same page under a stylesheet that restyles everything it can
The snippet on that page:
  <script src="${parley.url}/widget.js" data-parley-key="${widgetKey}" async></script>
Try: "Hi, I'm Dana, please call me back on +1 415 555 0100", or "Book a time" in the panel.
Console:    ${publicUrl}/console/   ← the leads and bookings made on the page show there
            ${login === undefined ? "sign in with the login printed at this demo's first start (or delete .parley/widget-demo for a new one)" : `sign in as ${login.email} / ${login.password}`}
Ctrl-C stops the demo.`)

const stop = async () => {
  await host.close()
  await parley.stop()
  process.exit(0)
}
process.once("SIGINT", () => void stop())
process.once("SIGTERM", () => void stop())
