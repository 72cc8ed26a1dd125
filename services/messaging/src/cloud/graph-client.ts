import { tracedCall } from "@parley/platform"
import { Effect, Redacted, Schema } from "effect"
import { request } from "undici"

/**
 * The provider's Graph API, as far as Parley calls it: sending a message and submitting a template.
 * The base URL is operator configuration (PARLEY_CLOUD_API_URL), never a tenant's choice, so these
 * calls need not go through the SSRF-guarded egress client. They use undici's `request` (pooled
 * keep-alive connections) rather than `fetch`, whose WHATWG streams and abort plumbing cost about
 * twice the CPU per call on the path every assistant reply takes.
 */

/** How a provider call ended; the callers decide what each means for their record. */
export type ProviderOutcome<A> =
  | { readonly _tag: "Accepted"; readonly value: A }
  /** HTTP 429 or Graph codes 130429 / 131056 / 80007 / 4: try again later. */
  | { readonly _tag: "RateLimited"; readonly detail: string }
  /** Any other 4xx: the provider refuses this request; retrying will not help. */
  | { readonly _tag: "Rejected"; readonly status: number; readonly detail: string }
  /** 5xx, a timeout, a connection error, or a 2xx body we cannot read. */
  | { readonly _tag: "Unavailable"; readonly detail: string }

const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131056])

const GraphError = Schema.Struct({
  error: Schema.Struct({
    message: Schema.optionalKey(Schema.String),
    code: Schema.optionalKey(Schema.Number),
  }),
})
const SendAnswer = Schema.Struct({ messages: Schema.NonEmptyArray(Schema.Struct({ id: Schema.String })) })
const TemplateAnswer = Schema.Struct({
  id: Schema.String,
  status: Schema.optionalKey(Schema.String),
  category: Schema.optionalKey(Schema.String),
})
export type TemplateAnswer = typeof TemplateAnswer.Type

const PhoneNumberAnswer = Schema.Struct({
  id: Schema.optionalKey(Schema.String),
  display_phone_number: Schema.optionalKey(Schema.String),
  verified_name: Schema.optionalKey(Schema.String),
})
export type PhoneNumberAnswer = typeof PhoneNumberAnswer.Type

/** Whether a token can read a phone number, as the provider answered. */
export type NumberCheck =
  | { readonly _tag: "Readable"; readonly number: PhoneNumberAnswer }
  | { readonly _tag: "Refused"; readonly field: "accessToken" | "phoneNumberId"; readonly detail: string }
  | { readonly _tag: "Unavailable"; readonly detail: string }

/**
 * A provider answer (status and parsed JSON) read into an outcome: shared by the Graph API client
 * and the sandbox provider, so that a sandbox refusal reaches its callers exactly as a real one.
 */
export const classifyProviderAnswer = <A>(
  status: number,
  json: unknown,
  answer: Schema.Decoder<A>,
): ProviderOutcome<A> => {
  if (status >= 200 && status < 300) {
    const decoded = Schema.decodeUnknownOption(answer)(json)
    return decoded._tag === "Some"
      ? { _tag: "Accepted", value: decoded.value }
      : { _tag: "Unavailable", detail: "unreadable provider answer" }
  }
  const code = providerErrorCode(json)
  const graph = Schema.decodeUnknownOption(GraphError)(json)
  const message = graph._tag === "Some" ? (graph.value.error.message ?? "") : ""
  const detail = `provider answered ${status}${code === undefined ? "" : ` (code ${code})`}${message === "" ? "" : `: ${message}`}`
  if (status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code))) return { _tag: "RateLimited", detail }
  if (status >= 400 && status < 500) return { _tag: "Rejected", status, detail }
  return { _tag: "Unavailable", detail }
}

/** The Graph API's `error.code` of an error body, when it has one. */
export const providerErrorCode = (json: unknown): number | undefined => {
  const graph = Schema.decodeUnknownOption(GraphError)(json)
  return graph._tag === "Some" ? graph.value.error.code : undefined
}

/**
 * Which field of `PUT /api/channels/cloud` a provider refusal of `GET /<phoneNumberId>` names
 * (docs/contract.md §10.1), by the Graph API's error codes: 190 (access token expired, revoked or
 * invalid), 102 (session) and an HTTP 401 name the token; 100 (no such object, or one the token
 * cannot load), 10 and 200–299 (permission denied) name the number the token cannot read.
 */
export const refusedField = (status: number, code: number | undefined): "accessToken" | "phoneNumberId" =>
  code === 190 || code === 102 || (code === undefined && status === 401) ? "accessToken" : "phoneNumberId"

export interface GraphClientOptions {
  readonly baseUrl: string
  readonly version: string
  readonly timeoutMs?: number
}

export type GraphMessage =
  | { readonly to: string; readonly type: "text"; readonly text: string }
  | {
      readonly to: string
      readonly type: "template"
      readonly template: {
        readonly name: string
        readonly language: string
        readonly variables?: ReadonlyArray<string>
      }
    }

/** The Graph API body for a message (messaging_product, recipient_type, and the typed part). */
export const graphMessageBody = (message: GraphMessage): Record<string, unknown> => {
  const base = { messaging_product: "whatsapp", recipient_type: "individual", to: message.to }
  if (message.type === "text") return { ...base, type: "text", text: { preview_url: false, body: message.text } }
  const variables = message.template.variables ?? []
  return {
    ...base,
    type: "template",
    template: {
      name: message.template.name,
      language: { code: message.template.language },
      ...(variables.length === 0
        ? {}
        : { components: [{ type: "body", parameters: variables.map((text) => ({ type: "text", text })) }] }),
    },
  }
}

/** The reason a provider call was aborted when it ran out of time. */
const timedOut = new Error("provider call timed out")

export const makeGraphClient = (options: GraphClientOptions) => {
  const base = options.baseUrl.replace(/\/+$/, "")
  const timeoutMs = options.timeoutMs ?? 15_000

  /** One call: the provider's status and parsed body, or why there was none. */
  const exchange = (
    method: "GET" | "POST",
    path: string,
    token: Redacted.Redacted<string>,
    body: unknown,
  ): Effect.Effect<{ readonly status: number; readonly json: unknown } | { readonly failed: string }> =>
    Effect.promise(async (interrupted) => {
      // One signal for the call: aborted by the timeout, or when the fiber is interrupted. A timer
      // cleared when the call ends, not `AbortSignal.timeout` (whose timer outlives every call and
      // then builds its error) joined by `AbortSignal.any`: one call per reply, under load.
      const abort = new AbortController()
      const timer = setTimeout(() => abort.abort(timedOut), timeoutMs)
      const onInterrupt = () => abort.abort(interrupted.reason)
      interrupted.addEventListener("abort", onInterrupt, { once: true })
      try {
        const headers: Record<string, string> = {
          authorization: `Bearer ${Redacted.value(token)}`,
          ...(method === "POST" ? { "content-type": "application/json" } : {}),
        }
        const url = `${base}/${options.version}/${path}`
        // A CLIENT span of its own, whose traceparent the provider receives (when tracing is on).
        const { status, text } = await tracedCall(
          `provider ${method} ${path.split("/").at(-1)}`,
          headers,
          { "http.request.method": method, "url.full": url },
          async (span) => {
            const response = await request(url, {
              method,
              headers,
              ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
              signal: abort.signal,
            })
            span?.setAttribute("http.response.status_code", response.statusCode)
            return { status: response.statusCode, text: await response.body.text() }
          },
        )
        return { status, json: parseJson(text) }
      } catch {
        return { failed: abort.signal.reason === timedOut ? "timeout" : "connection error" }
      } finally {
        clearTimeout(timer)
        interrupted.removeEventListener("abort", onInterrupt)
      }
    })

  const post = <A>(
    path: string,
    token: Redacted.Redacted<string>,
    body: unknown,
    answer: Schema.Decoder<A>,
  ): Effect.Effect<ProviderOutcome<A>> =>
    exchange("POST", path, token, body).pipe(
      Effect.map((answered) =>
        "failed" in answered
          ? ({ _tag: "Unavailable", detail: answered.failed } as const)
          : classifyProviderAnswer(answered.status, answered.json, answer),
      ),
    )

  return {
    /** `POST /<version>/<phoneNumberId>/messages`; the answer's `messages[0].id` is the message id. */
    sendMessage: (phoneNumberId: string, token: Redacted.Redacted<string>, message: GraphMessage) =>
      post(`${encodeURIComponent(phoneNumberId)}/messages`, token, graphMessageBody(message), SendAnswer).pipe(
        Effect.map((outcome) =>
          outcome._tag === "Accepted" ? { _tag: "Accepted" as const, value: outcome.value.messages[0].id } : outcome,
        ),
      ),
    /** `POST /<version>/<businessAccountId>/message_templates`. */
    submitTemplate: (
      businessAccountId: string,
      token: Redacted.Redacted<string>,
      template: { name: string; language: string; category: string; components: ReadonlyArray<unknown> },
    ) => post(`${encodeURIComponent(businessAccountId)}/message_templates`, token, template, TemplateAnswer),
    /**
     * `GET /<version>/<phoneNumberId>` with the token (docs/contract.md §10.1): whether the token can read
     * the number, asked before a channel is stored. What a refusal names is `refusedField`'s to say.
     */
    readPhoneNumber: (phoneNumberId: string, token: Redacted.Redacted<string>): Effect.Effect<NumberCheck> =>
      exchange("GET", encodeURIComponent(phoneNumberId), token, undefined).pipe(
        Effect.map((answered): NumberCheck => {
          if ("failed" in answered) return { _tag: "Unavailable", detail: answered.failed }
          const outcome = classifyProviderAnswer(answered.status, answered.json, PhoneNumberAnswer)
          if (outcome._tag === "Accepted") return { _tag: "Readable", number: outcome.value }
          if (outcome._tag !== "Rejected") return { _tag: "Unavailable", detail: outcome.detail }
          const field = refusedField(answered.status, providerErrorCode(answered.json))
          return { _tag: "Refused", field, detail: outcome.detail }
        }),
      ),
  }
}
export type GraphClient = ReturnType<typeof makeGraphClient>

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
