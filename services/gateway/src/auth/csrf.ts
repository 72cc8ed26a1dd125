/**
 * CSRF defence for requests a browser authenticates with the session cookie (CONTRACT.md §2.4).
 *
 * A mutating request (POST, PUT, PATCH, DELETE) is refused with 403 `origin_not_allowed`
 * ("Cross-site request refused") when:
 * - it carries an `Origin` that is not `PARLEY_PUBLIC_URL`'s origin, or
 * - it has a body whose type a cross-site page can send without a CORS preflight
 *   (`application/x-www-form-urlencoded`, `multipart/form-data`, `text/plain`) or no type at all.
 *
 * JSON bodies, bodiless requests (DELETE, logout) and the non-JSON uploads of the private API
 * (`image/*` to `/api/media`, `text/csv` to `/api/contacts/import`, which a browser can only send
 * cross-site after a preflight this gateway never grants to the dashboard's routes) pass. The
 * contract's wording is "a body must be application/json"; the uploads are the two routes whose
 * bodies are not JSON by definition, and every other JSON route answers any other type with 415.
 */
import type { IncomingHttpHeaders } from "node:http"
import { forbidden } from "@parley/platform"

export interface CsrfPolicy {
  /** `PARLEY_PUBLIC_URL`'s origin (`https://parley.example.com`). */
  readonly publicOrigin: string
}

export const CSRF_REFUSED = "Cross-site request refused"

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"])
const SIMPLE_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"])

const essence = (contentType: string | undefined): string =>
  (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? ""

export const checkCsrf = (
  policy: CsrfPolicy,
  request: { readonly method: string; readonly headers: IncomingHttpHeaders; readonly hasBody: boolean },
): void => {
  if (!MUTATING.has(request.method)) return
  const origin = request.headers.origin
  if (typeof origin === "string" && origin !== policy.publicOrigin) {
    throw forbidden("origin_not_allowed", CSRF_REFUSED)
  }
  if (!request.hasBody) return
  const type = essence(request.headers["content-type"])
  if (type === "" || SIMPLE_TYPES.has(type)) throw forbidden("origin_not_allowed", CSRF_REFUSED)
}
