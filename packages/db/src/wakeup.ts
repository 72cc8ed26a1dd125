import type postgres from "postgres"

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

  /** Resolves on the next notification (or a pending one), or after `timeoutMs`. */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.pending) {
      this.pending = false
      return Promise.resolve()
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiters.delete(done)
        signal?.removeEventListener("abort", done)
        this.pending = false
        resolve()
      }
      const timer = setTimeout(done, timeoutMs)
      this.waiters.add(done)
      signal?.addEventListener("abort", done)
    })
  }
}

type Listener = (channel: string) => void
const registry = new Map<string, Set<Listener>>()

/** Identifies the database a client talks to, so instances in one process on one database meet. */
const databaseKey = (sql: postgres.Sql): string => {
  const options = sql.options
  return `${options.host.join(",")}:${options.port.join(",")}/${options.database}`
}

/**
 * In-process notifications between everything in this process that uses the same database. On
 * embedded PGlite this replaces LISTEN/NOTIFY (which does not cross connections there); on a real
 * server it only saves the NOTIFY round trip for consumers in the same process.
 */
export const inProcessChannel = {
  notify(sql: postgres.Sql, channel: string): void {
    const listeners = registry.get(databaseKey(sql))
    if (listeners === undefined) return
    for (const listener of listeners) listener(channel)
  },
  listen(sql: postgres.Sql, listener: Listener): () => void {
    const key = databaseKey(sql)
    let listeners = registry.get(key)
    if (listeners === undefined) {
      listeners = new Set()
      registry.set(key, listeners)
    }
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
      if (listeners.size === 0) registry.delete(key)
    }
  },
}
