const encoder = new TextEncoder()

/** FNV-1a (32 bit) of the key's UTF-8 bytes: stable across processes, releases and machines. */
export const partitionFor = (key: string, partitions: number): number => {
  let hash = 0x811c9dc5
  for (const byte of encoder.encode(key)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0) % partitions
}
