import { Cause, Effect, Exit, Fiber } from "effect"

export interface RunMainOptions {
  /** How a failure is reported before the process exits 1 (default: Effect's pretty cause on stderr). */
  readonly report?: (cause: Cause.Cause<unknown>) => void
}

/**
 * Runs a service's program as the process: SIGINT or SIGTERM interrupts it, so every Scope closes in
 * order (servers drain, consumers commit and leave their groups, pools end) before the process exits;
 * a failure is reported (`options.report`) and exits 1. Every `main.ts` ends with this.
 */
export const runMain = <A, E>(program: Effect.Effect<A, E>, options: RunMainOptions = {}): void => {
  const fiber = Effect.runFork(program)
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      Effect.runFork(Fiber.interrupt(fiber))
    })
  }
  fiber.addObserver((exit) => {
    if (Exit.isFailure(exit) && !Exit.hasInterrupts(exit)) {
      if (options.report === undefined) console.error(Cause.pretty(exit.cause))
      else options.report(exit.cause)
      process.exit(1)
    }
    process.exit(0)
  })
}

/**
 * A deployed service's failure (a bad setting at start, an unreachable database) as one JSON line
 * on stderr, in the shape of its other log lines (`level`, `time`, `service`, `msg`, `err`), so a log
 * collector keeps it as one record: Effect's pretty cause is a dozen lines, each its own record.
 * Written synchronously (stderr is a pipe or a file under a container runtime), so it is out before
 * the process exits.
 */
export const jsonFailureReport =
  (service: string) =>
  (cause: Cause.Cause<unknown>): void => {
    const [first] = Cause.prettyErrors(cause)
    process.stderr.write(
      `${JSON.stringify({
        level: "fatal",
        time: new Date().toISOString(),
        service,
        msg: `${service} stopped: ${first?.message ?? "failure"}`,
        err: { type: first?.name ?? "Error", message: first?.message ?? "", stack: Cause.pretty(cause) },
      })}\n`,
    )
  }
