-- One Glicko-2 rating per account and speed (docs/ratings.md, "Speeds"). The single rating kept
-- until now was played in the 10-minute pool, which is rapid: every account's rating, deviation,
-- volatility and rated-game count become its Rapid rating, and every game rated so far counts
-- toward Rapid, so the Rapid history continues the old one. Games now keep their increment and
-- their speed (null for games without a clock and for unrated games archived before speeds,
-- whose increment was not kept). Written to be harmless if run again.
ALTER TABLE ratings ADD COLUMN IF NOT EXISTS speed text NOT NULL DEFAULT 'rapid';
ALTER TABLE ratings ALTER COLUMN speed DROP DEFAULT;
ALTER TABLE ratings DROP CONSTRAINT IF EXISTS ratings_pkey;
ALTER TABLE ratings ADD PRIMARY KEY (user_id, speed);
DROP INDEX IF EXISTS ratings_rating;
CREATE INDEX IF NOT EXISTS ratings_speed_rating ON ratings (speed, rating DESC);

ALTER TABLE games ADD COLUMN IF NOT EXISTS increment_ms integer NOT NULL DEFAULT 0 CHECK (increment_ms >= 0);
ALTER TABLE games ADD COLUMN IF NOT EXISTS speed text;
UPDATE games SET speed = 'rapid' WHERE rated AND speed IS NULL;
