-- "New sign-in" only for a device or an address the account has not signed in from (issue 31;
-- server/src/accounts/README.md "New sign-ins"). Every sign-in still opens a session row, so the sign-in history
-- keeps them all; these columns let a sign-in ask whether it is the account's first from its device or address.

-- SHA-256 (hex) of the random device id the browser keeps and sends with a sign-in (`device_id`), never the id
-- itself. NULL: the sign-in sent none (a script, a session from before this migration): no device to recognise.
ALTER TABLE sessions ADD COLUMN device_key text CHECK (device_key ~ '^[0-9a-f]{64}$');
-- The password step of a two-factor sign-in keeps it for the second step, as it keeps the device label.
ALTER TABLE two_factor_challenges ADD COLUMN device_key text CHECK (device_key ~ '^[0-9a-f]{64}$');

-- Each sign-in asks "has this account signed in from this device / from this address before": two lookups
-- through an index each, however long the account's history is.
CREATE INDEX sessions_by_user_device ON sessions (user_id, device_key) WHERE device_key IS NOT NULL;
CREATE INDEX sessions_by_user_address ON sessions (user_id, client_address);
