import type { Failure } from "./api/public-api.ts"

/** A failure the panel shows, with what its Retry button does (resend, reload, rebook). */
export interface Problem {
  readonly failure: Failure
  readonly retry: () => void
}
