/**
 * Keeps `lastUsedAt` current from the gateways' `KeyUsed` records, in batches: records arriving
 * within a short window (or up to a batch size) become one UPDATE. A record's handler completes only
 * once its batch is written, so the bus commits past a record only after its effect is durable; a
 * failed write fails every handler of the batch and the bus retries them. `greatest` makes replays
 * harmless.
 */
import { Bus, type BusError, decodeOrSkip } from "@parley/bus"
import { KeyUsed, type OrgId, Topics } from "@parley/contracts"
import { Database } from "@parley/db"
import { Effect, type Scope } from "effect"
import { recordKeyUsage } from "../api-keys/api-key-repository.ts"

export const KEY_USAGE_GROUP = "identity.key-usage"

export interface KeyUsageBatching {
  /** How long the first record of a batch waits for company. */
  readonly lingerMs: number
  readonly maxBatch: number
}

const defaults: KeyUsageBatching = { lingerMs: 50, maxBatch: 500 }

interface Usage {
  readonly keyId: string
  readonly orgId: OrgId
  readonly usedAt: Date
}

interface Pending {
  /** The latest usage per key (and organization) in this batch. */
  readonly usages: Map<string, Usage>
  readonly waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }>
}

/** Collects usages and writes them with one statement per batch. */
const makeBatcher = (write: (usages: ReadonlyArray<Usage>) => Promise<void>, batching: KeyUsageBatching) => {
  let pending: Pending | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let count = 0

  const flush = () => {
    const batch = pending
    pending = undefined
    count = 0
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (batch === undefined) return
    const usages = [...batch.usages.values()]
    write(usages).then(
      () => {
        for (const w of batch.waiters) w.resolve()
      },
      (error: unknown) => {
        for (const w of batch.waiters) w.reject(error)
      },
    )
  }

  return (usage: Usage): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      pending ??= { usages: new Map(), waiters: [] }
      const id = `${usage.orgId}/${usage.keyId}`
      const known = pending.usages.get(id)
      if (known === undefined || known.usedAt < usage.usedAt) pending.usages.set(id, usage)
      pending.waiters.push({ resolve, reject })
      count++
      if (count >= batching.maxBatch) flush()
      else timer ??= setTimeout(flush, batching.lingerMs)
    })
}

/** Subscribes for as long as the Scope lives. */
export const consumeKeyUsage = (
  batching: KeyUsageBatching = defaults,
): Effect.Effect<void, BusError, Bus | Database | Scope.Scope> =>
  Effect.gen(function* () {
    const bus = yield* Bus
    const { sql } = yield* Database
    const add = makeBatcher((usages) => Effect.runPromise(recordKeyUsage(sql, usages)), batching)
    yield* bus.subscribe(
      { groupId: KEY_USAGE_GROUP, topics: [Topics.identityKeyUsage] },
      decodeOrSkip(KeyUsed, (used) =>
        Effect.promise(() => add({ keyId: used.keyId, orgId: used.orgId, usedAt: new Date(used.usedAt) })),
      ),
    )
  })
