import type { Migration } from "@parley/db"

export const busSchema = "parley_bus"

/**
 * The single-node bus log. `partitions.next_offset` is the per-partition counter: appending takes
 * its row lock until the appending transaction commits, so offsets are gap-free and appear in
 * commit order — a consumer reading `offset >= next` never skips a row that commits late.
 */
export const busMigrations: ReadonlyArray<Migration> = [
  {
    id: "0001_log",
    sql: `
create table topics (
  name text primary key,
  partitions int not null check (partitions > 0),
  created_at timestamptz not null default now()
);
create table partitions (
  topic text not null references topics (name),
  partition int not null,
  next_offset bigint not null default 0,
  primary key (topic, partition)
);
create table records (
  topic text not null,
  partition int not null,
  "offset" bigint not null,
  key text not null,
  value text not null,
  headers jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  primary key (topic, partition, "offset")
);
create index records_created_at on records (created_at);
create table group_offsets (
  group_id text not null,
  topic text not null,
  partition int not null,
  committed bigint not null,
  primary key (group_id, topic, partition)
);
create table members (
  group_id text not null,
  member_id text not null,
  expires_at timestamptz not null,
  primary key (group_id, member_id)
);
create table leases (
  group_id text not null,
  topic text not null,
  partition int not null,
  member_id text not null,
  expires_at timestamptz not null,
  primary key (group_id, topic, partition)
);
`,
  },
  {
    // One round trip and one statement per append, without a client-side BEGIN: the function runs
    // in the caller's transaction when there is one, else in the statement's own. Counters are
    // locked in (topic, partition) order whatever order the batch lists them in, so two appenders
    // cannot deadlock; each stays locked until that transaction commits.
    id: "0002_append",
    sql: `
create function parley_bus.append(batch jsonb) returns void language plpgsql as $fn$
declare
  part jsonb;
  n int;
  base bigint;
begin
  for part in
    select value from jsonb_array_elements(batch) order by value->>'topic', (value->>'partition')::int
  loop
    n := jsonb_array_length(part->'keys');
    update parley_bus.partitions set next_offset = next_offset + n
      where topic = part->>'topic' and partition = (part->>'partition')::int
      returning next_offset - n into base;
    if not found then
      raise exception 'No partition % of %', part->>'partition', part->>'topic';
    end if;
    insert into parley_bus.records (topic, partition, "offset", key, value, headers)
      select part->>'topic', (part->>'partition')::int, base + u.ord - 1, u.key, u.value, u.headers
      from rows from (jsonb_array_elements_text(part->'keys'), jsonb_array_elements_text(part->'values'),
                      jsonb_array_elements(part->'headers')) with ordinality as u(key, value, headers, ord);
  end loop;
  -- One wake-up per partition appended to, "topic#partition": only that partition's consumer fetches.
  perform pg_notify('parley_bus', value->>'topic' || '#' || (value->>'partition')) from jsonb_array_elements(batch);
end
$fn$;
`,
  },
  {
    // A member's heartbeat and its offset commits, each one round trip without a client-side
    // transaction. Both commit without waiting for the WAL flush (synchronous_commit off, for that
    // transaction only): a heartbeat lost when the server crashes is just a heartbeat, and an offset
    // commit lost with it makes the group read those records again — at-least-once, as promised —
    // while an idle bus no longer costs a WAL flush per group and second.
    id: "0003_group_functions",
    sql: `
create function parley_bus.assignment(p_topics text[], member_count int, me int)
returns table (topic text, partition int, desired boolean) language sql stable as $fn$
  select p.topic, p.partition, (row_number() over (order by p.topic, p.partition) - 1) % member_count = me
  from parley_bus.partitions p where p.topic = any(p_topics)
$fn$;

create function parley_bus.heartbeat(p_group text, p_member text, p_topics text[], p_session_ms int)
returns table (lease_topic text, lease_partition int, held boolean, desired boolean)
language plpgsql as $fn$
declare
  expiry timestamptz := now() + p_session_ms * interval '1 millisecond';
  member_count int;
  me int;
begin
  perform set_config('synchronous_commit', 'off', true);
  insert into parley_bus.members (group_id, member_id, expires_at) values (p_group, p_member, expiry)
    on conflict (group_id, member_id) do update set expires_at = excluded.expires_at;
  delete from parley_bus.members m where m.group_id = p_group and m.expires_at < now();
  -- The assignment every member computes alike: partitions sorted, dealt round-robin to the
  -- members sorted by id.
  select count(*), count(*) filter (where m.member_id < p_member) into member_count, me
    from parley_bus.members m where m.group_id = p_group;
  -- Renew this member's live leases, then take the desired partitions whose lease is free or
  -- expired (a partition another live member holds is taken once it releases it or expires).
  update parley_bus.leases l set expires_at = expiry
    where l.group_id = p_group and l.member_id = p_member and l.expires_at >= now();
  insert into parley_bus.leases as l (group_id, topic, partition, member_id, expires_at)
    select p_group, a.topic, a.partition, p_member, expiry from parley_bus.assignment(p_topics, member_count, me) a
    where a.desired and not exists (
      select 1 from parley_bus.leases x
      where x.group_id = p_group and x.topic = a.topic and x.partition = a.partition
        and x.member_id = p_member and x.expires_at >= now())
    on conflict (group_id, topic, partition) do update
      set member_id = excluded.member_id, expires_at = excluded.expires_at
      where l.expires_at < now() or l.member_id = excluded.member_id;
  return query
    select a.topic, a.partition, l.member_id is not null, a.desired
    from parley_bus.assignment(p_topics, member_count, me) a
    left join parley_bus.leases l
      on l.group_id = p_group and l.topic = a.topic and l.partition = a.partition
     and l.member_id = p_member and l.expires_at >= now()
    where a.desired or l.member_id is not null;
end
$fn$;

create function parley_bus.commit_offset(p_group text, p_member text, p_topic text, p_partition int, p_next bigint)
returns boolean language plpgsql as $fn$
begin
  perform set_config('synchronous_commit', 'off', true);
  -- Fenced by the lease: a member that stalled past it never overwrites its successor's progress.
  insert into parley_bus.group_offsets (group_id, topic, partition, committed)
    select p_group, p_topic, p_partition, p_next
    where exists (
      select 1 from parley_bus.leases
      where group_id = p_group and topic = p_topic and partition = p_partition
        and member_id = p_member and expires_at >= now())
    on conflict (group_id, topic, partition) do update set committed = excluded.committed;
  return found;
end
$fn$;
`,
  },
]
