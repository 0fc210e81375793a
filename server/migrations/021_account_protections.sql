-- Account protections (issue 14; docs/rules.md "Account protections"): the sign-in history, the anti-phishing
-- code and the withdrawal allowlist. None of them is in the spec; every large exchange has them.

-- The sign-in history shows where each session came from. Sessions opened before this migration have no
-- address on record: '' (shown as unknown), never a guess.
ALTER TABLE sessions ADD COLUMN client_address text NOT NULL DEFAULT '' CHECK (char_length(client_address) <= 64);
-- The history lists a user's sessions newest first.
CREATE INDEX sessions_by_user_newest ON sessions (user_id, created_at DESC, id DESC);

ALTER TABLE users
  -- Chosen by the trader and printed in every mail the product sends them, so a mail without it is not ours.
  -- The contract's alphabet (letters, digits, space, - and _) keeps it from being markup or a forged line.
  ADD COLUMN anti_phishing_code text CHECK (anti_phishing_code ~ '^[A-Za-z0-9 _-]{4,20}$'),
  -- The withdrawal allowlist switch. While on, withdrawals go only to listed addresses whose wait is over.
  ADD COLUMN withdrawal_allowlist boolean NOT NULL DEFAULT false,
  -- Turning the list off widens where coins may go, so it is enforced until this time (the wait after "off").
  ADD COLUMN withdrawal_allowlist_enforced_until timestamptz;

CREATE TABLE withdrawal_allowlist (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  network    text NOT NULL CHECK (network IN ('bitcoin', 'ethereum', 'tron', 'litecoin')),
  address    text NOT NULL CHECK (char_length(address) BETWEEN 1 AND 128),
  label      text NOT NULL DEFAULT '' CHECK (char_length(label) <= 40),
  created_at timestamptz NOT NULL,
  -- created_at + the wait: a new address widens where coins may go, so it waits like turning the list off.
  usable_from timestamptz NOT NULL CHECK (usable_from >= created_at),
  UNIQUE (user_id, network, address)
);
