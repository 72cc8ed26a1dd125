import { describe, expect, it } from "vitest"
import { BatchQueue } from "./batch-queue.ts"

describe("BatchQueue", () => {
  it("writes items submitted while a batch runs together in the next batch", async () => {
    const batches: Array<ReadonlyArray<number>> = []
    let release = () => {}
    const group = new BatchQueue<number, number>(
      async (items) => {
        batches.push(items)
        if (batches.length === 1)
          await new Promise<void>((resolve) => {
            release = resolve
          })
        return items.map((n) => n * 2)
      },
      { maxConcurrent: 1 },
    )
    const first = group.submit(1)
    const rest = [2, 3, 4].map((n) => group.submit(n))
    release()
    expect(await first).toBe(2)
    expect(await Promise.all(rest)).toEqual([4, 6, 8])
    expect(batches).toEqual([[1], [2, 3, 4]])
  })

  it("fails every caller of a failed batch and keeps serving later ones", async () => {
    let fail = true
    const group = new BatchQueue<number>(async (items) => {
      if (fail) throw new Error("down")
      return items.map(() => undefined)
    })
    await expect(group.submit(1)).rejects.toThrow("down")
    fail = false
    await expect(group.submit(2)).resolves.toBeUndefined()
  })
})
