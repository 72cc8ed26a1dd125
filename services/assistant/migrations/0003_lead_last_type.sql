-- The type the latest turn that recorded a lead resolved to, beside the strongest one kept in `type`:
-- lead.updated reports the type "as re-resolved on this turn" (the seed's Events section) and fires
-- when it differs from the last turn's, while the listed type never drops below a booking.
ALTER TABLE assistant.leads ADD COLUMN last_type text;
UPDATE assistant.leads SET last_type = type;
ALTER TABLE assistant.leads ALTER COLUMN last_type SET NOT NULL;
