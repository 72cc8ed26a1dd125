import { Topics } from "@parley/contracts"

/**
 * The webhook attempt schedule (docs/contract.md §6): delay before each attempt, measured from the
 * failure of the previous one. Attempt 1 goes as soon as possible, attempt 2 about 5 s after attempt
 * 1 failed, attempt 3 about 10 s after attempt 2 failed; there is no attempt 4. This is the one
 * place the gaps are written down; tests inject a faster schedule of the same shape.
 */
export const AttemptSchedule: AttemptDelays = [0, 5_000, 10_000]

/** Milliseconds to wait before attempts 1, 2 and 3. */
export type AttemptDelays = readonly [number, number, number]

/** The durable delay topic that holds a delivery until its next attempt is due. */
export const retryTopicFor = (nextAttempt: 2 | 3): string =>
  nextAttempt === 2 ? Topics.dispatchRetry5s : Topics.dispatchRetry10s

/** Every attempt of one request answers within this (docs/contract.md §6: no complete response in 10 s). */
export const AttemptTimeoutMs = 10_000
