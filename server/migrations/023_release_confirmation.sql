-- Releasing escrow needs a second proof: the password, or the authenticator code when two-factor is on
-- (docs/rules.md "Trades", "Releasing needs a second proof"). A proof that succeeds covers the releases of
-- that session until this time (ten minutes on), so a busy seller is not asked each time and the server does
-- not hash a password per release. NULL: no proof yet, or none since the session was opened.
ALTER TABLE sessions ADD COLUMN release_confirmed_until timestamptz;
