-- docs/contract.md §9, "Sending to customers as the messaging network requires".

-- Each campaign recipient's template variables ({{1}}…{{n}}, in order), and its throughput retries:
-- a provider throughput refusal (130429, 131056, HTTP 429) puts the recipient back to `pending`
-- until `retry_at` — it was certainly not sent, so it is sent after all, by whichever worker claims
-- it — and is never counted failed.
alter table messaging.campaign_recipients add column variables jsonb;
alter table messaging.campaign_recipients add column retry_at timestamptz;
alter table messaging.campaign_recipients add column throttled integer not null default 0;
-- "Anything left?" of a campaign, one probe on one partial index: recipients not yet settled, in
-- every state a worker may hold them in (a claimed one is as unsettled as a pending one).
create index campaign_recipients_open on messaging.campaign_recipients (campaign_id)
  where state in ('pending', 'claimed', 'sending');
drop index messaging.campaign_recipients_sending;
-- Per-recipient results, filtered by status, in campaign order.
create index campaign_recipients_by_state on messaging.campaign_recipients (campaign_id, state, seq);
-- GET /api/campaigns, newest first.
create index campaigns_list on messaging.campaigns (org_id, created_at desc, id desc);

-- Customers who asked to receive no more (a stop word, or an import later): never in a new
-- campaign, and failed "opted_out" in a running one.
create table messaging.opt_outs (
  org_id        text not null,
  phone         text not null,
  source        text not null,
  opted_out_at  timestamptz not null default now(),
  primary key (org_id, phone)
);
create index opt_outs_list on messaging.opt_outs (org_id, opted_out_at desc, phone desc);

-- The pace of each sending number, shared by every instance: a worker reserves the next block of
-- send slots by moving `next_at` forward, so N instances together send at the set rate, not N times it.
create table messaging.send_pace (
  phone_number_id  text primary key,
  next_at          timestamptz not null
);

-- The assistant's booking settings, as far as messaging needs them (the country phone numbers are
-- read with), projected from `parley.assistant.settings.v1`; an organization with no row is `US`.
create table messaging.org_settings (
  org_id      text primary key,
  country     text not null,
  changed_at  timestamptz not null
);
