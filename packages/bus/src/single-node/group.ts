import type postgres from "postgres"

export interface PartitionRef {
  readonly topic: string
  readonly partition: number
}

export const partitionId = (p: PartitionRef): string => `${p.topic}#${p.partition}`

export interface Membership {
  /** Partitions this member holds a live lease on (renewed or newly acquired by this tick). */
  readonly held: ReadonlyArray<PartitionRef>
  /** Partitions the current assignment gives this member. */
  readonly desired: ReadonlyArray<PartitionRef>
}

/**
 * One heartbeat of a group member, one call of `parley_bus.heartbeat` (schema.ts): refresh the
 * member, forget members whose session expired, compute the assignment (partitions sorted, dealt
 * round-robin to the sorted live members — every member computes the same one), renew this
 * member's leases and take the desired partitions whose lease is free or expired. A partition still
 * leased to another member is taken once that member releases it (after draining) or its lease
 * expires (it crashed).
 */
export const heartbeat = async (
  sql: postgres.Sql,
  input: { groupId: string; memberId: string; topics: ReadonlyArray<string>; sessionMs: number },
): Promise<Membership> => {
  const rows = await sql<Array<{ lease_topic: string; lease_partition: number; held: boolean; desired: boolean }>>`
    select * from parley_bus.heartbeat(${input.groupId}, ${input.memberId}, ${[...input.topics]}::text[], ${input.sessionMs})`
  const partition = (row: (typeof rows)[number]): PartitionRef => ({
    topic: row.lease_topic,
    partition: row.lease_partition,
  })
  return { held: rows.filter((r) => r.held).map(partition), desired: rows.filter((r) => r.desired).map(partition) }
}

/** The offset a group resumes a partition from: its committed one, else the earliest (0). */
export const committedOffset = async (sql: postgres.Sql, groupId: string, p: PartitionRef): Promise<bigint> => {
  const [row] = await sql<Array<{ committed: bigint }>>`
    select committed from parley_bus.group_offsets
    where group_id = ${groupId} and topic = ${p.topic} and partition = ${p.partition}`
  return row?.committed ?? 0n
}

/**
 * Commits `next` (the next offset to read) if this member still holds the partition's lease;
 * returns false when the lease was lost, so a member that stalled past its lease never overwrites
 * the progress of the member that took over.
 */
export const commitOffset = async (
  sql: postgres.Sql,
  input: { groupId: string; memberId: string; partition: PartitionRef; next: bigint },
): Promise<boolean> => {
  const { groupId, memberId, partition: p, next } = input
  const [row] = await sql<Array<{ held: boolean }>>`
    select parley_bus.commit_offset(${groupId}, ${memberId}, ${p.topic}, ${p.partition}, ${next.toString()}::bigint) as held`
  return row?.held === true
}

export const releaseLease = (sql: postgres.Sql, groupId: string, memberId: string, p: PartitionRef) =>
  sql`delete from parley_bus.leases
      where group_id = ${groupId} and topic = ${p.topic} and partition = ${p.partition} and member_id = ${memberId}`

/** Leaves the group gracefully: the other members take over on their next heartbeat. */
export const leaveGroup = async (sql: postgres.Sql, groupId: string, memberId: string): Promise<void> => {
  await sql`delete from parley_bus.leases where group_id = ${groupId} and member_id = ${memberId}`
  await sql`delete from parley_bus.members where group_id = ${groupId} and member_id = ${memberId}`
}
