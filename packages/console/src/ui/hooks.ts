/** Loading and acting on the API from a screen, with the failure kept as the contract words it. */
import { useCallback, useEffect, useRef, useState } from "preact/hooks"
import { type ApiFailure, asFailure } from "../api/client.ts"

export interface Loaded<T> {
  readonly data: T | undefined
  readonly error: ApiFailure | undefined
  readonly loading: boolean
  /** Loads again (keeping what is shown until the answer comes). */
  readonly reload: () => void
}

/** Runs `load` now and whenever `deps` change; the latest answer wins. */
export const useLoad = <T>(load: () => Promise<T>, deps: ReadonlyArray<unknown>): Loaded<T> => {
  const [state, setState] = useState<{ data?: T; error?: ApiFailure; loading: boolean }>({ loading: true })
  const [version, setVersion] = useState(0)
  useEffect(() => {
    let current = true
    setState((previous) => ({ ...previous, loading: true }))
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState((previous) => ({ ...previous, error: asFailure(error), loading: false })),
    )
    return () => {
      current = false
    }
  }, [...deps, version])
  const reload = useCallback(() => setVersion((v) => v + 1), [])
  return { data: state.data, error: state.error, loading: state.loading, reload }
}

export interface Action {
  readonly pending: boolean
  readonly error: ApiFailure | undefined
  /** Runs `work` unless one is running; a failure is kept in `error` (and returned as `undefined`). */
  run<T>(work: () => Promise<T>): Promise<T | undefined>
  clear(): void
}

export const useAction = (): Action => {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<ApiFailure | undefined>(undefined)
  const running = useRef(false)
  const run = useCallback(async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    if (running.current) return undefined
    running.current = true
    setPending(true)
    setError(undefined)
    try {
      return await work()
    } catch (failure) {
      setError(asFailure(failure))
      return undefined
    } finally {
      running.current = false
      setPending(false)
    }
  }, [])
  return { pending, error, run, clear: useCallback(() => setError(undefined), []) }
}

/** Calls `tick` every `ms` while `active`, stopping by itself when it turns false. */
export const useInterval = (tick: () => void, ms: number, active: boolean): void => {
  const latest = useRef(tick)
  latest.current = tick
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => latest.current(), ms)
    return () => clearInterval(timer)
  }, [ms, active])
}
