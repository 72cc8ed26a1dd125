/**
 * Built front-end files (the console, the widget) served by the gateway from memory. A bundle is a
 * few hundred kilobytes: reading it once at start, with its gzip and brotli forms and an ETag
 * computed then, costs nothing per request and needs no file-system access or compression on the
 * hot path. Content-hashed files are cached for a year (`immutable`); entry points (an HTML page,
 * the widget's loader) are revalidated with their ETag (304 when unchanged).
 */
import { createHash } from "node:crypto"
import { readdir, readFile } from "node:fs/promises"
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

/** One file read and, when worth it, compressed (on libuv's threads, not the main thread). */
const loadStaticFile = async (dir: string, absolute: string): Promise<StaticFile> => {
  const path = relative(dir, absolute).split(sep).join("/")
  const extension = extname(path).toLowerCase()
  const identity = await readFile(absolute)
  const compressible = COMPRESSIBLE.has(extension) && identity.length > 256
  const gzipForm = compressible ? await gzipped(identity, { level: 9 }) : undefined
  const brotliForm = compressible
    ? await brotlied(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } })
    : undefined
  return {
    path,
    contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
    etag: `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`,
    identity,
    gzip: gzipForm === undefined ? undefined : smaller(gzipForm, identity),
    brotli: brotliForm === undefined ? undefined : smaller(brotliForm, identity),
  }
}

/**
 * Reads every file under `dir` (a front end's build output) into memory, keyed by its path. The
 * files are compressed on libuv's thread pool, one encoder at a time: brotli at quality 11 is the
 * slowest part of a start (about 0.4 s of the main thread when it ran synchronously), and off the
 * main thread it overlaps with the rest of the start. One at a time because concurrent quality-11
 * encoders each hold megabytes of state: all files at once left the process 16–20 MB larger for
 * good (glibc keeps the freed memory), against 9 MB for one after another.
 */
export const loadStaticFiles = async (dir: string): Promise<ReadonlyMap<string, StaticFile>> => {
  const files = new Map<string, StaticFile>()
  for (const absolute of await listFiles(dir)) {
    const file = await loadStaticFile(dir, absolute)
    files.set(file.path, file)
  }
  return files
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
