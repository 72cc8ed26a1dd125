-- docs/contract.md §8: how national phone numbers are read (ISO 3166-1 alpha-2), the assistant's profile
-- (its knowledge and languages), and bookings found by phone when a channel customer cancels.
ALTER TABLE assistant.booking_settings ADD COLUMN country text NOT NULL DEFAULT 'US';

CREATE TABLE assistant.profiles (
  org_id           text PRIMARY KEY,
  business_name    text NOT NULL,
  languages        jsonb NOT NULL,
  greeting         text,
  about            text,
  faqs             jsonb NOT NULL,
  handoff_message  text,
  updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX bookings_by_phone ON assistant.bookings (org_id, phone, date) WHERE status = 'confirmed';
