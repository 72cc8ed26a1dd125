/**
 * The outbox of a service on Kafka: `<schema>.outbox`, where its `OutboxWriter` appends records
 * inside the caller's transaction and the relay (`relay.ts`) moves them to the bus.
 */
import { quoteIdentifier } from "@parley/db"

/** A row of `<schema>.outbox`, as handed to the relay's publish function. */
export interface OutboxRow {
  readonly id: bigint
  readonly topic: string
  readonly key: string
  readonly value: string
  readonly headers: Record<string, string>
}

export const outboxChannel = (schema: string): string => `parley_outbox_${schema}`

/**
 * The DDL of `<schema>.outbox`, run by the outbox layer (`writer.ts`) when it starts; idempotent. The
 * statement trigger NOTIFYs the relay on commit (NOTIFY is transactional).
 */
export const outboxTableSql = (schema: string): string => {
  const s = quoteIdentifier(schema)
  const channel = outboxChannel(schema)
  return `
create table if not exists ${s}.outbox (
  id bigserial primary key,
  topic text not null,
  key text not null,
  value text not null,
  headers jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create or replace function ${s}.outbox_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('${channel}', '');
  return null;
end $$;
drop trigger if exists outbox_notify on ${s}.outbox;
create trigger outbox_notify after insert on ${s}.outbox
  for each statement execute function ${s}.outbox_notify();
`
}
