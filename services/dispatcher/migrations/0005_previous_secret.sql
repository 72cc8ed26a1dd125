-- The key a webhook used before its latest rotation, sealed, and until when it keeps signing
-- webhook-signature beside the current one (docs/contract.md §5: 24 hours). Null outside that window.
alter table webhooks
  add column previous_sealed_secret     text,
  add column previous_secret_expires_at timestamptz;
