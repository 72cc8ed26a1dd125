/**
 * The `RateLimit-*` headers of docs/contract.md §3 (the IETF RateLimit header fields draft, in its
 * separate-fields form): every counted response says which limit answered and how much is left.
 */
import type { FastifyReply } from "fastify"
import type { RateDecision } from "./policy.ts"

export const resetSeconds = (resetMs: number): number => Math.max(1, Math.ceil(resetMs / 1000))

export const setRateLimitHeaders = (reply: FastifyReply, decision: RateDecision, windowMs: number): void => {
  const { state } = decision
  reply.header("ratelimit-limit", String(state.limit))
  reply.header("ratelimit-remaining", String(state.remaining))
  reply.header("ratelimit-reset", String(resetSeconds(state.resetMs)))
  reply.header("ratelimit-policy", `${state.limit};w=${Math.round(windowMs / 1000)}`)
}
