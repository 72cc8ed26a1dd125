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
]
