import { randomBytes } from "node:crypto"
import { Partitioners } from "kafkajs"
import { describe, expect, it } from "vitest"
import { kafkaPartitionFor } from "./partitioner.ts"

const metadata = (partitions: number) =>
  Array.from({ length: partitions }, (_, partitionId) => ({
    partitionId,
    leader: 0,
    partitionErrorCode: 0,
    replicas: [0],
    isr: [0],
  }))

describe("the Kafka key partitioner", () => {
  it("places every key where kafkajs's default partitioner does", () => {
    const kafkajs = Partitioners.DefaultPartitioner()
    const keys = [
      "",
      "a",
      "ab",
      "abc",
      "abcd",
      "wh_2XbC91mQ",
      "org_ÅÄÖ-é",
      "🙂 emoji key",
      ...Array.from({ length: 2_000 }, (_, i) => randomBytes(1 + (i % 40)).toString(i % 2 ? "base64url" : "latin1")),
    ]
    const disagreements = []
    for (const partitions of [1, 3, 8, 12, 64]) {
      for (const key of keys) {
        const expected = kafkajs({ topic: "t", partitionMetadata: metadata(partitions), message: { key, value: null } })
        if (kafkaPartitionFor(key, partitions) !== expected) disagreements.push({ key, partitions, expected })
      }
    }
    expect(disagreements).toEqual([])
  })
})
