-- Webhooks of every organization. The secret is sealed (AES-256-GCM under PARLEY_SECRET_KEY): it
-- must sign, so it cannot be hashed, and the plaintext never reaches the database.
create table webhooks (
  id                   text primary key,
  org_id               text not null,
  url                  text not null,
  events               text[] not null,
  enabled              boolean not null default true,
  sealed_secret        text not null,
  version              integer not null default 1,
  created_at           timestamptz not null,
  updated_at           timestamptz not null,
  last_delivery_status text check (last_delivery_status in ('success', 'failed')),
  last_delivery_at     timestamptz,
  last_response_status integer,
  failure_count        integer not null default 0
);
create index webhooks_by_org on webhooks (org_id, created_at desc, id desc);

-- One row per delivery (an event fanned out to a webhook, or a redelivery): the envelope's parts,
-- kept so that redeliver and replay can send the same envelope again. `data` is the JSON text as
-- received, so the bytes sent again are the bytes sent before.
create table deliveries (
  delivery_id       text primary key,
  webhook_id        text not null,
  org_id            text not null,
  event_id          text not null,
  event             text not null,
  event_timestamp   text not null,
  event_at          timestamptz not null,
  data              text not null,
  reason            text not null check (reason in ('event', 'redeliver', 'replay')),
  created_at        timestamptz not null default now()
);
create index deliveries_by_webhook_event_time on deliveries (webhook_id, event_at) where reason = 'event';
create index deliveries_by_time on deliveries (created_at);

-- Every attempt, idempotent per (delivery, attempt number); kept 30 days.
create table attempts (
  delivery_id     text not null,
  attempt         integer not null,
  webhook_id      text not null,
  org_id          text not null,
  event_id        text not null,
  event           text not null,
  status          text not null check (status in ('success', 'failed')),
  response_status integer,
  error           text,
  duration_ms     integer not null,
  attempted_at    timestamptz not null,
  seq             bigint generated always as identity,
  primary key (delivery_id, attempt)
);
create index attempts_by_webhook on attempts (webhook_id, attempted_at desc, seq desc);
create index attempts_by_time on attempts (attempted_at);
