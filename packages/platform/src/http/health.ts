/**
 * `/health/live` answers while the process serves HTTP; `/health/ready` runs every readiness check
 * concurrently, each bounded by its own timeout, so a hung dependency makes the probe fail rather
 * than hang. A check marked `optional` is a dependency the service keeps serving without (the
 * gateway's Redis: it falls back to counting in memory): its state shows in the body, never in the
 * status, so a blip of it does not take every instance out of its load balancer.
 */
import type { FastifyInstance } from "fastify"
import { unavailable } from "../errors.ts"

export interface ReadinessCheck {
  readonly name: string
  /** Resolves when the dependency is reachable; rejects (or times out) when it is not. */
  readonly check: () => Promise<unknown> | unknown
  readonly timeoutMs?: number
  /** The service serves without it (degraded): reported in the body, not counted against readiness. */
  readonly optional?: boolean
}

export type CheckOutcome = "ok" | "failed" | "timeout"

const DEFAULT_TIMEOUT_MS = 2_000

const runCheck = async (check: ReadinessCheck): Promise<CheckOutcome> => {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => resolve("timeout"), check.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  })
  try {
    return await Promise.race([
      Promise.resolve()
        .then(check.check)
        .then(
          () => "ok" as const,
          () => "failed" as const,
        ),
      timeout,
    ])
  } finally {
    clearTimeout(timer)
  }
}

export const runReadiness = async (
  checks: ReadonlyArray<ReadinessCheck>,
): Promise<{ ready: boolean; checks: Record<string, CheckOutcome> }> => {
  const outcomes = await Promise.all(checks.map(runCheck))
  const byName: Record<string, CheckOutcome> = {}
  checks.forEach((check, i) => {
    byName[check.name] = outcomes[i] as CheckOutcome
  })
  return { ready: outcomes.every((outcome, i) => outcome === "ok" || checks[i]?.optional === true), checks: byName }
}

export const registerHealthRoutes = (app: FastifyInstance, checks: ReadonlyArray<ReadinessCheck>): void => {
  // Probes arrive every few seconds: keep them out of the info-level access log.
  app.get("/health/live", { logLevel: "warn" }, async () => ({ status: "ok" }))
  app.get("/health/ready", { logLevel: "warn" }, async (request, reply) => {
    const result = await runReadiness(checks)
    if (result.ready) return { status: "ok", checks: result.checks }
    request.log.warn({ checks: result.checks }, "not ready")
    const error = unavailable()
    reply.header("retry-after", String(error.retryAfter))
    return reply.code(503).send({ ...error.toBody(), checks: result.checks })
  })
}
