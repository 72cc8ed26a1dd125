/**
 * One JSON logger per service (pino), and an Effect `Logger` that writes to it. Secrets never reach
 * the log: credential headers are censored by path, and any field whose name says it holds a secret
 * (password, secret, token, apiKey, accessToken, key, …) is censored wherever it sits in a logged
 * object. URLs are logged with credential query parameters (`?apiKey=`) censored.
 */
import { Cause, Layer, Logger, type LogLevel, References } from "effect"
import { type DestinationStream, type Logger as PinoLogger, pino } from "pino"

export type ParleyLogger = PinoLogger
export type LogLevelName = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent"

export const REDACTED = "[redacted]"

const CREDENTIAL_HEADERS = [
  "authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "x-parley-principal",
  "x-parley-internal",
  "x-hub-signature-256",
]

// Field names (case-insensitive) that hold a secret; `key` alone, but not `keyId` or `prefix`.
const SECRET_FIELD = /^(?:.*(?:password|passwd|secret|token|apikey|api_key|accesstoken)|key|privatekey|private_key)$/i

const isSecretField = (name: string): boolean => SECRET_FIELD.test(name) || CREDENTIAL_HEADERS.includes(name)

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== "object") return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * A copy of `value` with secret fields censored, walking plain objects and arrays only (class
 * instances such as requests and errors are left to their serializers). Depth-bounded.
 */
export const censorSecrets = (value: unknown, depth = 0): unknown => {
  if (depth > 8) return value
  if (Array.isArray(value)) return value.map((item) => censorSecrets(item, depth + 1))
  if (!isPlainObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(value)) {
    out[name] =
      isSecretField(name) && field !== undefined && field !== null ? REDACTED : censorSecrets(field, depth + 1)
  }
  return out
}

const CREDENTIAL_NAMES = new Set([
  "apikey",
  "api_key",
  "token",
  "access_token",
  "key",
  "secret",
  "password",
  "hub.verify_token",
])

/** A query parameter's name as a server might read it: decoded, any case, without `[]`-style suffixes. */
const normalName = (raw: string): string => {
  let name = raw
  try {
    name = decodeURIComponent(raw.replace(/\+/g, " "))
  } catch {
    // A malformed escape: judged as written.
  }
  return name.trim().replace(/\[.*$/, "").toLowerCase()
}

/** A Parley API key wherever it appears (its `.` possibly escaped), whatever the parameter is called. */
const API_KEY_ANYWHERE = /parley_[0-9A-Za-z]{12}(?:\.|%2[Ee])[0-9A-Za-z]{20,}/g

/**
 * The URL with credentials censored: the value of every query parameter named like a credential,
 * however its name is spelled (`apiKey`, `%61piKey`, `apiKey[]`, `APIKEY`; `&` or `;` separated),
 * and any API key found elsewhere in it.
 */
export const censorUrl = (url: string): string => {
  const query = url.indexOf("?")
  const keysRemoved = url.includes("parley_") ? url.replace(API_KEY_ANYWHERE, REDACTED) : url
  if (query < 0 || !url.includes("=", query)) return keysRemoved
  const path = keysRemoved.slice(0, keysRemoved.indexOf("?") + 1)
  const rest = keysRemoved.slice(path.length)
  const hash = rest.indexOf("#")
  const search = hash < 0 ? rest : rest.slice(0, hash)
  const fragment = hash < 0 ? "" : rest.slice(hash)
  const censored = search.replace(/(^|[&;])([^&;=]*)=([^&;]*)/g, (whole, separator: string, name: string) =>
    CREDENTIAL_NAMES.has(normalName(name)) ? `${separator}${name}=${REDACTED}` : whole,
  )
  return `${path}${censored}${fragment}`
}

export const censorHeaders = (headers: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(headers)) {
    out[name] = CREDENTIAL_HEADERS.includes(name.toLowerCase()) ? REDACTED : value
  }
  return out
}

interface RequestLike {
  readonly method?: string
  readonly url?: string
  readonly headers?: Record<string, unknown>
  readonly id?: string
}

const serializeRequest = (request: RequestLike) => ({
  method: request.method,
  url: request.url === undefined ? undefined : censorUrl(request.url),
  ...(request.headers === undefined ? {} : { headers: censorHeaders(request.headers) }),
})

export interface LoggerOptions {
  readonly service: string
  readonly level?: LogLevelName
  /** Where lines go; stdout (written asynchronously, see `stdout`) by default. Tests pass a collecting stream. */
  readonly destination?: DestinationStream
  /**
   * Whether HTTP servers built with this logger write an access line per request (default true).
   * Off for the services `npm start` runs behind its gateway in the same process: the gateway's
   * line is the request's line, and a second one per request was the service's.
   */
  readonly accessLog?: boolean
  /**
   * Whether the service's metrics registry has the process's own metrics — event loop, heap, GC —
   * (default true; see `metricsForService`). Off for the services `npm start` hosts behind its
   * gateway: the gateway's registry has them once for the process.
   */
  readonly processMetrics?: boolean
}

const ACCESS_LOG = Symbol.for("@parley/platform/accessLog")

/** False for a logger made with `accessLog: false`. */
export const writesAccessLog = (logger: ParleyLogger): boolean =>
  (logger as unknown as Record<symbol, unknown>)[ACCESS_LOG] !== false

const PROCESS_METRICS = Symbol.for("@parley/platform/processMetrics")

/** False for a logger made with `processMetrics: false`. */
export const collectsProcessMetrics = (logger: ParleyLogger): boolean =>
  (logger as unknown as Record<symbol, unknown>)[PROCESS_METRICS] !== false

/**
 * How every logger of the process writes to standard output (see `stdout`): asynchronously, lines
 * collected in a buffer and written together by a background write once 12 KiB wait (about fifty
 * access lines) or half a second has passed. Measured per access line (test/bench/access-log, issue
 * #28, the same line each time): a background write whenever none was in flight, as before, 3.7–4.9
 * µs of CPU, swinging with the machine's load (each write is a hand-off to libuv's thread pool and a
 * wake-up back); buffered to 3 KiB 3.7–5.1; to 12 KiB 3.4. A synchronous write per 3 KiB cost less
 * CPU (1.9 µs) but stalled the event loop whenever the disk or the log's reader was slow: on the
 * loaded benchmark machine the gateway served a quarter fewer requests at the same CPU. A background
 * write never blocks a request. Lines from this process never interleave (one writer, whole lines per
 * write); a write may exceed a pipe's 4 KiB atomic size, so give the process a pipe of its own (as
 * container runtimes and systemd do).
 *
 * The trade-off: buffered lines are written on exit (pino flushes its destination synchronously on
 * the `exit` event, which `process.exit` — called by `main` on a handled signal or a failure — and
 * an uncaught exception both reach), but a process killed outright (SIGKILL, the OOM killer) loses
 * what was still buffered: at most 12 KiB or half a second of lines. Those are diagnostics (access
 * lines, warnings); nothing a user needs lives only in the log — every accepted message, delivery
 * and change is in Postgres before it is acknowledged.
 */
export const STDOUT_WRITE_OPTIONS = {
  sync: false,
  minLength: 12_288,
  maxWrite: 16_384,
  periodicFlush: 500,
  contentMode: "buffer",
} as const

/**
 * A line destination on file descriptor `fd` with `STDOUT_WRITE_OPTIONS`: sonic-boom (pino's own
 * asynchronous destination) holding each line as bytes. In its default string mode, sonic-boom
 * measures the whole pending batch (`Buffer.byteLength` of a string up to 16 KiB, which flattens it
 * into a fresh copy) on every line it is handed, so a line cost a copy of the batch so far and as
 * much garbage; as bytes it adds the line to a list and joins the list once per write.
 */
export const lineDestination = (
  fd: number,
): DestinationStream & { readonly sonicBoom: ReturnType<typeof pino.destination> } => {
  const sonicBoom = pino.destination({ dest: fd, ...STDOUT_WRITE_OPTIONS })
  // Typed for strings; in buffer mode it takes (and must be given) bytes.
  const writeBytes = sonicBoom.write.bind(sonicBoom) as unknown as (bytes: Buffer) => boolean
  return { write: (line: string) => writeBytes(Buffer.from(line)), sonicBoom }
}

/** Standard output for every logger of the process, shared: one writer, so lines from different services never interleave. */
let sharedStdout: DestinationStream | undefined
const stdout = (): DestinationStream => {
  sharedStdout ??= lineDestination(1)
  return sharedStdout
}

export const makeLogger = (options: LoggerOptions): ParleyLogger => {
  const destination = options.destination ?? stdout()
  const logger = makeBaseLogger(options, destination)
  if (options.accessLog === false) Object.defineProperty(logger, ACCESS_LOG, { value: false })
  else Object.defineProperty(logger, ACCESS_LINE, { value: makeAccessLineWriter(options.service, destination) })
  if (options.processMetrics === false) Object.defineProperty(logger, PROCESS_METRICS, { value: false })
  return logger
}

/**
 * pino's `isoTime` (`,"time":"<ISO 8601>"`), formatted once per millisecond: a busy server writes
 * several lines in the same millisecond, and `toISOString` was a tenth of an access line's CPU.
 */
let isoTimeMs = Number.NaN
let isoTimeField = ""
const isoTime = (): string => {
  const now = Date.now()
  if (now !== isoTimeMs) {
    isoTimeMs = now
    isoTimeField = `,"time":"${new Date(now).toISOString()}"`
  }
  return isoTimeField
}

const makeBaseLogger = (options: LoggerOptions, destination: DestinationStream): ParleyLogger =>
  pino(
    {
      level: options.level ?? "info",
      base: { service: options.service },
      messageKey: "msg",
      timestamp: isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => censorSecrets(object) as Record<string, unknown>,
      },
      serializers: { req: serializeRequest, err: pino.stdSerializers.err },
      // Belt and braces for objects the formatter does not walk (e.g. headers under `req`/`res`).
      redact: {
        paths: [
          ...CREDENTIAL_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `res.headers["${h}"]`, `headers["${h}"]`]),
          "*.password",
          "*.secret",
          "*.token",
          "*.apiKey",
          "*.accessToken",
          "*.key",
        ],
        censor: REDACTED,
      },
    },
    destination,
  )

/** What the access line says of a request, besides its id. */
export interface AccessLine {
  readonly method: string
  readonly url: string
  readonly route: string | undefined
  readonly status: number
  readonly durationMs: number
  /** The client's address, on a server that logs it (the gateway: `trustProxy` decides whose it is). */
  readonly clientIp?: string | undefined
}

/** Writes one request's access line (`"request completed"`); the caller checks the level first. */
export type AccessLineWriter = (requestId: string, line: AccessLine) => void

const ACCESS_LINE = Symbol.for("@parley/platform/accessLine")

/**
 * The access line's own writer: the line built directly, in exactly the shape the service logger
 * writes (`level`, `time`, `service`, then the request id where a child logger's binding would put
 * it, the fields, `msg`), and handed to the same destination. It skips what the service logger does
 * per line and this line never needs: a child logger per request, the secret-censoring formatter and
 * redaction's wildcard walk (no field here can hold a secret; the URL's credential query parameters
 * are censored), pino's generic serialization. Those were most of an access line's CPU; see
 * test/bench/access-log.
 */
const makeAccessLineWriter = (service: string, destination: DestinationStream): AccessLineWriter => {
  const head = `{"level":"info"`
  const serviceField = `,"service":${JSON.stringify(service)}`
  return (requestId, line) => {
    destination.write(
      `${head}${isoTime()}${serviceField},"requestId":${JSON.stringify(requestId)},"method":${JSON.stringify(line.method)},"url":${JSON.stringify(censorUrl(line.url))}${line.route === undefined ? "" : `,"route":${JSON.stringify(line.route)}`},"status":${line.status},"durationMs":${line.durationMs}${line.clientIp === undefined ? "" : `,"clientIp":${JSON.stringify(line.clientIp)}`},"msg":"request completed"}\n`,
    )
  }
}

/**
 * The access-line writer of a logger made with `makeLogger` (undefined for one made with
 * `accessLog: false`, or not by `makeLogger`).
 */
export const accessLineWriter = (logger: ParleyLogger): AccessLineWriter | undefined =>
  (logger as unknown as Record<symbol, AccessLineWriter | undefined>)[ACCESS_LINE]

const PINO_LEVEL: Record<string, Exclude<LogLevelName, "silent"> | undefined> = {
  Fatal: "fatal",
  Error: "error",
  Warn: "warn",
  Info: "info",
  Debug: "debug",
  Trace: "trace",
  All: "trace",
}

/**
 * An Effect `Logger` writing to pino: string parts become the message, object parts and the fiber's
 * log annotations become fields, a failure cause is rendered under `cause` (and a Cause given as a
 * field's value is rendered in place).
 */
export const pinoEffectLogger = (logger: ParleyLogger): Logger.Logger<unknown, void> =>
  Logger.make(({ message, logLevel, cause, fiber }) => {
    const level = PINO_LEVEL[logLevel]
    if (level === undefined) return
    const parts = Array.isArray(message) ? message : [message]
    const text: Array<string> = []
    const fields: Record<string, unknown> = { ...fiber.getRef(References.CurrentLogAnnotations) }
    for (const part of parts) {
      if (typeof part === "string") text.push(part)
      else if (isPlainObject(part)) Object.assign(fields, part)
      else text.push(String(part))
    }
    // A Cause passed inside a fields object (`{ schema, cause }`) is rendered too: as an object it
    // would be logged as `{ _id: "Cause", reasons: [...] }`, which says nothing.
    for (const key in fields) {
      const value = fields[key]
      if (Cause.isCause(value)) fields[key] = Cause.pretty(value)
    }
    if (cause.reasons.length > 0) fields.cause = Cause.pretty(cause)
    logger[level](fields, text.join(" "))
  })

const EFFECT_LEVEL: Record<string, LogLevel.LogLevel> = {
  fatal: "Fatal",
  error: "Error",
  warn: "Warn",
  info: "Info",
  debug: "Debug",
  trace: "Trace",
  silent: "None",
}

/**
 * Replaces Effect's default loggers with one writing to `logger`, with Effect's minimum level set to
 * the logger's (so Effect does not format lines pino would drop).
 */
export const pinoLoggerLayer = (logger: ParleyLogger): Layer.Layer<never> =>
  Layer.merge(
    Logger.layer([pinoEffectLogger(logger)]),
    Layer.succeed(References.MinimumLogLevel, EFFECT_LEVEL[logger.level] ?? "Info"),
  )
