import { describe, expect, it } from "vitest"
import { CORPUS } from "../eval/corpus/index.ts"
import { evaluate, fullyRight, summarize } from "../eval/evaluate.ts"

/**
 * The evaluation corpus as a test: issue #18's targets hold on every run, so a change to the engine
 * that breaks real conversations fails CI, not only the table in the README.
 */
describe("the evaluation corpus", () => {
  it("meets its targets: ≥ 95 % of lead conversations right, no reference number taken, no wrong booking", async () => {
    const outcomes = await evaluate(CORPUS)
    const summary = summarize(outcomes)
    const failed = outcomes
      .filter((outcome) => !fullyRight(outcome))
      .map((o) => `${o.conversation.id}: ${o.problems.join("; ")}`)
    expect(summary.conversations).toBeGreaterThanOrEqual(250)
    expect(summary.leadConversationsRight / summary.leadConversations, failed.join("\n")).toBeGreaterThanOrEqual(0.95)
    expect(summary.referencesTaken, failed.join("\n")).toBe(0)
    expect(summary.wrongBookings, failed.join("\n")).toBe(0)
    expect(summary.wrongLanguage, failed.join("\n")).toBe(0)
  }, 180_000)
})
