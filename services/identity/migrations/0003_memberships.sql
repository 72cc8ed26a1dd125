-- A person may belong to several organizations (issue #22): a `users` row is one membership
-- (its id, organization and role), and the rows of one person — one email — share the person's
-- password (identity keeps their hashes equal; see src/repositories/users.ts). An email is unique
-- among the active members of one organization, no longer across the platform, so adding someone
-- who already has an account elsewhere tells the adding organization nothing about them.
drop index users_email_active;
create unique index users_org_email_active on users (org_id, lower(email)) where removed_at is null;
-- Login and joining look a person up by email across organizations.
create index users_email on users (lower(email), created_at) where removed_at is null;
