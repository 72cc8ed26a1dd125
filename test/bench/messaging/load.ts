/**
 * Signed provider deliveries at bounded concurrency: every request carries its own body (distinct
 * message ids), so a load tool replaying one body would not do. Bodies are built and signed before
 * the clock starts; the timed part is only sending and waiting.
 */
import { Pool } from "undici"

export interface SignedDelivery {
  readonly body: string
  readonly signature: string
}

export interface DeliveryRun {
  readonly payloadsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly total: number
  /** How many answered 200; the rest are listed by status (0 = no answer). */
  readonly accepted: number
  readonly failures: Record<number, number>
  /** Per delivery, whether it was answered 200 (same order as the input). */
  readonly acceptedMask: ReadonlyArray<boolean>
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

/** Posts every delivery to `origin` + `path` with `concurrency` in flight over as many keep-alive connections. */
export const deliver = async (
  origin: string,
  path: string,
  deliveries: ReadonlyArray<SignedDelivery>,
  concurrency: number,
): Promise<DeliveryRun> => {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 })
  const latencies = new Array<number>(deliveries.length)
  const acceptedMask = new Array<boolean>(deliveries.length).fill(false)
  const failures: Record<number, number> = {}
  let next = 0
  const started = performance.now()
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < deliveries.length) {
          const index = next++
          const delivery = deliveries[index] as SignedDelivery
          const sent = performance.now()
          let status = 0
          try {
            const response = await pool.request({
              method: "POST",
              path,
              headers: { "content-type": "application/json", "x-hub-signature-256": delivery.signature },
              body: delivery.body,
            })
            status = response.statusCode
            await response.body.dump()
          } catch {
            status = 0
          }
          latencies[index] = performance.now() - sent
          if (status === 200) acceptedMask[index] = true
          else failures[status] = (failures[status] ?? 0) + 1
        }
      }),
    )
  } finally {
    await pool.close()
  }
  const seconds = (performance.now() - started) / 1000
  const sorted = latencies.sort((a, b) => a - b)
  const accepted = acceptedMask.filter(Boolean).length
  return {
    payloadsPerSecond: deliveries.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    total: deliveries.length,
    accepted,
    failures,
    acceptedMask,
  }
}
