import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeHttpServer, makeLogger } from "@parley/platform"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { IMMUTABLE } from "./static-files.ts"
import { LOADER_CACHE, registerWidgetRoutes } from "./widget.ts"

const logger = makeLogger({ service: "gateway-test", level: "error" })

/** A build output shaped like `@parley/widget`'s: the loader and one hashed panel. */
const fakeBuild = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), "parley-widget-"))
  await mkdir(join(dir, "widget"))
  await writeFile(join(dir, "widget.js"), `(function(){import(${JSON.stringify("./widget/panel-AbC123.js")})})()\n`)
  await writeFile(join(dir, "widget", "panel-AbC123.js"), `export const mount = () => ${"1+".repeat(300)}1\n`)
  return dir
}

/** The gateway's own server shape, so that errors get the contract's body. */
const server = () => makeHttpServer({ service: "gateway-test", logger, readiness: [] })

describe("the widget's files", () => {
  const app = server()
  const counted: Array<string> = []
  let dir = ""

  beforeAll(async () => {
    dir = await fakeBuild()
    // Counting itself is the gateway's (test/rate-limits.test.ts); here it records what was counted.
    await registerWidgetRoutes(app, {
      dir,
      logger,
      count: async (request) => {
        counted.push(request.url)
      },
    })
  })
  afterAll(async () => {
    await app.close()
    await rm(dir, { recursive: true, force: true })
  })

  it("serves the loader short-cached with its ETag, loadable from any origin", async () => {
    const response = await app.inject({ method: "GET", url: "/widget.js", headers: { origin: "https://shop.example" } })
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(response.headers["cache-control"]).toBe(LOADER_CACHE)
    expect(response.headers.etag).toMatch(/^"[\w-]{27}"$/)
    expect(response.headers["access-control-allow-origin"]).toBe("*")
    expect(response.headers["cross-origin-resource-policy"]).toBe("cross-origin")
    expect(response.headers["x-content-type-options"]).toBe("nosniff")
    expect(response.body).toContain("panel-AbC123.js")
  })

  it("answers 304 to a loader the browser already has", async () => {
    const first = await app.inject({ method: "GET", url: "/widget.js" })
    const again = await app.inject({
      method: "GET",
      url: "/widget.js",
      headers: { "if-none-match": String(first.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe("")
    expect(again.headers["cache-control"]).toBe(LOADER_CACHE)
  })

  it("serves the hashed panel immutable, compressed, to a cross-origin import() (with a retry's query)", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/widget/panel-AbC123.js?attempt=1",
      headers: { origin: "http://127.0.0.1:5173", "accept-encoding": "gzip" },
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers["cache-control"]).toBe(IMMUTABLE)
    expect(response.headers["content-encoding"]).toBe("gzip")
    expect(response.headers["access-control-allow-origin"]).toBe("*")
    expect(response.headers["cross-origin-resource-policy"]).toBe("cross-origin")
  })

  it("answers 404 in the contract's shape for a file it does not have", async () => {
    for (const url of ["/widget/panel-old.js", "/widget/widget.js", "/widget/"]) {
      const response = await app.inject({ method: "GET", url })
      expect(response.statusCode, url).toBe(404)
    }
    const missing = await app.inject({ method: "GET", url: "/widget/panel-old.js" })
    expect(missing.json()).toEqual({ error: "Not found", code: "not_found" })
  })

  it("counts every request, served or not", async () => {
    counted.length = 0
    await app.inject({ method: "GET", url: "/widget.js" })
    await app.inject({ method: "GET", url: "/widget/panel-AbC123.js" })
    await app.inject({ method: "GET", url: "/widget/nothing.js" })
    expect(counted).toEqual(["/widget.js", "/widget/panel-AbC123.js", "/widget/nothing.js"])
  })

  it("answers 404 for /widget.js when the widget was never built, and says why in the log", async () => {
    const bare = server()
    const empty = await mkdtemp(join(tmpdir(), "parley-widget-none-"))
    const warn = vi.spyOn(logger, "warn")
    await registerWidgetRoutes(bare, { dir: join(empty, "dist"), logger, count: async () => undefined })
    expect((await bare.inject({ method: "GET", url: "/widget.js" })).statusCode).toBe(404)
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/no build in .*dist/)
    warn.mockRestore()
    await bare.close()
    await rm(empty, { recursive: true, force: true })
  })
})
