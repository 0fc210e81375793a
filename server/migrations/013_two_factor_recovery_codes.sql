-- Recovery codes: ten one-time codes made when two-factor is turned on (or renewed), each signing in once
-- in place of the authenticator, so an owner who loses the phone is not locked out for good.
CREATE TABLE two_factor_recovery_codes (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- HMAC-SHA256 (hex) keyed by APP_SECRET over the user id and the code: shown once, never stored in clear.
  code_hash  text NOT NULL,
  created_at timestamptz NOT NULL,
  -- Set when the code is spent; a code is accepted once.
  used_at    timestamptz,
  UNIQUE (user_id, code_hash)
);
