import { describe, expect, it } from "vitest"
import { EventTopics, TopicCatalog, Topics } from "./topics.ts"

describe("topics", () => {
  it("every topic name is unique", () => {
    const names = Object.values(Topics)
    expect(new Set(names).size).toBe(names.length)
  })

  it("every topic name is namespaced under parley and carries a version suffix", () => {
    for (const name of Object.values(Topics)) expect(name).toMatch(/^parley\.[a-z0-9.-]+\.v[1-9][0-9]*$/)
  })

  it("the catalogue lists every topic once with 8 partitions", () => {
    expect(TopicCatalog.map((t) => t.name).sort()).toEqual(Object.values(Topics).sort())
    for (const topic of TopicCatalog) expect(topic.partitions).toBe(8)
  })

  it("the names are those of docs/internal-apis.md", () => {
    expect(Topics.identityKeyUsage).toBe("parley.identity.key-usage.v1")
    expect(Topics.identityMembers).toBe("parley.identity.members.v1")
    expect(Topics.dispatchRetry5s).toBe("parley.dispatch.retry.5s.v1")
    expect(Topics.dispatchRetry10s).toBe("parley.dispatch.retry.10s.v1")
    expect(EventTopics).toEqual([
      "parley.events.message.v1",
      "parley.events.lead.v1",
      "parley.events.template.v1",
      "parley.events.campaign.v1",
    ])
  })
})
