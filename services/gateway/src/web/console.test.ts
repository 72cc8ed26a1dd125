import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fastify } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CONSOLE_CSP, loadConsoleFiles, registerConsoleRoutes } from "./console.ts"
import { IMMUTABLE } from "./static-files.ts"

describe("the console's routes", () => {
  const app = fastify()
  let dir = ""
  let counted = 0
  const page =
    '<!doctype html><title>Parley console</title><script type="module" src="/console/assets/index-AbC123.js"></script>'

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "parley-console-"))
    await mkdir(join(dir, "assets"))
    await writeFile(join(dir, "index.html"), page)
    await writeFile(join(dir, "assets", "index-AbC123.js"), "console.log('console')\n")
    await writeFile(join(dir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>")
    const files = await loadConsoleFiles(dir, { warn: () => undefined })
    registerConsoleRoutes(app, {
      files: files!,
      count: async () => {
        counted++
      },
    })
  })
  afterAll(async () => {
    await app.close()
    await rm(dir, { recursive: true, force: true })
  })

  it("redirects the bare origin and /console to /console/", async () => {
    const root = await app.inject({ method: "GET", url: "/" })
    expect(root.statusCode).toBe(302)
    expect(root.headers.location).toBe("/console/")
    const bare = await app.inject({ method: "GET", url: "/console" })
    expect(bare.statusCode).toBe(301)
    expect(bare.headers.location).toBe("/console/")
  })

  it("serves the page with its content security policy, revalidated by ETag", async () => {
    const response = await app.inject({ method: "GET", url: "/console/" })
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(page)
    expect(response.headers["cache-control"]).toBe("no-cache")
    expect(response.headers["content-security-policy"]).toBe(CONSOLE_CSP)
    expect(CONSOLE_CSP).toContain("script-src 'self'")
    expect(CONSOLE_CSP).not.toContain("unsafe-inline")
    expect(CONSOLE_CSP).not.toContain("unsafe-eval")
    expect(response.headers["x-frame-options"]).toBe("DENY")
    const again = await app.inject({
      method: "GET",
      url: "/console/",
      headers: { "if-none-match": String(response.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
  })

  it("answers a deep link or a reload of any screen with the page, so the console routes it", async () => {
    for (const url of ["/console/leads", "/console/settings/webhooks/wh_123", "/console/index.html"]) {
      const response = await app.inject({ method: "GET", url })
      expect(response.statusCode, url).toBe(200)
      expect(response.body, url).toBe(page)
      expect(response.headers["content-security-policy"], url).toBe(CONSOLE_CSP)
    }
  })

  it("caches hashed assets for a year and other files by revalidation", async () => {
    const script = await app.inject({ method: "GET", url: "/console/assets/index-AbC123.js" })
    expect(script.statusCode).toBe(200)
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(script.headers["cache-control"]).toBe(IMMUTABLE)
    const icon = await app.inject({ method: "GET", url: "/console/favicon.svg" })
    expect(icon.statusCode).toBe(200)
    expect(icon.headers["cache-control"]).toBe("no-cache")
  })

  it("answers a missing file 404 rather than with the page, so a stale script tag never gets HTML", async () => {
    for (const url of ["/console/assets/index-Old999.js", "/console/robots.txt"]) {
      const response = await app.inject({ method: "GET", url })
      expect(response.statusCode, url).toBe(404)
      expect(response.json(), url).toEqual({ error: "Not found", code: "not_found" })
    }
  })

  it("counts every request against the rate limit", async () => {
    const before = counted
    await app.inject({ method: "GET", url: "/console/" })
    await app.inject({ method: "GET", url: "/console/assets/index-AbC123.js" })
    await app.inject({ method: "GET", url: "/" })
    expect(counted - before).toBe(3)
  })

  it("is not served, and says so, when there is no build", async () => {
    const warnings: Array<string> = []
    const files = await loadConsoleFiles(join(dir, "missing"), { warn: (message) => warnings.push(message) })
    expect(files).toBeUndefined()
    expect(warnings[0]).toMatch(/console: no build found/)
  })
})
