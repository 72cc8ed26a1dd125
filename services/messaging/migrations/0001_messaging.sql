-- The messaging service's own schema (search_path is set to it by the migration runner's caller;
-- every statement names the schema explicitly so the file reads the same either way).

-- One channel of each kind per organization. A cloud number belongs to one organization only:
-- the provider's webhook is routed by phone_number_id, so it must name exactly one tenant.
CREATE TABLE messaging.channels (
  id                    text PRIMARY KEY,
  org_id                text NOT NULL,
  kind                  text NOT NULL CHECK (kind IN ('cloud', 'bridge')),
  phone_number_id       text UNIQUE,
  business_account_id   text,
  access_token_sealed   text,
  outbound_url          text,
  inbound_token_digest  text UNIQUE,
  -- The bridge's token sealed under PARLEY_SECRET_KEY: it is also the key that signs outbound posts.
  inbound_token_sealed  text,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, kind)
);
CREATE INDEX channels_business_account ON messaging.channels (business_account_id) WHERE kind = 'cloud';

-- Every message in or out. An inbound message is unique per channel and provider id, which is what
-- makes a redelivered provider payload fire nothing twice.
CREATE TABLE messaging.messages (
  id                   text PRIMARY KEY,
  org_id               text NOT NULL,
  channel              text NOT NULL CHECK (channel IN ('cloud', 'bridge')),
  direction            text NOT NULL CHECK (direction IN ('inbound', 'outbound')),
  phone                text NOT NULL,
  type                 text NOT NULL,
  text                 text NOT NULL DEFAULT '',
  provider_message_id  text,
  status               text NOT NULL,
  error                text,
  campaign_id          text,
  -- What asked for an outbound message when it was not an API call (an assistant reply's record
  -- id): unique, so a redelivered bus record never sends twice.
  source_key           text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX messages_source_once ON messaging.messages (org_id, source_key) WHERE source_key IS NOT NULL;
CREATE UNIQUE INDEX messages_inbound_once ON messaging.messages (org_id, channel, provider_message_id)
  WHERE direction = 'inbound';
CREATE INDEX messages_outbound_provider_id ON messaging.messages (org_id, provider_message_id)
  WHERE direction = 'outbound';
CREATE INDEX messages_list ON messaging.messages (org_id, created_at DESC, id DESC);
CREATE INDEX messages_by_phone ON messaging.messages (org_id, phone, created_at DESC, id DESC);

-- One row per status the provider reported for a message: the primary key is the deduplication of
-- a redelivered status (same message id, same status).
CREATE TABLE messaging.message_statuses (
  org_id               text NOT NULL,
  provider_message_id  text NOT NULL,
  status               text NOT NULL,
  recipient            text NOT NULL,
  received_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, provider_message_id, status)
);

CREATE TABLE messaging.templates (
  id                text PRIMARY KEY,
  org_id            text NOT NULL,
  name              text NOT NULL,
  language          text NOT NULL,
  category          text NOT NULL,
  components        jsonb NOT NULL,
  status            text NOT NULL,
  quality_score     text,
  meta_template_id  text,
  reason            text NOT NULL DEFAULT '',
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, name, language)
);
CREATE INDEX templates_meta_id ON messaging.templates (meta_template_id);

CREATE TABLE messaging.campaigns (
  id                 text PRIMARY KEY,
  org_id             text NOT NULL,
  name               text NOT NULL,
  template_name      text NOT NULL,
  template_language  text NOT NULL,
  status             text NOT NULL CHECK (status IN ('running', 'completed')),
  total_recipients   integer NOT NULL,
  sent               integer NOT NULL DEFAULT 0,
  failed             integer NOT NULL DEFAULT 0,
  created_at         timestamptz NOT NULL DEFAULT now(),
  completed_at       timestamptz
);
CREATE INDEX campaigns_running ON messaging.campaigns (created_at) WHERE status = 'running';

-- A recipient moves pending → sending (claimed, committed before the provider is called) →
-- sent | failed (committed after). A row left in `sending` by a crash is never sent again.
CREATE TABLE messaging.campaign_recipients (
  campaign_id          text NOT NULL REFERENCES messaging.campaigns (id),
  seq                  integer NOT NULL,
  phone                text NOT NULL,
  state                text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
  claimed_at           timestamptz,
  provider_message_id  text,
  error                text,
  PRIMARY KEY (campaign_id, seq)
);
CREATE INDEX campaign_recipients_pending ON messaging.campaign_recipients (campaign_id, seq) WHERE state = 'pending';
CREATE INDEX campaign_recipients_sending ON messaging.campaign_recipients (campaign_id) WHERE state = 'sending';

CREATE TABLE messaging.contacts (
  id          text PRIMARY KEY,
  org_id      text NOT NULL,
  phone       text NOT NULL,
  name        text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, phone)
);
CREATE INDEX contacts_list ON messaging.contacts (org_id, created_at DESC, id DESC);

-- Media bytes live in Postgres (bytea): one backup, one transaction, tenant scoping by the same
-- org_id column as everything else; 16 MiB per object is well within what bytea handles.
CREATE TABLE messaging.media (
  id            text PRIMARY KEY,
  org_id        text NOT NULL,
  content_type  text NOT NULL,
  size          integer NOT NULL,
  sha256        text NOT NULL,
  bytes         bytea NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
