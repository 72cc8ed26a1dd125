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

/** What one member's heartbeat says: who it is, what it reads, how long its session lasts. */
export interface HeartbeatInput {
  readonly groupId: string
  readonly memberId: string
  readonly topics: ReadonlyArray<string>
  readonly sessionMs: number
}

/**
 * Heartbeats of group members, one call of `parley_bus.heartbeat` (schema.ts) each, all in one
 * statement: a process's consumers beat on the same grid (`consumer.ts`), so an idle npm start sends
 * one or two statements per beat instead of one per group (17 of them, most of its idle CPU). Each
 * call refreshes its member, forgets members whose session expired, computes the assignment
 * (partitions sorted, dealt round-robin to the sorted live members — every member computes the same
 * one), renews the member's leases and takes the desired partitions whose lease is free or expired.
 * A partition still leased to another member is taken once that member releases it (after draining)
 * or its lease expires (it crashed).
 */
export const heartbeats = async (
  sql: postgres.Sql,
  inputs: ReadonlyArray<HeartbeatInput>,
): Promise<ReadonlyArray<Membership>> => {
  const batch = inputs.map((input, i) => ({
    i,
    g: input.groupId,
    m: input.memberId,
    t: input.topics,
    s: input.sessionMs,
  }))
  // A member without leases answers no row: the left join keeps it, as one row of nulls.
  const rows = await sql<
    Array<{
      i: number
      lease_topic: string | null
      lease_partition: number | null
      held: boolean | null
      desired: boolean | null
    }>
  >`
    select h.i, r.lease_topic, r.lease_partition, r.held, r.desired
    from jsonb_to_recordset(${JSON.stringify(batch)}::text::jsonb) as h(i int, g text, m text, t text[], s int)
    left join lateral parley_bus.heartbeat(h.g, h.m, h.t, h.s) r on true
    order by h.i`
  const memberships = inputs.map(() => ({ held: [] as Array<PartitionRef>, desired: [] as Array<PartitionRef> }))
  for (const row of rows) {
    const membership = memberships[row.i]
    if (membership === undefined || row.lease_topic === null || row.lease_partition === null) continue
    const partition = { topic: row.lease_topic, partition: row.lease_partition }
    if (row.held === true) membership.held.push(partition)
    if (row.desired === true) membership.desired.push(partition)
  }
  return memberships
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
