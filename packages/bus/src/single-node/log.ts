import { atCommit } from "@parley/db"
import type postgres from "postgres"
import type { OutgoingRecord } from "../Bus.ts"
import { partitionId } from "./group.ts"
import { partitionFor } from "./partitioner.ts"

export const busChannel = "parley_bus"

/** Partition counts already committed to `parley_bus.topics`, per process. */
export class TopicDirectory {
  private readonly known = new Map<string, number>()
  private readonly partitionsFor: (topic: string) => number

  constructor(partitionsFor: (topic: string) => number) {
    this.partitionsFor = partitionsFor
  }

  /**
   * Creates missing topics with their configured partition count and returns every topic's count.
   * Inside a caller's transaction the creation rolls back with it, so only topics found already
   * there (hence committed by someone) are remembered.
   */
  async ensure(sql: postgres.Sql, topics: ReadonlyArray<string>): Promise<Map<string, number>> {
    const result = new Map<string, number>()
    const unknown = [...new Set(topics)].filter((topic) => {
      const partitions = this.known.get(topic)
      if (partitions !== undefined) result.set(topic, partitions)
      return partitions === undefined
    })
    if (unknown.length === 0) return result
    const found = await sql<Array<{ name: string; partitions: number }>>`
      select name, partitions from parley_bus.topics where name = any(${unknown}::text[])`
    for (const row of found) {
      this.known.set(row.name, row.partitions)
      result.set(row.name, row.partitions)
    }
    for (const topic of unknown.filter((t) => !result.has(t))) {
      result.set(topic, await createTopic(sql, topic, this.partitionsFor(topic)))
    }
    return result
  }
}

/**
 * Creates a topic with `partitions` partitions unless it exists; returns its partition count. The
 * topic and its partitions appear in one statement: an appender that finds the topic finds its
 * partitions too (outside a transaction, two statements let one see a topic with none yet).
 */
export const createTopic = async (sql: postgres.Sql, topic: string, partitions: number): Promise<number> => {
  await sql`
    with created as (
      insert into parley_bus.topics (name, partitions) values (${topic}, ${partitions})
      on conflict (name) do nothing
      returning name, partitions)
    insert into parley_bus.partitions (topic, partition)
    select name, p from created, generate_series(0, created.partitions - 1) as p`
  const [row] = await sql<Array<{ partitions: number }>>`
    select partitions from parley_bus.topics where name = ${topic}`
  const count = row?.partitions ?? partitions
  // A topic that an earlier version created in two steps may have been left without partitions.
  await sql`insert into parley_bus.partitions (topic, partition)
            select ${topic}, p from generate_series(0, ${count - 1}::int) as p
            on conflict do nothing`
  return count
}

/**
 * Appends records in one round trip: `parley_bus.append` (schema.ts) takes each partition's counter
 * in a fixed order and keeps it locked until the surrounding transaction commits (the caller's,
 * else the statement's own), which is what keeps offsets gap-free in commit order. NOTIFY is
 * delivered on commit, one per partition (`partitionId`, which it also returns). The batch travels
 * as one JSON text: no client-side transaction, no array literals to escape.
 */
export const appendRecords = async (
  sql: postgres.Sql,
  topics: TopicDirectory,
  records: ReadonlyArray<OutgoingRecord>,
): Promise<ReadonlyArray<string>> => {
  if (records.length === 0) return []
  const batches = new Map<string, PartitionBatch>()
  addRecords(batches, await topics.ensure(sql, topicsOf(records)), records)
  await appendStatement(sql, batches)
  return [...batches.keys()]
}

/** Per transaction of `withTransaction`, the records its `append`s left for its COMMIT. */
const pending = new WeakMap<postgres.TransactionSql, Map<string, PartitionBatch>>()

/**
 * Appends records within the caller's transaction. In a `withTransaction` transaction the append is
 * its last statement, pipelined with COMMIT (`atCommit`): the partitions' counters are then locked
 * only while the server appends and commits, never across a round trip to this process — where a
 * busy event loop held them for tens of milliseconds while every other appender of the partition
 * waited. Several appends of one transaction become one statement, each partition's records in
 * the order they were appended. Elsewhere the append runs at once.
 */
export const appendInTransaction = async (
  tx: postgres.TransactionSql,
  topics: TopicDirectory,
  records: ReadonlyArray<OutgoingRecord>,
): Promise<void> => {
  if (records.length === 0) return
  const queries = tx as unknown as postgres.Sql
  const counts = await topics.ensure(queries, topicsOf(records))
  const waiting = pending.get(tx)
  if (waiting !== undefined) return addRecords(waiting, counts, records)
  const batches = new Map<string, PartitionBatch>()
  addRecords(batches, counts, records)
  if (atCommit(tx, () => appendStatement(queries, batches))) pending.set(tx, batches)
  else await appendStatement(queries, batches)
}

const topicsOf = (records: ReadonlyArray<OutgoingRecord>) => records.map((r) => r.topic)

const addRecords = (
  batches: Map<string, PartitionBatch>,
  counts: Map<string, number>,
  records: ReadonlyArray<OutgoingRecord>,
): void => {
  for (const record of records) {
    const partition = partitionFor(record.key, counts.get(record.topic) ?? 1)
    const id = partitionId({ topic: record.topic, partition })
    let batch = batches.get(id)
    if (batch === undefined) {
      batch = { topic: record.topic, partition, keys: [], values: [], headers: [] }
      batches.set(id, batch)
    }
    batch.keys.push(record.key)
    batch.values.push(record.value)
    batch.headers.push(record.headers ?? {})
  }
}

const appendStatement = (sql: postgres.Sql, batches: Map<string, PartitionBatch>) =>
  sql`select parley_bus.append(${JSON.stringify([...batches.values()])}::text::jsonb)`

interface PartitionBatch {
  readonly topic: string
  readonly partition: number
  readonly keys: Array<string>
  readonly values: Array<string>
  readonly headers: Array<Record<string, string>>
}
