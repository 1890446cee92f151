-- Games against the AI have no clock: the archive keeps them with clock_ms 0 (docs/archive.md).
ALTER TABLE games DROP CONSTRAINT games_clock_ms_check;
ALTER TABLE games ADD CONSTRAINT games_clock_ms_check CHECK (clock_ms >= 0);
