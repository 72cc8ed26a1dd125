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
]
