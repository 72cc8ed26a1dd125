-- Rotation without downtime (docs/contract.md §5): for 24 hours after a rotation the key in use before it
-- keeps signing webhook-signature beside the new one. It is sealed like the current key and set back
-- to null once its window ends (the registry's sweep, which also publishes the state without it).
alter table webhooks
  add column previous_sealed_secret     text,
  add column previous_secret_expires_at timestamptz,
  add constraint webhooks_previous_secret_whole
    check ((previous_sealed_secret is null) = (previous_secret_expires_at is null));
create index webhooks_previous_secret_expiry on webhooks (previous_secret_expires_at)
  where previous_secret_expires_at is not null;

-- Test deliveries (POST /api/org/webhooks/:id/test): their own reason, and a flag that their
-- redeliveries and replays keep, so every attempt of them carries X-Service-Test: true.
alter table deliveries
  drop constraint deliveries_reason_check,
  add constraint deliveries_reason_check check (reason in ('event', 'test', 'redeliver', 'replay')),
  add column test boolean not null default false;
drop index deliveries_by_webhook_event_time;
create index deliveries_by_webhook_event_time on deliveries (webhook_id, event_at) where reason in ('event', 'test');
