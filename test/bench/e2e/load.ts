/**
 * Signed cloud payloads (one customer text each, `bench <n>` in its body) sent to a webhook
 * endpoint: as fast as `senders` keep-alive connections allow (closed loop), or at a fixed rate
 * (open loop, bounded in flight). Each answered-200 payload's accept time is kept, to be matched
 * with its arrival at the receiver.
 */
import { createHmac } from "node:crypto"
import { Pool } from "undici"

export const PHONE_NUMBER_ID = "106540352242922"
export const BUSINESS_ACCOUNT_ID = "102290129340398"
export const WEBHOOK_PATH = "/channels/cloud/webhook"

export interface SignedPayload {
  readonly seq: number
  readonly body: string
  readonly signature: string
}

export interface SendRun {
  readonly startedAt: number
  readonly seconds: number
  /** seq → wall-clock ms when the endpoint answered 200. */
  readonly accepted: Map<number, number>
  /** Request latency of each payload answered 200, sorted (ms). */
  readonly latencies: ReadonlyArray<number>
  /** Non-200 answers by status (0 = no answer). */
  readonly failures: Record<number, number>
}

export const wallClock = (): number => performance.timeOrigin + performance.now()

const customer = (n: number) => `1631555${String(n % 1_000).padStart(4, "0")}`

/** Builds and signs payloads `from`…`from + count - 1` before any clock starts. */
export const signedPayloads = (appSecret: string, from: number, count: number): Array<SignedPayload> =>
  Array.from({ length: count }, (_, i) => {
    const seq = from + i
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: BUSINESS_ACCOUNT_ID,
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { display_phone_number: "15550783881", phone_number_id: PHONE_NUMBER_ID },
                contacts: [{ profile: { name: `Customer ${seq % 1_000}` }, wa_id: customer(seq) }],
                messages: [
                  {
                    from: customer(seq),
                    id: `wamid.bench.${seq}.${Math.random().toString(36).slice(2)}`,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    text: { body: `bench ${seq}: is my order on its way?` },
                    type: "text",
                  },
                ],
              },
            },
          ],
        },
      ],
    })
    return { seq, body, signature: `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}` }
  })

const post = async (pool: Pool, payload: SignedPayload): Promise<number> => {
  try {
    const response = await pool.request({
      method: "POST",
      path: WEBHOOK_PATH,
      headers: { "content-type": "application/json", "x-hub-signature-256": payload.signature },
      body: payload.body,
    })
    await response.body.dump()
    return response.statusCode
  } catch {
    return 0
  }
}

const run = async (
  origin: string,
  connections: number,
  drive: (send: (payload: SignedPayload) => Promise<void>) => Promise<void>,
): Promise<SendRun> => {
  const pool = new Pool(origin, { connections, pipelining: 1 })
  const accepted = new Map<number, number>()
  const latencies: Array<number> = []
  const failures: Record<number, number> = {}
  const startedAt = wallClock()
  try {
    await drive(async (payload) => {
      const sent = wallClock()
      const status = await post(pool, payload)
      const answered = wallClock()
      if (status === 200) {
        accepted.set(payload.seq, answered)
        latencies.push(answered - sent)
      } else failures[status] = (failures[status] ?? 0) + 1
    })
  } finally {
    await pool.close()
  }
  return {
    startedAt,
    seconds: (wallClock() - startedAt) / 1000,
    accepted,
    latencies: latencies.sort((a, b) => a - b),
    failures,
  }
}

/** Closed loop: `senders` connections, each sending its next payload once the last was answered. */
export const sendAsFastAsPossible = (origin: string, payloads: ReadonlyArray<SignedPayload>, senders: number) =>
  run(origin, senders, async (send) => {
    let next = 0
    await Promise.all(
      Array.from({ length: senders }, async () => {
        while (next < payloads.length) await send(payloads[next++] as SignedPayload)
      }),
    )
  })

/**
 * Open loop: one payload every 1/rate s whatever the answers, so a slow answer shows as latency
 * rather than as a lower offered rate; at most `maxInFlight` outstanding (then the schedule slips,
 * and the run says so through its duration).
 */
export const sendAtRate = (
  origin: string,
  payloads: ReadonlyArray<SignedPayload>,
  perSecond: number,
  maxInFlight = 256,
) =>
  run(origin, maxInFlight, async (send) => {
    const started = performance.now()
    const inFlight = new Set<Promise<void>>()
    for (let i = 0; i < payloads.length; i++) {
      const due = started + (i * 1000) / perSecond
      const wait = due - performance.now()
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight)
      const sending = send(payloads[i] as SignedPayload).finally(() => inFlight.delete(sending))
      inFlight.add(sending)
    }
    await Promise.all(inFlight)
  })

export const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
