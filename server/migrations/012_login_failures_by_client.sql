-- Sign-in failures count per account AND client address: ten from one address lock that pair only, so the
-- owner signing in from elsewhere is not locked out by somebody else's guessing. A ceiling per account
-- across all addresses (LOGIN_ACCOUNT_FAILURES_PER_HOUR) still stops guessing spread over many addresses.

-- The client address the failure came from ('' for failures recorded before this migration).
ALTER TABLE login_failures ADD COLUMN client text NOT NULL DEFAULT '';
CREATE INDEX login_failures_by_pair ON login_failures (account_key, client, failed_at);

-- A lock of one pair (client = the address) or of the whole account (client = ''). Locks taken before
-- this migration were whole-account locks, which is what '' means.
ALTER TABLE login_lockouts ADD COLUMN client text NOT NULL DEFAULT '';
ALTER TABLE login_lockouts DROP CONSTRAINT login_lockouts_pkey;
ALTER TABLE login_lockouts ADD PRIMARY KEY (account_key, client);
