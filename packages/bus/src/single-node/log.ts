import type postgres from "postgres"
import type { OutgoingRecord } from "../Bus.ts"
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

/** Creates a topic with `partitions` partitions unless it exists; returns its partition count. */
export const createTopic = async (sql: postgres.Sql, topic: string, partitions: number): Promise<number> => {
  await sql`insert into parley_bus.topics (name, partitions) values (${topic}, ${partitions})
            on conflict (name) do nothing`
  const [row] = await sql<Array<{ partitions: number }>>`
    select partitions from parley_bus.topics where name = ${topic}`
  const count = row?.partitions ?? partitions
  await sql`insert into parley_bus.partitions (topic, partition)
            select ${topic}, p from generate_series(0, ${count - 1}::int) as p
            on conflict do nothing`
  return count
}

/**
 * Appends records inside `tx`. Partitions are locked in a fixed order (topic, partition) so two
 * appending transactions cannot deadlock; each partition's counter row stays locked until `tx`
 * ends, which is what keeps offsets gap-free in commit order. NOTIFY is delivered on commit.
 */
export const appendRecords = async (
  tx: postgres.Sql,
  topics: TopicDirectory,
  records: ReadonlyArray<OutgoingRecord>,
): Promise<void> => {
  if (records.length === 0) return
  const counts = await topics.ensure(
    tx,
    records.map((r) => r.topic),
  )
  const byPartition = new Map<string, { topic: string; partition: number; records: Array<OutgoingRecord> }>()
  for (const record of records) {
    const partition = partitionFor(record.key, counts.get(record.topic) ?? 1)
    const id = JSON.stringify([record.topic, partition])
    const group = byPartition.get(id) ?? { topic: record.topic, partition, records: [] }
    group.records.push(record)
    byPartition.set(id, group)
  }
  const ordered = [...byPartition.values()].sort((a, b) =>
    a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1,
  )
  for (const group of ordered) {
    const n = group.records.length
    const [counter] = await tx<Array<{ first: bigint }>>`
      update parley_bus.partitions set next_offset = next_offset + ${n}
      where topic = ${group.topic} and partition = ${group.partition}
      returning next_offset - ${n} as first`
    if (counter === undefined) throw new Error(`No partition ${group.partition} of ${group.topic}`)
    await tx`
      insert into parley_bus.records (topic, partition, "offset", key, value, headers)
      select ${group.topic}, ${group.partition}, ${counter.first.toString()}::bigint + u.ord - 1, u.k, u.v, u.h::jsonb
      from unnest(${group.records.map((r) => r.key)}::text[], ${group.records.map((r) => r.value)}::text[],
                  ${group.records.map((r) => JSON.stringify(r.headers ?? {}))}::text[])
           with ordinality as u(k, v, h, ord)`
  }
  for (const topic of new Set(records.map((r) => r.topic))) {
    await tx`select pg_notify(${busChannel}, ${topic})`
  }
}
