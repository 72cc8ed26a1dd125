/**
 * `lastUsedAt`, best-effort (docs/contract.md §2.1): a request only notes the key in memory; a timer
 * publishes one `KeyUsed` per key noted since the last flush (so at most one per key per interval,
 * about a minute). A failed publish is logged and the notes are kept for the next flush; neither
 * a request nor its latency ever depends on the bus.
 */
import { Bus } from "@parley/bus"
import { encodeBusValue, type KeyId, KeyUsed, type OrgId, Topics } from "@parley/contracts"
import { Effect } from "effect"

interface Usage {
  readonly orgId: OrgId
  readonly usedAt: number
}

export interface KeyUsageRecorder {
  record(keyId: KeyId, orgId: OrgId): void
  /** Publishes what was noted; never fails (a failure is logged and retried next time). */
  readonly flush: Effect.Effect<void, never, Bus>
  readonly pending: number
}

export const makeKeyUsageRecorder = (now: () => number = Date.now): KeyUsageRecorder => {
  let noted = new Map<KeyId, Usage>()
  return {
    record: (keyId, orgId) => {
      noted.set(keyId, { orgId, usedAt: now() })
    },
    flush: Effect.gen(function* () {
      if (noted.size === 0) return
      const batch = noted
      noted = new Map()
      const bus = yield* Bus
      const records = [...batch].map(([keyId, usage]) => ({
        topic: Topics.identityKeyUsage,
        key: keyId,
        value: encodeBusValue(KeyUsed, {
          keyId,
          orgId: usage.orgId,
          usedAt: new Date(usage.usedAt).toISOString(),
        }),
      }))
      yield* bus.publish(records).pipe(
        Effect.catchCause((cause) =>
          Effect.gen(function* () {
            // Keep the notes, unless a newer use was noted meanwhile.
            for (const [keyId, usage] of batch) if (!noted.has(keyId)) noted.set(keyId, usage)
            yield* Effect.logWarning("key usage: publish failed, will retry at the next flush", cause)
          }),
        ),
      )
    }),
    get pending() {
      return noted.size
    },
  }
}
