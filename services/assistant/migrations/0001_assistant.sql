-- The assistant's own schema: booking settings, bookings, leads, and conversations (widget sessions
-- and per-customer channel conversations) with their messages.

CREATE TABLE assistant.booking_settings (
  org_id        text PRIMARY KEY,
  timezone      text NOT NULL,
  services      jsonb NOT NULL,
  slot_minutes  integer NOT NULL,
  capacity      integer NOT NULL,
  hours         jsonb NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now()
);

-- Dates and times are the organization's wall clock (`YYYY-MM-DD`, `HH:MM`) in its time zone.
CREATE TABLE assistant.bookings (
  id          text PRIMARY KEY,
  org_id      text NOT NULL,
  date        text NOT NULL,
  time        text NOT NULL,
  service     text NOT NULL,
  name        text NOT NULL,
  phone       text NOT NULL,
  notes       text,
  session_id  text,
  status      text NOT NULL DEFAULT 'confirmed',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bookings_slot ON assistant.bookings (org_id, date, time);

-- One lead per phone number per organization: the unique key is what makes concurrent turns safe.
CREATE TABLE assistant.leads (
  id          text PRIMARY KEY,
  org_id      text NOT NULL,
  phone       text NOT NULL,
  name        text NOT NULL DEFAULT '',
  type        text NOT NULL,
  booking     jsonb,
  source      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, phone)
);
CREATE INDEX leads_list ON assistant.leads (org_id, created_at DESC, id DESC);
CREATE INDEX leads_by_type ON assistant.leads (org_id, type, created_at DESC, id DESC);

-- A widget session (channel null) or the conversation with one customer on one channel.
CREATE TABLE assistant.conversations (
  id          text PRIMARY KEY,
  org_id      text NOT NULL,
  channel     text CHECK (channel IN ('cloud', 'bridge')),
  customer    text,
  state       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX conversations_customer ON assistant.conversations (org_id, channel, customer)
  WHERE channel IS NOT NULL;

CREATE TABLE assistant.conversation_messages (
  seq              bigserial PRIMARY KEY,
  conversation_id  text NOT NULL REFERENCES assistant.conversations (id) ON DELETE CASCADE,
  role             text NOT NULL CHECK (role IN ('visitor', 'assistant')),
  text             text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversation_messages_order ON assistant.conversation_messages (conversation_id, seq);

-- Channel messages already answered: a redelivered ChannelInbound record is a no-op.
CREATE TABLE assistant.inbound_handled (
  org_id      text NOT NULL,
  channel     text NOT NULL,
  message_id  text NOT NULL,
  handled_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, channel, message_id)
);
