/**
 * A level-triggered wake-up: `notify()` before anyone waits is not lost, the next `wait` returns
 * at once. Used so a poller never sleeps through a record appended between its query and its wait.
 */
export class Wakeup {
  private pending = false
  private waiters = new Set<() => void>()

  notify(): void {
    this.pending = true
    for (const waiter of this.waiters) waiter()
    this.waiters.clear()
  }

  /** Resolves on the next notification (or a pending one), or after `timeoutMs` (never if infinite). */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.pending) {
      this.pending = false
      return Promise.resolve()
    }
    return new Promise((resolve) => {
      const done = () => {
        if (timer !== undefined) clearTimeout(timer)
        this.waiters.delete(done)
        signal?.removeEventListener("abort", done)
        this.pending = false
        resolve()
      }
      const timer = Number.isFinite(timeoutMs) ? setTimeout(done, timeoutMs) : undefined
      this.waiters.add(done)
      signal?.addEventListener("abort", done)
    })
  }
}
