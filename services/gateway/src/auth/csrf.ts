/**
 * CSRF defence for requests a browser authenticates with the session cookie (docs/contract.md §2.4:
 * "a request body must be application/json (bodiless DELETE and logout are fine), and when an
 * Origin header is present it must equal PARLEY_PUBLIC_URL's origin"). A mutating request (POST,
 * PUT, PATCH, DELETE) with a session is refused when:
 * - it carries an `Origin` that is not `PARLEY_PUBLIC_URL`'s origin: 403 `origin_not_allowed`
 *   with the table's text for that code, "Origin not allowed for this API key" (a client matches
 *   the code and its text exactly, though the text names API keys);
 * - it has a body that is not `application/json`: 415 `unsupported_media_type`, the table's answer
 *   to a wrong content type. That includes the media upload and the contacts import, whose bodies
 *   are not JSON by definition: with a session they are refused, as the contract says; they take
 *   an API key.
 */
import type { IncomingHttpHeaders } from "node:http"
import { essence } from "@parley/platform"
import { CrossSiteRequest, UnsupportedMediaType } from "../errors.ts"
import { toApiError } from "../http/errors.ts"

export interface CsrfPolicy {
  /** `PARLEY_PUBLIC_URL`'s origin (`https://parley.example.com`). */
  readonly publicOrigin: string
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"])

export const checkCsrf = (
  policy: CsrfPolicy,
  request: { readonly method: string; readonly headers: IncomingHttpHeaders; readonly hasBody: boolean },
): void => {
  if (!MUTATING.has(request.method)) return
  const origin = request.headers.origin
  if (typeof origin === "string" && origin !== policy.publicOrigin) {
    throw toApiError(new CrossSiteRequest())
  }
  if (!request.hasBody) return
  const type = essence(request.headers["content-type"])
  if (type !== "application/json") throw toApiError(new UnsupportedMediaType())
}
