/**
 * Bodies at the edge. JSON bodies are read whole within their limit and checked before anything is
 * forwarded (a malformed body is a 400 here, not a 500 somewhere behind); upload bodies are
 * streamed through with a byte budget, so a 16 MiB upload is never held in the gateway's memory.
 */
import type { IncomingHttpHeaders } from "node:http"
import { type Readable, Transform, type TransformCallback } from "node:stream"
import { type ApiError, essence, parseStrictJson, readBody } from "@parley/platform"
import { InvalidBody, PayloadTooLarge, UnsupportedMediaType } from "../errors.ts"
import type { Route } from "../routing/route-table.ts"
import { toApiError } from "./errors.ts"

/** Whether the request's content type suits the route's body (415 otherwise): its declared media types for uploads. */
export const acceptsContentType = (route: Route, contentType: string | undefined): boolean => {
  switch (route.body) {
    case "json":
      return essence(contentType) === "application/json"
    case "media":
    case "csv":
      return route.mediaTypes?.test(essence(contentType)) === true
    case "raw":
      return true
  }
}

export const checkContentType = (route: Route, headers: IncomingHttpHeaders): void => {
  if (!acceptsContentType(route, headers["content-type"])) throw toApiError(new UnsupportedMediaType())
}

/** Refuses up front a body whose declared length is over the limit. */
export const checkDeclaredLength = (headers: IncomingHttpHeaders, limit: number): void => {
  const declared = Number(headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) throw toApiError(new PayloadTooLarge())
}

export interface JsonBody {
  readonly bytes: Buffer
  /** `undefined` for an empty body. */
  readonly value: unknown
}

/**
 * NUL characters are refused at the edge: no service stores them (Postgres text cannot hold one),
 * so one reaching a service could only end as a 500 there. JSON can carry one only escaped.
 */
const NUL_REFUSED = "text must not contain NUL characters"

const containsNul = (value: unknown): boolean => {
  if (typeof value === "string") return value.includes("\0")
  if (Array.isArray(value)) return value.some(containsNul)
  if (value !== null && typeof value === "object") {
    return Object.entries(value).some(([key, field]) => key.includes("\0") || containsNul(field))
  }
  return false
}

export const readJsonBody = async (stream: Readable, limit: number): Promise<JsonBody> => {
  const bytes = await readBody(stream, limit)
  if (bytes.length === 0) return { bytes, value: undefined }
  const text = bytes.toString("utf8")
  let value: unknown
  try {
    value = parseStrictJson(text)
  } catch {
    throw toApiError(new InvalidBody({ what: "malformed JSON body" }))
  }
  // Only a body that spells the escape can hold a NUL: the walk is skipped for every other one.
  if (/\\u0000/i.test(text) && containsNul(value)) throw toApiError(new InvalidBody({ what: NUL_REFUSED }))
  return { bytes, value }
}

/** A streamed body refused mid-way; the pipeline answers `apiError`. */
export class BodyRefused extends Error {
  override readonly name = "BodyRefused"
  readonly apiError: ApiError

  constructor(apiError: ApiError) {
    super(apiError.error)
    this.apiError = apiError
  }
}

/**
 * Passes bytes through until more than `limit` have gone by, then fails the stream (413); with
 * `refuseNul`, a NUL byte fails it too (400) — for text uploads (CSV), where one is never valid.
 */
export const byteBudget = (limit: number, options: { readonly refuseNul?: boolean } = {}): Transform => {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      seen += chunk.length
      if (seen > limit) callback(new BodyRefused(toApiError(new PayloadTooLarge())))
      else if (options.refuseNul === true && chunk.includes(0))
        callback(new BodyRefused(toApiError(new InvalidBody({ what: NUL_REFUSED }))))
      else callback(null, chunk)
    },
  })
}
