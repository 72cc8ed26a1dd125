-- A version per conversation, bumped by every stored turn and reset: a turn computed from an older
-- version is stale (another turn of the same conversation committed first) and is recomputed.
ALTER TABLE assistant.conversations ADD COLUMN version bigint NOT NULL DEFAULT 0;
