-- The game archive: every finished game, and the Glicko-2 ratings of accounts (docs/archive.md).
-- Only the server writes these tables; /rest/v1 does not expose them.
CREATE TABLE games (
  id                  text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{8,64}$'),
  kind                text NOT NULL CHECK (kind IN ('pool', 'ai', 'imported')),
  white_account       uuid REFERENCES users (id) ON DELETE SET NULL,
  white_guest         text,
  white_name          text NOT NULL CHECK (char_length(white_name) <= 64),
  black_account       uuid REFERENCES users (id) ON DELETE SET NULL,
  black_guest         text,
  black_name          text NOT NULL CHECK (char_length(black_name) <= 64),
  winner              text NOT NULL CHECK (winner IN ('white', 'black', 'draw')),
  reason              text NOT NULL,
  rated               boolean NOT NULL,
  clock_ms            integer NOT NULL CHECK (clock_ms > 0),
  started_at          timestamptz NOT NULL,
  ended_at            timestamptz NOT NULL,
  moves               text NOT NULL,
  clocks_ms           integer[] NOT NULL,
  pgn                 text NOT NULL,
  white_rating_before double precision,
  white_rating_after  double precision,
  black_rating_before double precision,
  black_rating_after  double precision
);
CREATE INDEX games_white_account_ended ON games (white_account, ended_at DESC) WHERE white_account IS NOT NULL;
CREATE INDEX games_black_account_ended ON games (black_account, ended_at DESC) WHERE black_account IS NOT NULL;

CREATE TABLE ratings (
  user_id     uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  rating      double precision NOT NULL,
  deviation   double precision NOT NULL,
  volatility  double precision NOT NULL,
  games       integer NOT NULL DEFAULT 0,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ratings_rating ON ratings (rating DESC);
