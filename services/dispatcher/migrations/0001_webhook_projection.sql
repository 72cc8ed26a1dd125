-- The dispatcher's own view of webhooks, built from parley.registry.webhooks.v1. It never reads the
-- registry's schema. `version` orders changes: an older record never overwrites a newer one.
create table webhooks (
  webhook_id    text primary key,
  org_id        text not null,
  url           text not null,
  events        text[] not null,
  enabled       boolean not null,
  sealed_secret text not null,
  deleted       boolean not null,
  version       integer not null,
  changed_at    timestamptz not null
);

create index webhooks_active_by_org on webhooks (org_id) where enabled and not deleted;
