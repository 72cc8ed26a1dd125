import type { Wakeup } from "@parley/db"
import { Effect } from "effect"

/** Waits for the wake-up or `timeoutMs`, whichever comes first; interruptible. */
export const awaitWakeup = (wakeup: Wakeup, timeoutMs: number): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    const abort = new AbortController()
    wakeup.wait(timeoutMs, abort.signal).then(() => resume(Effect.void))
    return Effect.sync(() => abort.abort())
  })
