import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { fastify } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { IMMUTABLE, loadStaticFiles, precompressFolder, REVALIDATE, sendStaticFile } from "./static-files.ts"

describe("static front-end files", () => {
  const app = fastify()
  let dir = ""
  const script = `export const greeting = ${JSON.stringify("hello ".repeat(200))}\n`

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "parley-static-"))
    await mkdir(join(dir, "assets"))
    await writeFile(join(dir, "index.html"), "<!doctype html><title>t</title>")
    await writeFile(join(dir, "assets", "app-3f9a1c.js"), script)
    const files = await loadStaticFiles(dir)
    app.get("/app/", (request, reply) =>
      sendStaticFile(request, reply, files.get("index.html")!, REVALIDATE, { "content-security-policy": "x" }),
    )
    app.get("/app/assets/app.js", (request, reply) =>
      sendStaticFile(request, reply, files.get("assets/app-3f9a1c.js")!, IMMUTABLE),
    )
  })
  afterAll(async () => {
    await app.close()
    await rm(dir, { recursive: true, force: true })
  })

  it("serves an entry point to be revalidated, with its type, ETag, nosniff and the extra headers", async () => {
    const response = await app.inject({ method: "GET", url: "/app/" })
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8")
    expect(response.headers["cache-control"]).toBe("no-cache")
    expect(response.headers["x-content-type-options"]).toBe("nosniff")
    expect(response.headers["content-security-policy"]).toBe("x")
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    expect(response.body).toBe("<!doctype html><title>t</title>")
  })

  it("answers 304 with no body when the client already has that version, also by a weak tag", async () => {
    const first = await app.inject({ method: "GET", url: "/app/" })
    const etag = String(first.headers.etag)
    const again = await app.inject({ method: "GET", url: "/app/", headers: { "if-none-match": `"other", W/${etag}` } })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe("")
    const changed = await app.inject({ method: "GET", url: "/app/", headers: { "if-none-match": '"other"' } })
    expect(changed.statusCode).toBe(200)
  })

  it("caches a content-hashed file for a year and sends it compressed when the client accepts it", async () => {
    const plain = await app.inject({ method: "GET", url: "/app/assets/app.js" })
    expect(plain.headers["cache-control"]).toBe(IMMUTABLE)
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(plain.body).toBe(script)

    const gzip = await app.inject({ method: "GET", url: "/app/assets/app.js", headers: { "accept-encoding": "gzip" } })
    expect(gzip.headers["content-encoding"]).toBe("gzip")
    expect(gzip.headers.vary).toBe("Accept-Encoding")
    expect(gunzipSync(gzip.rawPayload).toString("utf8")).toBe(script)
    expect(gzip.rawPayload.length).toBeLessThan(script.length / 5)

    const brotli = await app.inject({
      method: "GET",
      url: "/app/assets/app.js",
      headers: { "accept-encoding": "gzip, deflate, br" },
    })
    expect(brotli.headers["content-encoding"]).toBe("br")

    const refused = await app.inject({
      method: "GET",
      url: "/app/assets/app.js",
      headers: { "accept-encoding": "br;q=0" },
    })
    expect(refused.headers["content-encoding"]).toBeUndefined()
  })
})

describe("forms compressed by the build", () => {
  let dir = ""
  const script = `export const words = ${JSON.stringify("precompressed ".repeat(100))}\n`

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "parley-precompressed-"))
    await mkdir(join(dir, "assets"))
    await writeFile(join(dir, "assets", "app.js"), script)
    await writeFile(join(dir, "logo.png"), Buffer.alloc(1_000, 7))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it("writes a compressible file's gzip and brotli forms beside it, and none for an image", async () => {
    expect(await precompressFolder(dir)).toBe(1)
    const file = join(dir, "assets", "app.js")
    expect(gunzipSync(await readFile(`${file}.gz`)).toString("utf8")).toBe(script)
    expect(brotliDecompressSync(await readFile(`${file}.br`)).toString("utf8")).toBe(script)
    await expect(readFile(join(dir, "logo.png.br"))).rejects.toThrow()
  })

  it("serves the forms it finds (not compressing again) and never serves them as files of their own", async () => {
    await precompressFolder(dir)
    const file = join(dir, "assets", "app.js")
    // A marker form, newer than the file: the loader must take it as it is.
    const marker = Buffer.from("not really brotli, but read from the build")
    await writeFile(`${file}.br`, marker)
    const files = await loadStaticFiles(dir)
    expect([...files.keys()].sort()).toEqual(["assets/app.js", "logo.png"])
    expect(files.get("assets/app.js")?.brotli).toEqual(marker)
    expect(gunzipSync(files.get("assets/app.js")?.gzip ?? Buffer.alloc(0)).toString("utf8")).toBe(script)
  })

  it("compresses a file itself when a form is older than it (a build by hand after an earlier one)", async () => {
    await precompressFolder(dir)
    const file = join(dir, "assets", "app.js")
    await writeFile(`${file}.br`, Buffer.from("stale"))
    const past = new Date(Date.now() - 60_000)
    await utimes(`${file}.br`, past, past)
    const files = await loadStaticFiles(dir)
    expect(brotliDecompressSync(files.get("assets/app.js")?.brotli ?? Buffer.alloc(0)).toString("utf8")).toBe(script)
  })
})
