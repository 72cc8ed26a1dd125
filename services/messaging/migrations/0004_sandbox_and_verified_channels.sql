-- docs/contract.md §16 and §10.1. A cloud channel is either a real one, verified with the provider
-- before it is stored (verified_at), or a sandbox one, in which Parley plays the provider itself
-- (generated ids, no token). Channels stored before verification existed keep verified_at null and
-- are listed "unverified" until they are connected again.
alter table messaging.channels add column sandbox boolean not null default false;
alter table messaging.channels add column display_phone_number text;
alter table messaging.channels add column verified_at timestamptz;
update messaging.channels set verified_at = created_at where kind = 'bridge';

-- A customer message received on a sandbox channel is marked so in the API's lists (never in events).
alter table messaging.messages add column sandbox boolean not null default false;

-- What the sandbox "provider" received from Parley: its own store, as a provider's would be. Each
-- row reports sent → delivered → read through the provider ingress; next_status_at is when the next
-- report is due, so the reports survive a restart (the sandbox's worker reads them from here). The
-- client reference is Parley's own message id: a resumed send of the same message is accepted once.
create table messaging.sandbox_outbox (
  message_id         text primary key,
  org_id             text not null,
  phone_number_id    text not null,
  client_ref         text not null,
  recipient          text not null,
  type               text not null check (type in ('text', 'template')),
  text               text not null default '',
  template           jsonb,
  status             text not null check (status in ('accepted', 'sent', 'delivered', 'read')),
  next_status_at     timestamptz,
  sent_at            timestamptz not null default now(),
  unique (org_id, client_ref)
);
create index sandbox_outbox_list on messaging.sandbox_outbox (org_id, sent_at desc, message_id desc);
create index sandbox_outbox_due on messaging.sandbox_outbox (next_status_at) where next_status_at is not null;
