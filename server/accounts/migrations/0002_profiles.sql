-- Public profile of an account (PostgREST-style table served at /rest/v1/profiles).
CREATE TABLE profiles (
  id          uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  username    text CONSTRAINT profiles_username_key UNIQUE
                   CONSTRAINT profiles_username_check CHECK (username ~ '^[A-Za-z0-9_]{3,20}$'),
  first_name  text CHECK (char_length(first_name) <= 100),
  last_name   text CHECK (char_length(last_name) <= 100),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
