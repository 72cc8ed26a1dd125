-- Attempts already made, with the bus records they led to. A delivery record seen again after a
-- crash (its offset was not committed yet) finds its attempt here and republishes those records
-- instead of POSTing a second time. Rows are only needed until the offset is committed; a day is
-- generous.
create table attempt_log (
  delivery_id  text not null,
  attempt      integer not null,
  records      text not null,
  attempted_at timestamptz not null default now(),
  primary key (delivery_id, attempt)
);
create index attempt_log_by_time on attempt_log (attempted_at);
