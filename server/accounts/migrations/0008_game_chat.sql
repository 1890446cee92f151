-- A game's chat (docs/archive.md): every line of both rooms, in order, as the game's log kept it
-- ({room, name, guest?, color?, text}). Kept with the record; no page or API serves it.
ALTER TABLE games ADD COLUMN chat jsonb NOT NULL DEFAULT '[]'::jsonb;
