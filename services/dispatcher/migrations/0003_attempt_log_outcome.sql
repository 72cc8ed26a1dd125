-- The attempt log keeps each attempt's outcome (a few fields, from which its bus records are
-- rebuilt) instead of the records themselves (the whole envelope, as JSON inside JSON). Rows written
-- before this keep their records and are still read.
alter table attempt_log add column outcome text;
alter table attempt_log alter column records drop not null;
