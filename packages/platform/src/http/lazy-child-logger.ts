/**
 * Fastify makes a child logger (bound to the request id) for every request. A pino child with
 * redaction costs 2–3 µs and some garbage, and most requests never log a line (the access log is at
 * info; production runs at warn). This stand-in makes the real child only when a line at an enabled
 * level is written, so a quiet request pays for one small object.
 */
import type { Bindings, ChildLoggerOptions, Logger as PinoLogger } from "pino"

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace"

export class LazyChildLogger {
  readonly #parent: PinoLogger
  readonly #bindings: Bindings
  readonly #options: ChildLoggerOptions
  #child: PinoLogger | undefined

  constructor(parent: PinoLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
  }

  get #real(): PinoLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options)
    return this.#child
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level
  }

  set level(level: string) {
    this.#real.level = level
  }

  isLevelEnabled(level: string): boolean {
    if (this.#child !== undefined) return this.#child.isLevelEnabled(level)
    const own = this.#options.level
    if (own === undefined) return this.#parent.isLevelEnabled(level)
    const values = this.#parent.levels.values
    return (values[level] ?? Number.POSITIVE_INFINITY) >= (values[own] ?? Number.POSITIVE_INFINITY)
  }

  #write(level: Level, args: Array<unknown>): void {
    if (!this.isLevelEnabled(level)) return
    ;(this.#real[level] as (...a: Array<unknown>) => void)(...args)
  }

  fatal(...args: Array<unknown>): void {
    this.#write("fatal", args)
  }
  error(...args: Array<unknown>): void {
    this.#write("error", args)
  }
  warn(...args: Array<unknown>): void {
    this.#write("warn", args)
  }
  info(...args: Array<unknown>): void {
    this.#write("info", args)
  }
  debug(...args: Array<unknown>): void {
    this.#write("debug", args)
  }
  trace(...args: Array<unknown>): void {
    this.#write("trace", args)
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): PinoLogger {
    return this.#real.child(bindings, options)
  }

  bindings(): Bindings {
    return this.#real.bindings()
  }
}
