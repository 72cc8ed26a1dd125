/**
 * Screenshots for the README, produced by the browser tests (never made by hand). Every run takes
 * them; they go to `docs/screenshots/` at the repository root only when `PARLEY_UPDATE_SCREENSHOTS=1`
 * asks (`npm run screenshots`), so that a test run leaves the working tree as it found it, and to a
 * temporary folder otherwise.
 */
import { mkdir } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Page } from "playwright-core"

export const screenshotDir =
  process.env.PARLEY_UPDATE_SCREENSHOTS === "1"
    ? fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url))
    : join(tmpdir(), "parley-screenshots")

/** Common widths: a desktop and a phone (the console must work from 360 px). */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 740 },
} as const

/** Saves `<name>.png` (lower-case words and dashes) and returns its path. */
export const saveScreenshot = async (page: Page, name: string): Promise<string> => {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) throw new Error(`screenshot name ${name}: use lower-case-words`)
  await mkdir(screenshotDir, { recursive: true })
  const path = join(screenshotDir, `${name}.png`)
  await page.screenshot({ path, animations: "disabled" })
  return path
}
