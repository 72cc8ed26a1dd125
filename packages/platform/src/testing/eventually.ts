/**
 * Polls `check` until it stops throwing (or returns without rejecting) and returns its value; after
 * `timeoutMs` rethrows the last failure. Tests wait for observable conditions this way, never by
 * sleeping a fixed time.
 */
export interface EventuallyOptions {
  readonly timeoutMs?: number
  readonly intervalMs?: number
}

export const eventually = async <A>(check: () => A | Promise<A>, options: EventuallyOptions = {}): Promise<A> => {
  const timeoutMs = options.timeoutMs ?? 5_000
  const intervalMs = options.intervalMs ?? 20
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  for (;;) {
    try {
      return await check()
    } catch (error) {
      lastError = error
    }
    if (Date.now() >= deadline) {
      if (lastError instanceof Error) {
        lastError.message = `eventually: still failing after ${timeoutMs} ms: ${lastError.message}`
      }
      throw lastError
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
