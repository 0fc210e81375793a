-- When the owner ends other sessions ("Sign out everywhere else") or an operator ends every session, the devices and
-- addresses those sessions came from stop counting as seen: the owner has said a session was not theirs, so a
-- thief's next sign-in from the same browser and address is announced ("New sign-in") like a first one
-- (server/src/accounts/README.md "New sign-ins"). NULL: never.
ALTER TABLE users ADD COLUMN sign_ins_disowned_at timestamptz;
