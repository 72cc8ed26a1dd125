-- What a failing receiver answered (at most 64 KiB of it, docs/contract.md §6), shown in an attempt's
-- detail. Null when nothing was read: a 2xx body is not read, a timeout or refused connection has none.
alter table attempts add column response_body text;
