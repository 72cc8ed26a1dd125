-- A business account belongs to one organization, as its phone numbers do: the provider's template
-- updates are routed by it (`entry[].id`), so a second organization connecting the same account
-- would receive — and have changed — the first one's templates.
create unique index channels_cloud_business_account_key on messaging.channels (business_account_id)
  where kind = 'cloud';
drop index messaging.channels_business_account;
