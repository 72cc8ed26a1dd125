/**
 * Debian's Chromium, driven by playwright-core (browser downloads are impossible here, so Playwright
 * is given the system browser's path). A missing browser is an error that says how to get one,
 * never a skip: `.ci/run` installs it.
 */
import { existsSync } from "node:fs"
import { type Browser, chromium } from "playwright-core"

/** `PARLEY_CHROMIUM` overrides the path (another Chromium build, a Chrome). */
export const chromiumPath = (): string => process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium"

/**
 * The flags keep Chromium off the network it would otherwise reach for at start (component
 * updates, sync, field trials): this machine refuses those connections, and a test must see only
 * the requests the page under test makes.
 */
const QUIET_FLAGS = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-features=Translate,OptimizationHints,MediaRouter",
]

export const launchChromium = async (): Promise<Browser> => {
  const executablePath = chromiumPath()
  if (!existsSync(executablePath)) {
    throw new Error(
      `*** Browser tests need Chromium, and there is none at ${executablePath}. ` +
        "Install Debian's package (apt-get install chromium) — .ci/run does — or set PARLEY_CHROMIUM. ***",
    )
  }
  // Chromium's sandbox needs user namespaces that a root process in a container does not get.
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0
  return chromium.launch({
    executablePath,
    headless: true,
    args: [...QUIET_FLAGS, ...(asRoot ? ["--no-sandbox"] : [])],
  })
}
