import { describe, expect, it } from "vitest"
import { PartitionWindow } from "./partition-window.ts"

describe("PartitionWindow", () => {
  it("commits nothing before any record is dispatched", () => {
    expect(new PartitionWindow(4).pendingCommit()).toBeUndefined()
  })

  it("holds the commit point at the lowest unfinished offset while later records finish", () => {
    const w = new PartitionWindow(4)
    for (const o of [10n, 11n, 12n]) w.start(o)
    w.finish(11n)
    w.finish(12n)
    expect(w.commitPoint()).toBe(10n)
    w.finish(10n)
    expect(w.commitPoint()).toBe(13n)
  })

  it("is full when as many records as its size are unfinished, and frees a slot on finish", () => {
    const w = new PartitionWindow(2)
    w.start(0n)
    w.start(1n)
    expect(w.full).toBe(true)
    w.finish(1n)
    expect(w.full).toBe(false)
    expect(w.next).toBe(2n)
  })

  it("reports a pending commit only when the commit point moved past the last committed one", () => {
    const w = new PartitionWindow(4)
    w.start(5n)
    w.finish(5n)
    expect(w.pendingCommit()).toBe(6n)
    w.committed(6n)
    expect(w.pendingCommit()).toBeUndefined()
    w.start(6n)
    expect(w.pendingCommit()).toBeUndefined()
    w.finish(6n)
    expect(w.pendingCommit()).toBe(7n)
  })

  it("is ready to resume once half of it is free, or 64 records for a large window", () => {
    const small = new PartitionWindow(8)
    for (let o = 0n; o < 8n; o++) small.start(o)
    for (const o of [0n, 1n, 2n]) small.finish(o)
    expect(small.roomToResume).toBe(false)
    small.finish(3n)
    expect(small.roomToResume).toBe(true)
    const large = new PartitionWindow(512)
    for (let o = 0n; o < 512n; o++) large.start(o)
    for (let o = 0n; o < 63n; o++) large.finish(o)
    expect(large.roomToResume).toBe(false)
    large.finish(63n)
    expect(large.roomToResume).toBe(true)
  })
})
