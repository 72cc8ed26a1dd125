/**
 * The console's first load stays within its budget (issue #16: at most 150 KB of JavaScript gzip):
 * the scripts `index.html` loads before anything else — its module entry and the chunks it
 * preloads — measured in the build (`dist/`, fresh from the global setup). Screens load later.
 */
import { readFile } from "node:fs/promises"
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"

const dist = new URL("../dist/", import.meta.url)
const BUDGET_BYTES = 150 * 1024

describe("the console's build", () => {
  it("loads at most 150 KB of JavaScript gzip before the first screen", async () => {
    const page = await readFile(new URL("index.html", dist), "utf8")
    const scripts = [
      ...page.matchAll(/<script[^>]+src="\/console\/([^"]+\.js)"/g),
      ...page.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/console\/([^"]+\.js)"/g),
    ].map((match) => match[1] as string)
    expect(scripts.length).toBeGreaterThan(0)
    let gzipped = 0
    for (const script of scripts) gzipped += gzipSync(await readFile(new URL(script, dist)), { level: 9 }).length
    console.info(`console first load: ${scripts.length} script(s), ${(gzipped / 1024).toFixed(1)} KB gzip`)
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES)
  })

  it("has no inline script and nothing from another origin in its page", async () => {
    const page = await readFile(new URL("index.html", dist), "utf8")
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//)
  })
})
