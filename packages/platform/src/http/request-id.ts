/**
 * Request ids: a caller's `X-Request-Id` is kept when it is a sane token (so a trace can cross
 * systems), otherwise replaced by a fresh one — an id is never reflected into logs and headers
 * unchecked.
 */
import type { IncomingMessage } from "node:http"
import { newId } from "../ids.ts"

export const REQUEST_ID_HEADER = "x-request-id"

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/

export const isAcceptableRequestId = (value: unknown): value is string =>
  typeof value === "string" && ACCEPTABLE.test(value)

export const requestIdOf = (request: IncomingMessage): string => {
  const given = request.headers[REQUEST_ID_HEADER]
  return isAcceptableRequestId(given) ? given : newId("req")
}
