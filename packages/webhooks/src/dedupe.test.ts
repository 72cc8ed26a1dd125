import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { type DeliveryStore, MemoryDeliveryStore, makeDeduplicator } from "./dedupe.ts"
import { MissingHeader } from "./errors.ts"

const delivery = (id: string) => ({ "x-service-delivery": id })

describe("deduplication", () => {
  it("runs the handler once per X-Service-Delivery and reports later attempts as duplicates", async () => {
    const dedupe = makeDeduplicator()
    let runs = 0
    const handle = async () => ++runs
    expect(await dedupe.once(delivery("dlv_a"), handle)).toEqual({ status: "handled", value: 1 })
    expect(await dedupe.once(new Headers({ "X-Service-Delivery": "dlv_a" }), handle)).toEqual({ status: "duplicate" })
    expect(await dedupe.once(delivery("dlv_b"), handle)).toEqual({ status: "handled", value: 2 })
    expect(runs).toBe(2)
  })

  it("frees the delivery id when the handler fails, so the next attempt handles it", async () => {
    const dedupe = makeDeduplicator()
    await expect(
      dedupe.once(delivery("dlv_a"), async () => {
        throw new Error("database down")
      }),
    ).rejects.toThrow("database down")
    expect(await dedupe.once(delivery("dlv_a"), async () => "ok")).toEqual({ status: "handled", value: "ok" })
  })

  it("reports an attempt arriving while another of the same delivery is being handled as in-progress", async () => {
    const dedupe = makeDeduplicator()
    let finish: () => void = () => {}
    const first = dedupe.once(delivery("dlv_a"), () => new Promise<void>((resolve) => (finish = resolve)))
    expect(await dedupe.once(delivery("dlv_a"), async () => "second")).toEqual({ status: "in-progress" })
    finish()
    expect(await first).toEqual({ status: "handled", value: undefined })
  })

  it("forgets a handled delivery after its TTL, and a crashed claim after its lease", async () => {
    let now = 1_000_000
    const store = new MemoryDeliveryStore({ now: () => now })
    const dedupe = makeDeduplicator({ store, ttlSeconds: 60, leaseSeconds: 10 })
    await dedupe.once(delivery("dlv_a"), async () => {})
    now += 59_000
    expect((await dedupe.once(delivery("dlv_a"), async () => {})).status).toBe("duplicate")
    now += 2_000
    expect((await dedupe.once(delivery("dlv_a"), async () => {})).status).toBe("handled")

    expect(await store.claim("dlv_crashed", 10)).toBe("claimed")
    now += 9_000
    expect(await store.claim("dlv_crashed", 10)).toBe("processing")
    now += 2_000
    expect(await store.claim("dlv_crashed", 10)).toBe("claimed")
  })

  it("keeps the in-memory store bounded, dropping the oldest entries first", async () => {
    const store = new MemoryDeliveryStore({ maxEntries: 3 })
    const dedupe = makeDeduplicator({ store })
    for (const id of ["dlv_1", "dlv_2", "dlv_3", "dlv_4"]) await dedupe.once(delivery(id), async () => {})
    expect(store.size).toBe(3)
    expect((await dedupe.once(delivery("dlv_4"), async () => {})).status).toBe("duplicate")
    expect((await dedupe.once(delivery("dlv_1"), async () => {})).status).toBe("handled")
  })

  it("refuses a request without X-Service-Delivery as MissingHeader", async () => {
    const error = await makeDeduplicator()
      .once({}, async () => {})
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MissingHeader)
    expect(error).toMatchObject({ header: "X-Service-Delivery" })
  })

  it("accepts any store implementing the async interface, such as one backed by a database", async () => {
    const calls: string[] = []
    const rows = new Map<string, "processing" | "done">()
    const store: DeliveryStore = {
      claim: async (id) => {
        calls.push(`claim ${id}`)
        const state = rows.get(id)
        if (state !== undefined) return state
        rows.set(id, "processing")
        return "claimed"
      },
      complete: async (id) => {
        calls.push(`complete ${id}`)
        rows.set(id, "done")
      },
      release: async (id) => {
        calls.push(`release ${id}`)
        rows.delete(id)
      },
    }
    const dedupe = makeDeduplicator({ store })
    await dedupe.once(delivery("dlv_a"), async () => {})
    await dedupe.once(delivery("dlv_a"), async () => {})
    expect(calls).toEqual(["claim dlv_a", "complete dlv_a", "claim dlv_a"])
  })

  it("offers the same through Effect, keeping the handler's own typed failure", async () => {
    const dedupe = makeDeduplicator()
    const failing = Effect.fail("boom" as const)
    const first = await Effect.runPromise(Effect.flip(dedupe.onceEffect(delivery("dlv_e"), failing)))
    expect(first).toBe("boom")
    const second = await Effect.runPromise(dedupe.onceEffect(delivery("dlv_e"), Effect.succeed(7)))
    expect(second).toEqual({ status: "handled", value: 7 })
  })
})
