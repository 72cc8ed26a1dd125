-- Organizations, their users and dashboard sessions, and their API keys.
-- Runs with search_path set to the service's schema (see @parley/db migrate).

create table organizations (
  id          text primary key,
  name        text not null,
  features    text[] not null default '{}',
  created_at  timestamptz not null default now()
);

create table users (
  id             text primary key,
  org_id         text not null references organizations (id),
  email          text not null,
  -- scrypt$<log2 N>$<r>$<p>$<salt>$<hash>: parameters and a per-user salt travel with the hash.
  password_hash  text not null,
  role           text not null check (role in ('admin', 'member')),
  created_at     timestamptz not null default now(),
  -- Removed members are kept (their id may appear in other records) but can no longer log in.
  removed_at     timestamptz
);
-- Login names no organization, so an email identifies one active user across the whole platform.
create unique index users_email_active on users (lower(email)) where removed_at is null;
create index users_org on users (org_id, created_at desc);

create table sessions (
  id            text primary key,
  -- SHA-256 hex of the cookie token; the token itself is never stored.
  token_digest  text not null unique,
  user_id       text not null references users (id),
  org_id        text not null references organizations (id),
  created_at    timestamptz not null default now(),
  expires_at    timestamptz not null
);
create index sessions_user on sessions (user_id);
create index sessions_expiry on sessions (expires_at);

create table api_keys (
  id               text primary key,
  org_id           text not null references organizations (id),
  name             text not null,
  prefix           text not null unique,
  -- SHA-256 hex of the full key; the key itself is never stored.
  digest           text not null unique,
  scopes           text[] not null default '{}',
  allowed_origins  text[] not null default '{}',
  created_at       timestamptz not null default now(),
  last_used_at     timestamptz,
  revoked_at       timestamptz
);
create index api_keys_org on api_keys (org_id, created_at desc);
