-- A campaign recipient now moves pending → claimed (in a worker's batch, no provider call yet) →
-- sending (committed just before its provider call) → sent | failed (committed as soon as the
-- provider answered). A worker's claims carry its instance's token and a lease it renews while it
-- runs, so a crashed worker's claims come back within seconds: `claimed` ones to `pending` (never
-- called: sent after all), `sending` ones to `failed` (the provider may have sent them: never twice).
alter table messaging.campaign_recipients drop constraint campaign_recipients_state_check;
alter table messaging.campaign_recipients add constraint campaign_recipients_state_check
  check (state in ('pending', 'claimed', 'sending', 'sent', 'failed'));
alter table messaging.campaign_recipients add column claim_token text;
create index campaign_recipients_claims on messaging.campaign_recipients (claimed_at)
  where state in ('claimed', 'sending');
