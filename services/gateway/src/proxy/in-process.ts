/**
 * An undici Dispatcher that hands each request to a Fastify app in this process (`app.inject`)
 * instead of a socket: what the gateway uses for the services `npm start` runs beside it. The
 * service still sees a whole HTTP request — headers, the signed principal, the body as bytes or as
 * the client's stream — and runs every hook and check it runs behind a network hop, but no bytes
 * cross a socket twice and no port is opened. Answers stream back with backpressure, so an export
 * is never held whole in memory.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Readable } from "node:stream"
import type { FastifyInstance } from "fastify"
import { Dispatcher } from "undici"

type InjectMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS"
type InjectHeaders = Record<string, string | Array<string>>

/** undici's headers option comes as an object, a flat [name, value, …] array, or an iterable of pairs. */
const headersOf = (headers: Dispatcher.DispatchOptions["headers"]): InjectHeaders => {
  const out: InjectHeaders = {}
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return
    const key = name.toLowerCase()
    const text = Array.isArray(value) ? value.map(String) : String(value)
    const existing = out[key]
    out[key] = existing === undefined ? text : [...[existing].flat(), ...[text].flat()]
  }
  if (headers === undefined || headers === null) return out
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1])
  } else if (Symbol.iterator in headers) {
    for (const [name, value] of headers as Iterable<[string, unknown]>) add(name, value)
  } else {
    for (const [name, value] of Object.entries(headers)) add(name, value)
  }
  return out
}

/** Answer headers as undici hands them to handlers: lowercase names, string or string[] values. */
const answerHeaders = (headers: Record<string, unknown>): Record<string, string | Array<string>> => {
  const out: Record<string, string | Array<string>> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    out[name] = Array.isArray(value) ? value.map(String) : String(value)
  }
  return out
}

export class InProcessDispatcher extends Dispatcher {
  readonly #app: FastifyInstance
  #closed = false

  constructor(app: FastifyInstance) {
    super()
    this.#app = app
  }

  /**
   * Hands the client's own request to the service: its Fastify routes it and answers on the
   * client's connection. Only for a request whose body the gateway has not read (none at all):
   * a body read here can no longer reach the service this way, and goes through `dispatch`.
   */
  handOff(request: IncomingMessage, response: ServerResponse): void {
    this.#app.routing(request, response)
  }

  get closed(): boolean {
    return this.#closed
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const abortController = new AbortController()
    let stream: Readable | undefined
    let done = false
    const fail = (error: Error) => {
      if (done) return
      done = true
      handler.onResponseError?.(controller, error)
    }
    const controller: Dispatcher.DispatchController = {
      get aborted() {
        return abortController.signal.aborted
      },
      get paused() {
        return stream?.isPaused() ?? false
      },
      get reason() {
        return (abortController.signal.reason as Error | undefined) ?? null
      },
      abort: (reason) => {
        if (abortController.signal.aborted) return
        abortController.abort(reason)
        stream?.destroy(reason)
        fail(reason)
      },
      pause: () => stream?.pause(),
      resume: () => stream?.resume(),
    }
    if (this.#closed) {
      fail(new Error("in-process dispatcher is closed"))
      return false
    }
    handler.onRequestStart?.(controller, {})
    if (abortController.signal.aborted) return false

    const body = options.body
    this.#app
      .inject({
        method: options.method as InjectMethod,
        url: options.path,
        headers: headersOf(options.headers),
        ...(body === null || body === undefined ? {} : { payload: body as Buffer | string | Readable }),
        payloadAsStream: true,
        signal: abortController.signal,
      })
      .then((response) => {
        if (done) return
        const answer = response.stream()
        stream = answer
        handler.onResponseStart?.(
          controller,
          response.statusCode,
          answerHeaders(response.headers),
          response.statusMessage,
        )
        answer.on("data", (chunk: Buffer) => {
          if (!done) handler.onResponseData?.(controller, chunk)
        })
        answer.once("end", () => {
          if (done) return
          done = true
          handler.onResponseEnd?.(controller, {})
        })
        answer.once("error", fail)
      }, fail)
    return true
  }

  override async close(): Promise<void> {
    this.#closed = true
  }

  override async destroy(): Promise<void> {
    this.#closed = true
  }
}
