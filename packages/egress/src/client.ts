import type { LookupFunction, Socket } from "node:net"
import { Agent, buildConnector, type Dispatcher, errors } from "undici"
import { isPublicAddress } from "./address.ts"
import { type Resolver, systemResolver } from "./resolver.ts"

/** At most this much of a response body is read (for the attempt log); the rest is dropped. */
export const MaxResponseBytes = 64 * 1024

export interface EgressOptions {
  readonly allowPrivate: boolean
  /** Total time for one request, connect to last byte read. */
  readonly timeoutMs: number
  readonly lookup?: Resolver
  /** Keep-alive connections per origin. */
  readonly connectionsPerOrigin?: number
}

export interface EgressRequest {
  readonly url: string
  readonly method?: "POST" | "PUT" | "GET"
  readonly headers: Record<string, string>
  readonly body?: string | Uint8Array
  /** Read up to MaxResponseBytes of a 2xx body too (the default drops it unread). */
  readonly readSuccessBody?: boolean
}

/**
 * What came of one request. `status` is the HTTP status when a response arrived; `error` names a
 * failure in a few words ("timeout", "connection refused", "redirect", "blocked address") and is
 * null for a 2xx.
 */
export interface EgressResult {
  readonly ok: boolean
  readonly status: number | null
  readonly error: string | null
  readonly body: string | null
  readonly durationMs: number
}

/** A connection refused because of where it would have gone, raised inside the connector. */
export class BlockedAddressError extends Error {
  readonly address: string
  constructor(address: string) {
    super(`blocked address ${address}`)
    this.name = "BlockedAddressError"
    this.address = address
  }
}

/** Adapts a Resolver to `net.connect`'s callback `lookup`, refusing non-public answers before connect. */
const guardedLookup =
  (resolve: Resolver, allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0
        const usable = answers.filter((answer) => wanted === 0 || answer.family === wanted)
        const blocked = allowPrivate ? undefined : usable.find((answer) => !isPublicAddress(answer.address))
        if (blocked !== undefined) return callback(new BlockedAddressError(blocked.address), "", 4)
        const first = usable[0]
        if (first === undefined) {
          return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 4)
        }
        if (options.all === true) return (callback as unknown as AllCallback)(null, usable)
        callback(null, first.address, first.family)
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, "", 4),
    )
  }
type AllCallback = (error: null, addresses: ReadonlyArray<{ address: string; family: number }>) => void

const describe = (error: unknown): string => {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (current !== undefined && current !== null && !seen.has(current)) {
    seen.add(current)
    if (current instanceof BlockedAddressError) return "blocked address"
    const { name, code } = current as { name?: string; code?: string }
    if (name === "TimeoutError" || name === "AbortError" || current instanceof errors.HeadersTimeoutError) {
      return "timeout"
    }
    if (code === "ECONNREFUSED") return "connection refused"
    if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return "connection reset"
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns lookup failed"
    if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "host unreachable"
    if ((typeof code === "string" && code.startsWith("ERR_TLS")) || code === "DEPTH_ZERO_SELF_SIGNED_CERT") {
      return "tls error"
    }
    current = (current as { cause?: unknown }).cause
  }
  return "connection error"
}

class RequestTimedOut extends Error {
  constructor() {
    super("request timed out")
    this.name = "TimeoutError"
  }
}

interface Target {
  readonly origin: string
  readonly path: string
}

// Webhook URLs repeat delivery after delivery: each is parsed once (a few thousand kept at most).
const targets = new Map<string, Target>()
const targetOf = (url: string): Target => {
  let target = targets.get(url)
  if (target === undefined) {
    const parsed = new URL(url)
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` }
    if (targets.size >= 4_096) targets.clear()
    targets.set(url, target)
  }
  return target
}

export interface EgressClient {
  send(request: EgressRequest): Promise<EgressResult>
  close(): Promise<void>
}

/**
 * Outbound HTTP to addresses tenants choose, safe against SSRF. The connector resolves through a
 * guarded lookup and then checks the socket's remote address — the address actually connected to —
 * so neither DNS rebinding nor a literal private IP slips through. Redirects are never followed,
 * every request is bounded by one total timeout, and connections are kept alive per origin.
 */
export const EgressClient = {
  make: (options: EgressOptions): EgressClient => {
    const connect = buildConnector({ lookup: guardedLookup(options.lookup ?? systemResolver, options.allowPrivate) })
    const agent = new Agent({
      connections: options.connectionsPerOrigin ?? 64,
      keepAliveTimeout: 30_000,
      connect: (connectOptions, callback) =>
        connect(connectOptions, (error, socket) => {
          if (error !== null) return callback(error, null)
          const remote = (socket as Socket).remoteAddress ?? ""
          if (!options.allowPrivate && !isPublicAddress(remote)) {
            socket.destroy()
            return callback(new BlockedAddressError(remote), null)
          }
          callback(null, socket)
        }),
    })

    // One request = one dispatch with a handler of its own: undici's `request` wraps every call in
    // an AsyncResource and a body stream and parses the URL again, which was a fifth of the
    // dispatcher's CPU per delivery (test/bench/dispatcher).
    const send = (outgoing: EgressRequest): Promise<EgressResult> =>
      new Promise<EgressResult>((resolve) => {
        const started = performance.now()
        const elapsed = () => Math.round(performance.now() - started)
        let settled = false
        const settle = (result: Omit<EgressResult, "durationMs">) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          resolve({ ...result, durationMs: elapsed() })
        }
        let controller: Dispatcher.DispatchController | undefined
        let timedOut = false
        // One total timeout, connect to last byte. Before the request reaches a connection there is
        // no controller yet: it is aborted the moment it does.
        const timer = setTimeout(() => {
          timedOut = true
          controller?.abort(new RequestTimedOut())
          settle({ ok: false, status: null, error: "timeout", body: null })
        }, options.timeoutMs)
        let status = 0
        let collect = false
        const chunks: Array<Buffer> = []
        let size = 0
        const answered = (read: Buffer | null) => {
          const ok = status >= 200 && status < 300
          const redirect = status >= 300 && status < 400
          settle({
            ok,
            status,
            error: ok ? null : redirect ? "redirect" : null,
            body: read === null ? null : read.toString("utf8"),
          })
        }
        const handler: Dispatcher.DispatchHandler = {
          onRequestStart: (started) => {
            controller = started
            if (timedOut) started.abort(new RequestTimedOut())
          },
          onResponseStart: (_controller, statusCode) => {
            if (statusCode < 200) return
            status = statusCode
            collect = !(statusCode >= 200 && statusCode < 300) || outgoing.readSuccessBody === true
          },
          onResponseData: (responding, chunk) => {
            size += chunk.length
            if (collect) chunks.push(chunk)
            // Only so much is read: the rest is dropped with the connection.
            if (size >= MaxResponseBytes) {
              answered(collect ? Buffer.concat(chunks).subarray(0, MaxResponseBytes) : null)
              responding.abort(new Error("response larger than read"))
            }
          },
          onResponseEnd: () => answered(collect ? Buffer.concat(chunks, size) : null),
          onResponseError: (_controller, error) =>
            settle({ ok: false, status: null, error: timedOut ? "timeout" : describe(error), body: null }),
        }
        try {
          const target = targetOf(outgoing.url)
          agent.dispatch(
            {
              origin: target.origin,
              path: target.path,
              method: outgoing.method ?? "POST",
              headers: outgoing.headers,
              body: outgoing.body ?? null,
            },
            handler,
          )
        } catch (error) {
          settle({ ok: false, status: null, error: describe(error), body: null })
        }
      })

    return { send, close: () => agent.close() }
  },
}
