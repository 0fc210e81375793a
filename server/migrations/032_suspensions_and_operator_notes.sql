-- Suspension (docs/operators.md "Traders and suspension"): an operator stops an abusive trader with a written
-- reason. A suspended user cannot sign in, and no session of theirs is answered (accounts/sessions.repository.ts
-- findLive), so they cannot trade, chat or withdraw either; reinstating clears the three columns together.
ALTER TABLE users
  ADD COLUMN suspended_at     timestamptz,
  ADD COLUMN suspended_reason text CHECK (char_length(suspended_reason) BETWEEN 1 AND 1000),
  -- The operator who suspended them (an account of their own: the command line suspends nobody).
  ADD COLUMN suspended_by     bigint REFERENCES users (id),
  ADD CONSTRAINT users_suspension_whole CHECK (
    (suspended_at IS NULL AND suspended_reason IS NULL AND suspended_by IS NULL)
    OR (suspended_at IS NOT NULL AND suspended_reason IS NOT NULL AND suspended_by IS NOT NULL)
  );
-- The overview counts them; few rows, so the partial index costs nothing.
CREATE INDEX users_suspended ON users (suspended_at) WHERE suspended_at IS NOT NULL;

-- The operator's trader search (docs/api.md "Operator: traders"): part of a username or an email, newest first.
-- Usernames have their trigram index already (migration 003).
CREATE INDEX users_email_trigrams ON users USING gin (email gin_trgm_ops);
CREATE INDEX users_newest ON users (created_at DESC, id DESC);

-- Operators' notes on a trader (the trader's page): what staff want the next operator to know. Never shown to
-- the trader; kept, like the audit log, as long as the account is.
CREATE TABLE operator_notes (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  author_id  bigint NOT NULL REFERENCES users (id),
  text       text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 2000),
  created_at timestamptz NOT NULL
);
CREATE INDEX operator_notes_of_user ON operator_notes (user_id, created_at, id);
