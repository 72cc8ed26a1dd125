-- Deliveries that could not start because their webhook's share of concurrency was full (docs/design.md
-- §3.3): parked here, per webhook, so that the bus partition they came from moves on and commits.
-- A dispatcher claims a row when a place of that webhook frees (claimed_until is a lease: a claim of
-- a process that died expires and the row is claimed again), makes the attempt, and deletes it.
-- `record` is the DeliveryRecord as it travels on the bus.
create table parked_deliveries (
  delivery_id   text not null,
  attempt       integer not null,
  webhook_id    text not null,
  due_at        timestamptz not null,
  record        text not null,
  parked_seq    bigint generated always as identity,
  claimed_until timestamptz,
  primary key (delivery_id, attempt)
);

-- Claims read one webhook's rows of one class (first attempts, or retries) in the order they run:
-- later attempts first, then by due time.
create index parked_deliveries_queue on parked_deliveries (webhook_id, attempt desc, due_at, parked_seq);
