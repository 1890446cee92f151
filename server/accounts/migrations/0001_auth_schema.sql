-- Accounts: users, their identities, sessions, refresh tokens and one-time tokens.
-- Secrets are never stored in clear: passwords as argon2id hashes, tokens as SHA-256 hex digests.

CREATE TABLE users (
  id                   uuid PRIMARY KEY,
  email                text UNIQUE CHECK (email IS NULL OR email = lower(email)),
  phone                text UNIQUE CHECK (phone IS NULL OR phone ~ '^[1-9][0-9]{1,14}$'),
  encrypted_password   text NOT NULL,
  email_confirmed_at   timestamptz,
  phone_confirmed_at   timestamptz,
  confirmation_sent_at timestamptz,
  recovery_sent_at     timestamptz,
  last_sign_in_at      timestamptz,
  raw_app_meta_data    jsonb NOT NULL DEFAULT '{}'::jsonb,
  raw_user_meta_data   jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  CHECK (email IS NOT NULL OR phone IS NOT NULL)
);

CREATE TABLE identities (
  id              uuid PRIMARY KEY,
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider        text NOT NULL,
  provider_id     text NOT NULL,
  identity_data   jsonb NOT NULL DEFAULT '{}'::jsonb,
  last_sign_in_at timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_id)
);
CREATE INDEX identities_user_id_idx ON identities (user_id);

CREATE TABLE sessions (
  id           uuid PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  aal          text NOT NULL DEFAULT 'aal1',
  amr_method   text NOT NULL DEFAULT 'password',
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  refreshed_at timestamptz
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

-- One family per session: every rotation adds a child of the token it replaced.
CREATE TABLE refresh_tokens (
  id          uuid PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_id  uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  parent_id   uuid REFERENCES refresh_tokens (id) ON DELETE SET NULL,
  revoked     boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_session_id_idx ON refresh_tokens (session_id);
CREATE INDEX refresh_tokens_parent_id_idx ON refresh_tokens (parent_id);

-- Email links and SMS codes; at most one live token per user and type.
CREATE TABLE one_time_tokens (
  id          uuid PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_type  text NOT NULL CHECK (token_type IN ('confirmation', 'recovery', 'magiclink', 'phone_confirmation')),
  token_hash  text NOT NULL,
  relates_to  text NOT NULL,
  expires_at  timestamptz NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, token_type)
);
CREATE INDEX one_time_tokens_hash_idx ON one_time_tokens (token_hash);
