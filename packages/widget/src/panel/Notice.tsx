/**
 * A problem shown above the conversation or the form, with a Retry button: a 429 or 503 with the
 * seconds of its `Retry-After` counting down, a lost network, or a refusal. It is an alert, so a
 * screen reader says it when it appears.
 */
import { useEffect, useState } from "preact/hooks"
import type { Failure } from "./api/public-api.ts"
import type { Problem } from "./problem.ts"
import type { PanelStrings } from "./strings.ts"

const explain = (failure: Failure, s: PanelStrings): string => {
  switch (failure.kind) {
    case "retryLater":
      return failure.status === 429 ? s.tooMany : s.unavailable
    case "offline":
      return s.offline
    case "refused":
      if (failure.code === "unsent") return s.unsent
      return failure.status === 401 || failure.code === "origin_not_allowed" || failure.code === "missing_scope"
        ? s.forbidden
        : s.failed
  }
}

/** Seconds left of a `Retry-After` given at mount. */
const useCountdown = (seconds: number): number => {
  const [left, setLeft] = useState(seconds)
  useEffect(() => {
    const until = Date.now() + seconds * 1000
    setLeft(seconds)
    const timer = setInterval(() => {
      const remaining = Math.max(0, Math.ceil((until - Date.now()) / 1000))
      setLeft(remaining)
      if (remaining === 0) clearInterval(timer)
    }, 1000)
    return () => clearInterval(timer)
  }, [seconds])
  return left
}

const Countdown = ({ seconds, s }: { seconds: number; s: PanelStrings }) => {
  const left = useCountdown(seconds)
  return left > 0 ? <span> {s.retryIn(left)}</span> : null
}

export const Notice = ({ problem, s }: { problem: Problem; s: PanelStrings }) => {
  const failure = problem.failure
  // A refusal of the key itself (wrong site, wrong scope) does not get better by retrying.
  const final = failure.kind === "refused" && explain(failure, s) === s.forbidden
  return (
    <div class="notice" role="alert">
      <p>
        {explain(failure, s)}
        {failure.kind === "retryLater" ? <Countdown seconds={failure.seconds} s={s} /> : null}
      </p>
      {final ? null : (
        <button type="button" class="notice-retry" onClick={problem.retry}>
          {s.retry}
        </button>
      )}
    </div>
  )
}
