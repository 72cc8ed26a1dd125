-- docs/contract.md §17: every conversation (widget session or channel customer) is listed in the inbox
-- under a `cnv_…` id of its own (widget sessions keep their `ses_…` id for the widget), may be held
-- by a person, and carries people's replies beside the customer's and the assistant's messages.
ALTER TABLE assistant.conversations
  ADD COLUMN public_id text NOT NULL DEFAULT 'cnv_' || replace(gen_random_uuid()::text, '-', ''),
  -- Who holds it (a member `usr_…`, or an API key `key_…` acting as administrator) and since when;
  -- a hold silent for 24 hours (no message, see `updated_at`) no longer counts (read lazily).
  ADD COLUMN holder_id text,
  ADD COLUMN holder_email text,
  ADD COLUMN held_at timestamptz,
  -- The customer asked for a person, or the assistant offered one; cleared when a person answers.
  ADD COLUMN waiting boolean NOT NULL DEFAULT false,
  -- The customer's last message on a channel, as the provider received it (§9's service window).
  ADD COLUMN last_customer_at timestamptz,
  -- The name the channel's provider gave for the customer.
  ADD COLUMN customer_name text;

CREATE UNIQUE INDEX conversations_public_id ON assistant.conversations (public_id);
CREATE INDEX conversations_recent ON assistant.conversations (org_id, updated_at DESC, public_id DESC);

ALTER TABLE assistant.conversation_messages DROP CONSTRAINT conversation_messages_role_check;
ALTER TABLE assistant.conversation_messages
  ADD CONSTRAINT conversation_messages_role_check CHECK (role IN ('visitor', 'assistant', 'staff')),
  ADD COLUMN message_id text,
  ADD COLUMN author_id text,
  ADD COLUMN author_email text;

-- Channel conversations from before: their customer's last message as stored (close to its receipt).
UPDATE assistant.conversations c
SET last_customer_at = (
  SELECT max(m.created_at) FROM assistant.conversation_messages m
  WHERE m.conversation_id = c.id AND m.role = 'visitor'
)
WHERE c.channel IS NOT NULL;
