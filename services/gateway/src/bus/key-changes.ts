/**
 * Revocation within a second on every instance (docs/contract.md §2.1): each gateway instance follows
 * `parley.identity.keys.v1` in a consumer group of its OWN (a group shared by instances would hand
 * each record to one of them only), and every `KeyChanged` evicts the key from that instance's
 * cache. A record that cannot be decoded is logged and skipped: it cannot be made readable by
 * retrying, and the cache TTL bounds the damage.
 */
import { Bus, type BusError, decodeOrSkip } from "@parley/bus"
import { KeyChanged, Topics } from "@parley/contracts"
import { Effect, type Scope } from "effect"
import type { KeyCache } from "../auth/key-cache.ts"

export const followKeyChanges = (
  cache: KeyCache,
  instanceId: string,
  onApplied: () => void = () => {},
): Effect.Effect<void, BusError, Bus | Scope.Scope> =>
  Effect.gen(function* () {
    const bus = yield* Bus
    yield* bus.subscribe(
      { groupId: `gateway-keys-${instanceId}`, topics: [Topics.identityKeys] },
      decodeOrSkip(KeyChanged, (change) =>
        Effect.sync(() => {
          cache.applyChange(change)
          onApplied()
        }),
      ),
    )
  })
