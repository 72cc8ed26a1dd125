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
 * One heartbeat of a group member, in one transaction: refresh the member, forget members whose
 * session expired, compute the assignment (partitions sorted, dealt round-robin to the sorted live
 * members — every member computes the same one), renew this member's leases and take the desired
 * partitions whose lease is free or expired. A partition still leased to another member is taken
 * once that member releases it (after draining) or its lease expires (it crashed).
 */
export const heartbeat = async (
  sql: postgres.Sql,
  input: { groupId: string; memberId: string; topics: ReadonlyArray<string>; sessionMs: number },
): Promise<Membership> =>
  sql.begin(async (tx) => {
    const { groupId, memberId, sessionMs } = input
    await tx`
      insert into parley_bus.members (group_id, member_id, expires_at)
      values (${groupId}, ${memberId}, now() + ${sessionMs} * interval '1 millisecond')
      on conflict (group_id, member_id) do update set expires_at = excluded.expires_at`
    await tx`delete from parley_bus.members where group_id = ${groupId} and expires_at < now()`
    const members = await tx<Array<{ member_id: string }>>`
      select member_id from parley_bus.members where group_id = ${groupId} order by member_id`
    const partitions = await tx<Array<PartitionRef>>`
      select topic, partition from parley_bus.partitions
      where topic = any(${[...input.topics]}::text[]) order by topic, partition`
    const me = members.findIndex((m) => m.member_id === memberId)
    const desired = partitions.filter((_, i) => i % members.length === me)
    const renewed = await tx<Array<PartitionRef>>`
      update parley_bus.leases set expires_at = now() + ${sessionMs} * interval '1 millisecond'
      where group_id = ${groupId} and member_id = ${memberId} and expires_at >= now()
      returning topic, partition`
    const held = new Map(renewed.map((p) => [partitionId(p), p]))
    for (const p of desired) {
      if (held.has(partitionId(p))) continue
      const taken = await tx<Array<PartitionRef>>`
        insert into parley_bus.leases (group_id, topic, partition, member_id, expires_at)
        values (${groupId}, ${p.topic}, ${p.partition}, ${memberId}, now() + ${sessionMs} * interval '1 millisecond')
        on conflict (group_id, topic, partition) do update
          set member_id = excluded.member_id, expires_at = excluded.expires_at
          where parley_bus.leases.expires_at < now() or parley_bus.leases.member_id = excluded.member_id
        returning topic, partition`
      for (const t of taken) held.set(partitionId(t), t)
    }
    return { held: [...held.values()], desired }
  })

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
  const rows = await sql`
    insert into parley_bus.group_offsets (group_id, topic, partition, committed)
    select ${groupId}, ${p.topic}, ${p.partition}, ${next.toString()}::bigint
    where exists (
      select 1 from parley_bus.leases
      where group_id = ${groupId} and topic = ${p.topic} and partition = ${p.partition}
        and member_id = ${memberId} and expires_at >= now())
    on conflict (group_id, topic, partition) do update set committed = excluded.committed
    returning 1`
  return rows.length === 1
}

export const releaseLease = (sql: postgres.Sql, groupId: string, memberId: string, p: PartitionRef) =>
  sql`delete from parley_bus.leases
      where group_id = ${groupId} and topic = ${p.topic} and partition = ${p.partition} and member_id = ${memberId}`

/** Leaves the group gracefully: the other members take over on their next heartbeat. */
export const leaveGroup = async (sql: postgres.Sql, groupId: string, memberId: string): Promise<void> => {
  await sql`delete from parley_bus.leases where group_id = ${groupId} and member_id = ${memberId}`
  await sql`delete from parley_bus.members where group_id = ${groupId} and member_id = ${memberId}`
}
