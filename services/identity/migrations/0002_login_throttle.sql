-- Failed logins per account (keyed by the SHA-256 of the lower-cased email, known or not, so the
-- throttle tells nothing about which emails exist), and the browsers a user has signed in from
-- (a random token in the `parley_device` cookie, its digest here), which the account's lock does
-- not apply to: see src/domain/login-throttle.ts.
create table identity.login_failures (
  account_key     text primary key,
  failures        integer not null,
  last_failure_at timestamptz not null,
  locked_until    timestamptz
);

create table identity.trusted_devices (
  token_digest text primary key,
  user_id      text not null references identity.users (id),
  failures     integer not null default 0,
  created_at   timestamptz not null default now(),
  last_used_at timestamptz not null default now()
);
create index trusted_devices_by_user on identity.trusted_devices (user_id);
