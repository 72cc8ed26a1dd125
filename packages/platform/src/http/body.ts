/**
 * Body parsing. JSON is the default and the only type a route accepts unless it opts in: any other
 * content type gets 415 before its bytes are read. A route opts in to raw bytes with
 * `config: { rawBody: … }`:
 *
 * - `rawBody: true` — a JSON route that also keeps the exact bytes in `request.rawBody` (signature checks).
 * - `rawBody: { json: "raw" }` — JSON bytes are not parsed at all: `request.body` is the Buffer (verify
 *   the signature first, then decode).
 * - `rawBody: { mediaTypes: ["text/csv"] }` — the route accepts only those types (`image/*` patterns
 *   allowed), as a Buffer; JSON too only when `application/json` is listed (then parsed as above).
 *
 * Limits are the route's `bodyLimit` (Fastify's route option) or the server's; over it → 413.
 */
import type { Readable } from "node:stream"
import type { FastifyInstance, FastifyRequest } from "fastify"
import { type ApiError, invalidRequest, payloadTooLarge, unsupportedMediaType } from "../errors.ts"

export interface RawBodyOptions {
  /**
   * The only media types the route accepts (`"text/csv"`, `"image/*"`); non-JSON ones arrive as a
   * Buffer. Without it, the route accepts JSON only.
   */
  readonly mediaTypes?: ReadonlyArray<string>
  /** `"parse"` (default): JSON is parsed and the bytes kept too; `"raw"`: the body stays a Buffer. */
  readonly json?: "parse" | "raw"
}

declare module "fastify" {
  interface FastifyContextConfig {
    rawBody?: boolean | RawBodyOptions
  }
  interface FastifyRequest {
    /** The exact body bytes, on routes that opted in with `config.rawBody`. */
    rawBody: Buffer | undefined
  }
}

const optionsOf = (request: FastifyRequest): RawBodyOptions | undefined => {
  const option = request.routeOptions.config.rawBody
  if (option === undefined || option === false) return undefined
  return option === true ? {} : option
}

/** The media type of a `Content-Type` header, lower-cased, without parameters (`""` when absent). */
export const essence = (contentType: string | undefined): string =>
  (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? ""

export const mediaTypeMatches = (patterns: ReadonlyArray<string>, contentType: string | undefined): boolean => {
  const type = essence(contentType)
  if (type === "") return false
  return patterns.some((pattern) => {
    const p = pattern.toLowerCase()
    return p.endsWith("/*") ? type.startsWith(p.slice(0, -1)) : type === p
  })
}

/** Strict JSON: well-formed, and no keys that could reach an object's prototype later. */
export const parseStrictJson = (text: string): unknown => {
  const guardKeys = text.includes("__proto__") || text.includes("constructor")
  // A lone UTF-16 surrogate can only arrive as a `\uD800`-style escape; no store of ours (Postgres
  // text or jsonb) can hold it, so such a body is refused here rather than failing deep inside a service.
  const guardSurrogates = /\\u[dD][89a-fA-F]/.test(text)
  if (!guardKeys && !guardSurrogates) return JSON.parse(text)
  return JSON.parse(text, (key, value) => {
    if (
      key === "__proto__" ||
      (key === "constructor" && value !== null && typeof value === "object" && "prototype" in value)
    ) {
      throw new SyntaxError("forbidden key")
    }
    if (guardSurrogates && ((typeof value === "string" && !value.isWellFormed()) || !key.isWellFormed())) {
      throw new SyntaxError("unpaired surrogate")
    }
    return value
  })
}

/**
 * Reads a whole body, refusing it (413) as soon as it passes `limit` bytes — the one reader of
 * bodies held in memory: Fastify's non-JSON routes here and the gateway's JSON bodies. A body whose
 * declared length is already over the limit is refused by the caller before it is read.
 */
export const readBody = (stream: Readable, limit: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let received = 0
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk
      received += bytes.length
      if (received > limit) {
        cleanup()
        reject(payloadTooLarge())
        return
      }
      chunks.push(bytes)
    }
    const onEnd = (error?: Error) => {
      cleanup()
      if (error !== undefined) reject(error)
      else resolve(Buffer.concat(chunks, received))
    }
    const cleanup = () => {
      stream.removeListener("data", onData)
      stream.removeListener("end", onEnd)
      stream.removeListener("error", onEnd)
    }
    stream.on("data", onData)
    stream.on("end", onEnd)
    stream.on("error", onEnd)
    stream.resume()
  })

/** Replaces Fastify's default parsers (which accept `text/plain` anywhere) with the rules above. */
export const installBodyParsers = (app: FastifyInstance): void => {
  app.decorateRequest("rawBody", undefined)
  app.removeAllContentTypeParsers()

  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    const bytes = body as Buffer
    const options = optionsOf(request)
    if (options?.mediaTypes !== undefined && !mediaTypeMatches(options.mediaTypes, "application/json")) {
      return done(unsupportedMediaType(), undefined)
    }
    if (options !== undefined) request.rawBody = bytes
    if (options?.json === "raw") return done(null, bytes)
    // An empty body is "no body": a route that needs one answers 400 from its schema.
    if (bytes.length === 0) return done(null, undefined)
    try {
      done(null, parseStrictJson(bytes.toString("utf8")))
    } catch {
      done(invalidRequest("malformed JSON body"), undefined)
    }
  })

  app.addContentTypeParser("*", (request, payload, done) => {
    const contentType = request.headers["content-type"]
    const options = optionsOf(request)
    if (options?.mediaTypes === undefined || !mediaTypeMatches(options.mediaTypes, contentType)) {
      return done(unsupportedMediaType(), undefined)
    }
    const limit = request.routeOptions.bodyLimit
    if (Number(request.headers["content-length"]) > limit) return done(payloadTooLarge(), undefined)
    readBody(payload, limit).then(
      (bytes) => {
        request.rawBody = bytes
        done(null, bytes)
      },
      (error: ApiError | Error) => done(error, undefined),
    )
  })
}

/** The raw bytes of a route that opted in; a programming error (500) on one that did not. */
export const rawBodyOf = (request: FastifyRequest): Buffer => {
  if (request.rawBody === undefined) {
    if (Buffer.isBuffer(request.body)) return request.body
    if (optionsOf(request) !== undefined) return Buffer.alloc(0)
    throw new Error(`route ${request.routeOptions.url} did not opt in to raw bodies (config.rawBody)`)
  }
  return request.rawBody
}
