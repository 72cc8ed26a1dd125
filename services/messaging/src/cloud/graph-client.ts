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

export const makeGraphClient = (options: GraphClientOptions) => {
  const base = options.baseUrl.replace(/\/+$/, "")
  const timeoutMs = options.timeoutMs ?? 15_000

  const post = <A>(
    path: string,
    token: Redacted.Redacted<string>,
    body: unknown,
    answer: Schema.Decoder<A>,
  ): Effect.Effect<ProviderOutcome<A>> =>
    Effect.promise(async (signal) => {
      const timeout = AbortSignal.timeout(timeoutMs)
      let status: number
      let text: string
      try {
        const headers = { authorization: `Bearer ${Redacted.value(token)}`, "content-type": "application/json" }
        const url = `${base}/${options.version}/${path}`
        // A CLIENT span of its own, whose traceparent the provider receives (when tracing is on).
        ;({ status, text } = await tracedCall(
          `provider POST ${path.split("/").at(-1)}`,
          headers,
          { "http.request.method": "POST", "url.full": url },
          async (span) => {
            const response = await request(url, {
              method: "POST",
              headers,
              body: JSON.stringify(body),
              signal: AbortSignal.any([signal, timeout]),
            })
            span?.setAttribute("http.response.status_code", response.statusCode)
            return { status: response.statusCode, text: await response.body.text() }
          },
        ))
      } catch {
        return { _tag: "Unavailable", detail: timeout.aborted ? "timeout" : "connection error" } as const
      }
      const json = parseJson(text)
      if (status >= 200 && status < 300) {
        const decoded = Schema.decodeUnknownOption(answer)(json)
        return decoded._tag === "Some"
          ? ({ _tag: "Accepted", value: decoded.value } as const)
          : ({ _tag: "Unavailable", detail: "unreadable provider answer" } as const)
      }
      const graph = Schema.decodeUnknownOption(GraphError)(json)
      const code = graph._tag === "Some" ? graph.value.error.code : undefined
      const message = graph._tag === "Some" ? (graph.value.error.message ?? "") : ""
      const detail = `provider answered ${status}${code === undefined ? "" : ` (code ${code})`}${message === "" ? "" : `: ${message}`}`
      if (status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code))) {
        return { _tag: "RateLimited", detail } as const
      }
      if (status >= 400 && status < 500) {
        return { _tag: "Rejected", status, detail } as const
      }
      return { _tag: "Unavailable", detail } as const
    })

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
