import { kafkaPartitionFor } from "./kafka/partitioner.ts"
import { partitionFor } from "./single-node/partitioner.ts"

/**
 * The partition of `partitions` that a record keyed `key` lands on, as each adapter places it: FNV-1a
 * on the single-node bus, Kafka's murmur2 on Kafka. For tests and benchmarks that need keys on
 * distinct partitions.
 */
export const partitionOf = (adapter: "single-node" | "kafka", key: string, partitions: number): number =>
  adapter === "single-node" ? partitionFor(key, partitions) : kafkaPartitionFor(key, partitions)
