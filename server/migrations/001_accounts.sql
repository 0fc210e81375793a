-- Accounts, sessions and the short-lived secrets around them (server-rules.md "Accounts").
-- Times are written by the application's clock (passed as parameters) so that expiry rules are testable.

CREATE TABLE users (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username            text NOT NULL CHECK (username ~ '^[A-Za-z0-9_]{3,30}$'),
  email               text NOT NULL CHECK (email = lower(btrim(email)) AND length(email) BETWEEN 3 AND 254),
  password_hash       text NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
  -- Encrypted with a key derived from APP_SECRET. Present exactly while two-factor is on.
  totp_secret         text,
  -- Encrypted; set by two_factor "setup", promoted to totp_secret by "enable".
  totp_pending_secret text,
  -- The last accepted TOTP time step: a code is accepted once, and never an older one after it.
  totp_last_step      bigint,
  created_at          timestamptz NOT NULL
);
-- Usernames are unique ignoring case; emails are stored lower-cased, so a plain unique index suffices.
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (email);

CREATE TABLE sessions (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id              bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- SHA-256 (hex) of the bearer token and of the websocket token: a copy of this table signs nobody in.
  token_hash           text NOT NULL UNIQUE,
  websocket_token_hash text NOT NULL UNIQUE,
  device               text NOT NULL DEFAULT '',
  created_at           timestamptz NOT NULL,
  last_used_at         timestamptz NOT NULL,
  revoked_at           timestamptz
);
CREATE INDEX sessions_live_by_user ON sessions (user_id) WHERE revoked_at IS NULL;

-- The interim token between a correct password and the authenticator code. It is not a session:
-- it lives in its own table so that no product call can ever accept it.
CREATE TABLE two_factor_challenges (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash      text NOT NULL UNIQUE,
  device          text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  -- Set when the challenge ends: used, out of tries, or superseded by a password reset.
  closed_at       timestamptz
);
CREATE INDEX two_factor_challenges_by_user ON two_factor_challenges (user_id);

-- One live code per email and purpose: the primary key makes a new request replace the old code.
CREATE TABLE email_codes (
  email           text NOT NULL,
  purpose         text NOT NULL CHECK (purpose IN ('signup', 'reset')),
  -- HMAC-SHA256 (hex) keyed by APP_SECRET over purpose, email and code.
  code_hash       text NOT NULL,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  PRIMARY KEY (email, purpose)
);

-- Every code request, whether or not the address has an account, for the once-a-minute and
-- ten-an-hour limits (per address and purpose). Rows older than an hour are pruned as new ones arrive.
CREATE TABLE email_code_requests (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email        text NOT NULL,
  purpose      text NOT NULL CHECK (purpose IN ('signup', 'reset')),
  requested_at timestamptz NOT NULL
);
CREATE INDEX email_code_requests_by_email ON email_code_requests (email, purpose, requested_at);

-- An address proven by a signup code; register accepts it for a limited time and then consumes it.
CREATE TABLE email_verifications (
  email       text PRIMARY KEY,
  verified_at timestamptz NOT NULL
);

-- Failed sign-ins per account key: "user:<id>" for an account, "name:<what was typed>" for a name
-- that matches none, so an unknown name locks exactly like a known one and the lockout enumerates nothing.
CREATE TABLE login_failures (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_key text NOT NULL,
  failed_at   timestamptz NOT NULL
);
CREATE INDEX login_failures_by_key ON login_failures (account_key, failed_at);

CREATE TABLE login_lockouts (
  account_key  text PRIMARY KEY,
  locked_until timestamptz NOT NULL
);
