import type { ICustomPartitioner } from "kafkajs"

const M = 0x5bd1e995

/**
 * Kafka's murmur2 hash of `data`, in 32-bit integer arithmetic as the Java client computes it.
 * kafkajs's own emulates 64-bit Longs and allocates several objects per four bytes of key.
 */
export const murmur2 = (data: Uint8Array): number => {
  const length = data.length
  let h = 0x9747b28c ^ length
  const whole = length & ~3
  for (let i = 0; i < whole; i += 4) {
    let k =
      (data[i] as number) |
      ((data[i + 1] as number) << 8) |
      ((data[i + 2] as number) << 16) |
      ((data[i + 3] as number) << 24)
    k = Math.imul(k, M)
    k ^= k >>> 24
    k = Math.imul(k, M)
    h = Math.imul(h, M) ^ k
  }
  const rest = length & 3
  if (rest === 3) h ^= (data[whole + 2] as number) << 16
  if (rest >= 2) h ^= (data[whole + 1] as number) << 8
  if (rest >= 1) h = Math.imul(h ^ (data[whole] as number), M)
  h ^= h >>> 13
  h = Math.imul(h, M)
  return h ^ (h >>> 15)
}

/** The partition kafkajs's default (Java-compatible) partitioner picks for a key. */
export const kafkaPartitionFor = (key: string, partitions: number): number =>
  (murmur2(Buffer.from(key, "utf8")) & 0x7fffffff) % partitions

/**
 * The producer's partitioner: the same placement as kafkajs's default one for every keyed record
 * (a key keeps its partition across this change), without its allocations. Records always have a key.
 */
export const keyPartitioner: ICustomPartitioner =
  () =>
  ({ partitionMetadata, message }) =>
    kafkaPartitionFor(String(message.key), partitionMetadata.length)
