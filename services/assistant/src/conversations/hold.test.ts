import { describe, expect, it } from "vitest"
import { HOLD_LAPSES_AFTER_MS, holdStands } from "./hold.ts"

const takenAt = new Date("2026-11-27T09:30:00.000Z")
const after = (ms: number) => new Date(takenAt.getTime() + ms)

describe("a person's hold on a conversation", () => {
  it("stands through 24 hours of silence less a millisecond, and lapses at 24 hours", () => {
    const held = { holder_id: "usr_0123456789abcdefABCD", updated_at: takenAt }
    expect(holdStands(held, after(0))).toBe(true)
    expect(holdStands(held, after(23 * 60 * 60 * 1000))).toBe(true)
    expect(holdStands(held, after(HOLD_LAPSES_AFTER_MS - 1))).toBe(true)
    expect(holdStands(held, after(HOLD_LAPSES_AFTER_MS))).toBe(false)
    expect(holdStands(held, after(HOLD_LAPSES_AFTER_MS + 60_000))).toBe(false)
  })

  it("starts its 24 hours again with every message", () => {
    const lastMessage = after(20 * 60 * 60 * 1000)
    const held = { holder_id: "usr_0123456789abcdefABCD", updated_at: lastMessage }
    expect(holdStands(held, after(HOLD_LAPSES_AFTER_MS + 60_000))).toBe(true)
  })

  it("never stands for a conversation nobody holds", () => {
    expect(holdStands({ holder_id: null, updated_at: takenAt }, takenAt)).toBe(false)
  })
})
