import { roomToRefill } from "../window.ts"

/**
 * Bookkeeping for one assigned partition: which offsets are dispatched but unfinished, and how far
 * the group's committed offset may safely move. A record that takes long (or keeps failing) holds
 * the commit point at its own offset while the records behind it keep being processed; once it
 * finishes, the commit point jumps past everything already done.
 */
export class PartitionWindow {
  readonly size: number
  readonly #unfinished = new Set<bigint>()
  #next: bigint | undefined
  #committed: bigint | undefined

  constructor(size: number) {
    this.size = Math.max(1, size)
  }

  /** Records dispatched and not yet finished (including ones abandoned at shutdown). */
  get inFlight(): number {
    return this.#unfinished.size
  }

  get full(): boolean {
    return this.#unfinished.size >= this.size
  }

  /** A paused partition resumes once this much is free (`roomToRefill`), not at the first free slot. */
  get roomToResume(): boolean {
    return this.size - this.#unfinished.size >= roomToRefill(this.size)
  }

  /** The offset after the last dispatched record: records below it were already handed out. */
  get next(): bigint | undefined {
    return this.#next
  }

  start(offset: bigint): void {
    this.#unfinished.add(offset)
    if (this.#next === undefined || offset >= this.#next) this.#next = offset + 1n
  }

  finish(offset: bigint): void {
    this.#unfinished.delete(offset)
  }

  /** Kafka's committed offset is the next record to read: the lowest unfinished one, else `next`. */
  commitPoint(): bigint | undefined {
    let lowest: bigint | undefined
    for (const offset of this.#unfinished) if (lowest === undefined || offset < lowest) lowest = offset
    return lowest ?? this.#next
  }

  /** The offset to commit now, or undefined when the group already has it. */
  pendingCommit(): bigint | undefined {
    const point = this.commitPoint()
    return point === undefined || point === this.#committed ? undefined : point
  }

  committed(offset: bigint): void {
    if (this.#committed === undefined || offset > this.#committed) this.#committed = offset
  }
}
