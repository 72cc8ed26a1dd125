import { describe, expect, it } from "vitest"
import { partitionFor } from "./partitioner.ts"

describe("partitionFor", () => {
  it("maps a key to the same partition every time (FNV-1a, fixed values)", () => {
    expect(partitionFor("", 8)).toBe(0x811c9dc5 % 8)
    expect(partitionFor("org_1", 8)).toBe(partitionFor("org_1", 8))
    expect([partitionFor("a", 1000), partitionFor("b", 1000)]).toEqual([0xe40c292c % 1000, 0xe70c2de5 % 1000])
  })

  it("spreads many keys over every partition", () => {
    const counts = new Array(8).fill(0)
    for (let i = 0; i < 4000; i++) counts[partitionFor(`key-${i}`, 8)] += 1
    for (const count of counts) expect(count).toBeGreaterThan(350)
  })
})
