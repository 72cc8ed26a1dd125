/**
 * The console's one way to the API: `openapi-fetch` typed by the OpenAPI document the gateway
 * serves (`generated/openapi.ts`, written at build time from `@parley/contracts`). Requests are
 * same-origin and carry the session cookie; the browser adds `Origin`, which the gateway's CSRF
 * rule (docs/contract.md §2.4) compares with `PARLEY_PUBLIC_URL`. Nothing here knows a route the
 * contract does not document.
 */
import createClient, { type Middleware } from "openapi-fetch"
import type { components, paths } from "./generated/openapi.ts"

export type { paths }

export type Schemas = components["schemas"]

type JsonOf<Reply> = Reply extends { content: { "application/json": infer Body } } ? Body : never
/** The JSON body of an operation's success (200, 201 or 202): `Answer<"/api/auth/me", "get">`. */
export type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R }
  ? JsonOf<R[Extract<keyof R, 200 | 201 | 202>]>
  : never
/** The JSON request body of an operation. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { "application/json": infer Body } }
}
  ? Body
  : never

export const api = createClient<paths>({ baseUrl: "" })

/** An API error as the contract words it: `{ error, code, issues? }` and the status. */
export class ApiFailure extends Error {
  readonly status: number
  readonly code: string
  readonly issues: ReadonlyArray<{ readonly path: string; readonly message: string }>
  constructor(status: number, code: string, message: string, issues: ReadonlyArray<{ path: string; message: string }>) {
    super(message)
    this.name = "ApiFailure"
    this.status = status
    this.code = code
    this.issues = issues
  }
}

const issuesOf = (value: unknown): Array<{ path: string; message: string }> =>
  Array.isArray(value)
    ? value.flatMap((issue) =>
        typeof issue?.message === "string" ? [{ path: String(issue.path ?? ""), message: issue.message }] : [],
      )
    : []

/** Any failure as an ApiFailure: a lost network is one too, said in words a person can act on. */
export const asFailure = (error: unknown): ApiFailure => {
  if (error instanceof ApiFailure) return error
  return new ApiFailure(0, "network", "Parley could not be reached. Check your connection and try again.", [])
}

/**
 * The body of a successful answer, or an ApiFailure carrying the answer's own `error` text (never a
 * generic message in its place).
 */
export const unwrap = async <Data>(
  request: Promise<{ data?: Data; error?: unknown; response: Response }>,
): Promise<Data> => {
  let result: { data?: Data; error?: unknown; response: Response }
  try {
    result = await request
  } catch (error) {
    throw asFailure(error)
  }
  const { response } = result
  if (response.ok) return result.data as Data
  const body = result.error as { error?: unknown; code?: unknown; issues?: unknown } | undefined
  throw new ApiFailure(
    response.status,
    typeof body?.code === "string" ? body.code : `http_${response.status}`,
    typeof body?.error === "string" ? body.error : `The server answered ${response.status} ${response.statusText}`,
    issuesOf(body?.issues),
  )
}

/**
 * Tells the session (`session.ts`) when a request made with the session cookie was refused as
 * unauthenticated: the session expired or was ended elsewhere (a member removed, say).
 */
export const onSessionLost = (listener: () => void): void => {
  const middleware: Middleware = {
    onResponse({ request, response }) {
      const path = new URL(request.url).pathname
      if (response.status === 401 && !request.headers.has("x-api-key") && path !== "/api/auth/login") listener()
      return undefined
    },
  }
  api.use(middleware)
}
