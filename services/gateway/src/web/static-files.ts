/**
 * Built front-end files (the console, the widget) served by the gateway from memory. A bundle is a
 * few hundred kilobytes: reading it once at start, with its gzip and brotli forms and an ETag
 * computed then, costs nothing per request and needs no file-system access or compression on the
 * hot path. Content-hashed files are cached for a year (`immutable`); entry points (an HTML page,
 * the widget's loader) are revalidated with their ETag (304 when unchanged).
 */
import { createHash } from "node:crypto"
import { readdir, readFile, stat, unlink, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, extname, join, relative, sep } from "node:path"
import { promisify } from "node:util"
import { brotliCompress, gzip, constants as zlibConstants } from "node:zlib"
import type { FastifyReply, FastifyRequest } from "fastify"

export interface StaticFile {
  /** The path inside the bundle, with `/` separators: `index.html`, `assets/app-3f9a1c.js`. */
  readonly path: string
  readonly contentType: string
  readonly etag: string
  readonly identity: Buffer
  /** Present when compressing made the file smaller. */
  readonly gzip: Buffer | undefined
  readonly brotli: Buffer | undefined
}

/** `Cache-Control` for a file whose name carries its content hash. */
export const IMMUTABLE = "public, max-age=31536000, immutable"
/** `Cache-Control` for an entry point: always revalidated (cheap: a 304 when unchanged). */
export const REVALIDATE = "no-cache"

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
}

const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".map", ".svg", ".txt", ".webmanifest"])

/** The precompressed forms a front end's build writes beside a file (`precompressFolder`). */
const FORMS = [".br", ".gz"] as const

const listFiles = async (dir: string): Promise<Array<string>> => {
  const found: Array<string> = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...(await listFiles(path)))
    else if (entry.isFile()) found.push(path)
  }
  return found
}

const smaller = (compressed: Buffer, original: Buffer): Buffer | undefined =>
  compressed.length < original.length ? compressed : undefined

const gzipped = promisify(gzip)
const brotlied = promisify(brotliCompress)

const compressible = (path: string, identity: Buffer): boolean =>
  COMPRESSIBLE.has(extname(path).toLowerCase()) && identity.length > 256

/** A file's gzip and brotli forms (on libuv's threads, not the main thread). */
const compress = async (identity: Buffer): Promise<{ readonly gz: Buffer; readonly br: Buffer }> => ({
  gz: await gzipped(identity, { level: 9 }),
  br: await brotlied(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
})

/** The contents of `absolute + form` when it is at least as new as the file itself. */
const precompressed = async (absolute: string, form: string, modified: number): Promise<Buffer | undefined> => {
  const sibling = await stat(absolute + form).catch(() => undefined)
  return sibling !== undefined && sibling.mtimeMs >= modified ? readFile(absolute + form) : undefined
}

/**
 * One file read, with its compressed forms: those its build wrote beside it when they are fresh,
 * else compressed here (a front end built by hand with `vite build`).
 */
const loadStaticFile = async (dir: string, absolute: string): Promise<StaticFile> => {
  const path = relative(dir, absolute).split(sep).join("/")
  const extension = extname(path).toLowerCase()
  const identity = await readFile(absolute)
  let gzipForm: Buffer | undefined
  let brotliForm: Buffer | undefined
  if (compressible(path, identity)) {
    const modified = (await stat(absolute)).mtimeMs
    gzipForm = await precompressed(absolute, ".gz", modified)
    brotliForm = await precompressed(absolute, ".br", modified)
    if (gzipForm === undefined || brotliForm === undefined) {
      const forms = await compress(identity)
      gzipForm = forms.gz
      brotliForm = forms.br
    }
  }
  return {
    path,
    contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
    etag: `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`,
    identity,
    gzip: gzipForm === undefined ? undefined : smaller(gzipForm, identity),
    brotli: brotliForm === undefined ? undefined : smaller(brotliForm, identity),
  }
}

/** The files of a build that are served: a precompressed form beside its file is not one. */
const servedFiles = async (dir: string): Promise<Array<string>> => {
  const all = await listFiles(dir)
  const present = new Set(all)
  return all.filter((file) => !FORMS.some((form) => file.endsWith(form) && present.has(file.slice(0, -form.length))))
}

/**
 * Reads every file under `dir` (a front end's build output) into memory, keyed by its path, with
 * the compressed forms its build wrote (`precompressFolder`). Compressing in this process instead
 * (brotli at quality 11: about 0.4 s of CPU per start) left it larger for good, as glibc keeps what
 * the encoders freed: 16–20 MB with every file at once, 9 MB one after another (issue #28's memory
 * target). What is compressed here still goes one encoder at a time.
 */
export const loadStaticFiles = async (dir: string): Promise<ReadonlyMap<string, StaticFile>> => {
  const files = new Map<string, StaticFile>()
  for (const absolute of await servedFiles(dir)) {
    const file = await loadStaticFile(dir, absolute)
    files.set(file.path, file)
  }
  return files
}

/**
 * Writes each compressible file's gzip and brotli forms beside it (`app.js.gz`, `app.js.br`): the
 * last step of a front end's build (`node services/gateway/src/web/precompress.ts dist`), so that
 * the gateway only reads them. Both forms are written even when not smaller (the gateway then serves
 * the file as it is): a missing form means "not precompressed", not "not worth it".
 */
export const precompressFolder = async (dir: string): Promise<number> => {
  let written = 0
  for (const absolute of await listFiles(dir)) {
    if (FORMS.some((form) => absolute.endsWith(form))) continue
    const identity = await readFile(absolute)
    if (!compressible(absolute, identity)) {
      for (const form of FORMS) await unlink(absolute + form).catch(() => undefined)
      continue
    }
    const forms = await compress(identity)
    await writeFile(`${absolute}.gz`, forms.gz)
    await writeFile(`${absolute}.br`, forms.br)
    written++
  }
  return written
}

/**
 * The build output folder of a front-end workspace (`@parley/console` → `packages/console/dist`),
 * found through the package's own `package.json` so that it works from sources, from `dist` and in
 * the container image alike.
 */
export const webPackageDist = (packageName: string): string =>
  join(dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`)), "dist")

const etagMatches = (header: string | undefined, etag: string): boolean => {
  if (header === undefined) return false
  if (header.trim() === "*") return true
  // Weak and strong forms of the same tag match for GET (RFC 9110 §13.1.2, weak comparison).
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag)
}

const acceptsEncoding = (header: string | undefined, encoding: "br" | "gzip"): boolean => {
  if (header === undefined) return false
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().split(";")
    if (name?.trim().toLowerCase() !== encoding) continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
    return q === undefined || Number(q.slice(2)) > 0
  }
  return false
}

/**
 * Answers `file`: 304 when the client's `If-None-Match` names it, else the bytes in the best encoding
 * the client accepts. `headers` adds to the response (a page's Content-Security-Policy, say).
 */
export const sendStaticFile = (
  request: FastifyRequest,
  reply: FastifyReply,
  file: StaticFile,
  cacheControl: string,
  headers: Readonly<Record<string, string>> = {},
): FastifyReply => {
  reply
    .header("cache-control", cacheControl)
    .header("etag", file.etag)
    .header("vary", "Accept-Encoding")
    .header("x-content-type-options", "nosniff")
  for (const [name, value] of Object.entries(headers)) reply.header(name, value)
  if (etagMatches(request.headers["if-none-match"], file.etag)) return reply.code(304).send()
  const accept = request.headers["accept-encoding"]
  let body = file.identity
  if (file.brotli !== undefined && acceptsEncoding(accept, "br")) {
    body = file.brotli
    reply.header("content-encoding", "br")
  } else if (file.gzip !== undefined && acceptsEncoding(accept, "gzip")) {
    body = file.gzip
    reply.header("content-encoding", "gzip")
  }
  return reply.type(file.contentType).send(body)
}
