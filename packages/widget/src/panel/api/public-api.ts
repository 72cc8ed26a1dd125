/**
 * The widget's client of the public surface, `/api/public/*` of the Parley it came from (docs/contract.md
 * §8), with the key in `X-API-Key` (§2.2) and no cookies. Every failure becomes one of three kinds the
 * panel knows how to show: try again later (429 and 503, with their `Retry-After`), offline (no
 * answer at all), refused (any other status, with the contract's `{ error, code }`).
 */
import type {
  ChatRequest,
  ChatResponse,
  ChatTranscript,
  CreateBookingRequest,
  FormBookingRecord,
  SlotsResponse,
  WidgetWelcome,
} from "@parley/contracts"

export type Transcript = (typeof ChatTranscript)["Type"]
export type DaySlots = (typeof SlotsResponse)["Type"]
export type Welcome = (typeof WidgetWelcome)["Type"]

export type Failure =
  | { readonly kind: "retryLater"; readonly status: number; readonly seconds: number }
  | { readonly kind: "offline" }
  | { readonly kind: "refused"; readonly status: number; readonly code: string; readonly message: string }

export class PublicApiError extends Error {
  readonly failure: Failure
  constructor(failure: Failure) {
    super(failure.kind === "refused" ? `${failure.status} ${failure.code}: ${failure.message}` : failure.kind)
    this.failure = failure
  }
}

/** The failure of anything thrown by the client (anything else is a bug, shown as a refusal). */
export const failureOf = (error: unknown): Failure =>
  error instanceof PublicApiError
    ? error.failure
    : { kind: "refused", status: 0, code: "internal", message: error instanceof Error ? error.message : String(error) }

/** A chat turn with a model may take up to its deadline (20 s by default, §13): wait longer than that. */
const CHAT_TIMEOUT_MS = 45_000
const READ_TIMEOUT_MS = 15_000

/** `Retry-After` in whole seconds (§3), at least 1; a date or nothing counts as 1. */
const retryAfterSeconds = (header: string | null): number => {
  const seconds = Number(header)
  return Number.isFinite(seconds) && seconds >= 1 ? Math.ceil(seconds) : 1
}

export interface PublicApi {
  readonly chat: (body: ChatRequest) => Promise<ChatResponse>
  readonly resetChat: (sessionId: string) => Promise<void>
  readonly transcript: (sessionId: string) => Promise<Transcript>
  readonly slots: (date: string, service: string | undefined) => Promise<DaySlots>
  readonly book: (body: CreateBookingRequest) => Promise<FormBookingRecord>
  /** The business's name (the default title) and greeting, in the widget's language. */
  readonly welcome: (locale: string) => Promise<Welcome>
  /**
   * Now by Parley's clock, as its last answer's `Date` said (to the second), else the visitor's: a
   * visitor's clock can be days off, and "today" is Parley's to say.
   */
  readonly now: () => Date
}

export const makePublicApi = (parleyUrl: URL, key: string): PublicApi => {
  /** Parley's clock minus the visitor's, ms, from the newest answer with a `Date` header. */
  let clockOffsetMs = 0
  const learnClock = (response: Response) => {
    const said = Date.parse(response.headers.get("date") ?? "")
    if (Number.isFinite(said)) clockOffsetMs = said - Date.now()
  }
  const call = async <T>(method: "GET" | "POST", path: string, body: unknown, timeoutMs: number): Promise<T> => {
    const headers: Record<string, string> = { "X-API-Key": key }
    if (body !== undefined) headers["Content-Type"] = "application/json"
    let response: Response
    try {
      response = await fetch(new URL(path, parleyUrl), {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        credentials: "omit",
        // The default cache mode on purpose: Chromium skips its CORS preflight cache for a request made
        // with `no-store` or `reload`, and would then preflight every message (Parley's answers to
        // these routes are not cacheable anyway).
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch {
      // A network error, a refused CORS response or the timeout: nothing usable came back.
      throw new PublicApiError({ kind: "offline" })
    }
    learnClock(response)
    if (response.ok) return (await response.json()) as T
    if (response.status === 429 || response.status === 503) {
      throw new PublicApiError({
        kind: "retryLater",
        status: response.status,
        seconds: retryAfterSeconds(response.headers.get("retry-after")),
      })
    }
    let error = { code: "unknown", message: `HTTP ${response.status}` }
    try {
      const parsed = (await response.json()) as { error?: unknown; code?: unknown }
      if (typeof parsed.error === "string" && typeof parsed.code === "string") {
        error = { code: parsed.code, message: parsed.error }
      }
    } catch {
      // Not the contract's error body (a proxy's page, say): the status says enough.
    }
    // The key or the site is wrong: the page's developer must hear why (the visitor is told in the panel).
    if (response.status === 401 || error.code === "origin_not_allowed") console.warn(`Parley widget: ${error.message}`)
    throw new PublicApiError({ kind: "refused", status: response.status, ...error })
  }

  const session = (sessionId: string) => encodeURIComponent(sessionId)
  return {
    chat: (body) => call("POST", "api/public/chat", body, CHAT_TIMEOUT_MS),
    resetChat: async (sessionId) => {
      await call("POST", "api/public/chat/reset", { sessionId }, READ_TIMEOUT_MS)
    },
    transcript: (sessionId) => call("GET", `api/public/chat/${session(sessionId)}`, undefined, READ_TIMEOUT_MS),
    slots: (date, service) => {
      const query = new URLSearchParams({ date })
      if (service !== undefined) query.set("service", service)
      return call("GET", `api/public/bookings/slots?${query}`, undefined, READ_TIMEOUT_MS)
    },
    book: (body) => call("POST", "api/public/bookings", body, READ_TIMEOUT_MS),
    welcome: (locale) =>
      call("GET", `api/public/assistant?${new URLSearchParams({ locale })}`, undefined, READ_TIMEOUT_MS),
    now: () => new Date(Date.now() + clockOffsetMs),
  }
}
