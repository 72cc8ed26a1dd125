-- The console's live preview (POST /api/assistant/preview) talks to the organization's own assistant
-- in conversations of its own: marked here, they stay out of the Inbox (list, reading, waiting, live
-- feed) and cannot be continued, read or reset through the public widget routes, nor the reverse.
ALTER TABLE assistant.conversations ADD COLUMN preview boolean NOT NULL DEFAULT false;
