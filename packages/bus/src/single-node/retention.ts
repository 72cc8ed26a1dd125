import type postgres from "postgres"

/**
 * Deletes records older than `olderThanMs` that every group known on their topic has committed
 * past. A group that has committed on some partitions of a topic but not this one holds the
 * record: it has not read it yet.
 */
export const deleteConsumedRecords = async (sql: postgres.Sql, olderThanMs: number): Promise<number> => {
  const deleted = await sql`
    delete from parley_bus.records r
    where r.created_at < now() - ${olderThanMs} * interval '1 millisecond'
      and not exists (
        select 1 from (select distinct group_id from parley_bus.group_offsets where topic = r.topic) g
        where not exists (
          select 1 from parley_bus.group_offsets o
          where o.group_id = g.group_id and o.topic = r.topic and o.partition = r.partition
            and o.committed > r."offset"))`
  return deleted.count
}
