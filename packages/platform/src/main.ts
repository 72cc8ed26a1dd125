import { Cause, Effect, Exit, Fiber } from "effect"

/**
 * Runs a service's program as the process: SIGINT or SIGTERM interrupts it, so every Scope closes in
 * order (servers drain, consumers commit and leave their groups, pools end) before the process exits;
 * a failure prints its cause and exits 1. Every `main.ts` ends with this.
 */
export const runMain = <A, E>(program: Effect.Effect<A, E>): void => {
  const fiber = Effect.runFork(program)
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      Effect.runFork(Fiber.interrupt(fiber))
    })
  }
  fiber.addObserver((exit) => {
    if (Exit.isFailure(exit) && !Exit.hasInterrupts(exit)) {
      console.error(Cause.pretty(exit.cause))
      process.exit(1)
    }
    process.exit(0)
  })
}
