-- Ending a session ends it everywhere (docs/rules.md "Sessions"): logout, "sign out everywhere else", a password
-- reset and a role change revoke sessions, and whatever the session still holds goes with it, whoever revoked it
-- (a server process, another one, or `npm run user:role` against the database).

-- The session whose Beams token bound the device (PUT …/user): the device goes when that session ends.
ALTER TABLE push_devices ADD COLUMN session_id bigint REFERENCES sessions (id) ON DELETE SET NULL;
CREATE INDEX push_devices_session ON push_devices (session_id) WHERE session_id IS NOT NULL;

-- A process whose LISTEN connection was lost asks, once back, which sessions ended meanwhile.
CREATE INDEX sessions_revoked_at ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;

-- In the transaction that ends the session: its devices are unbound and what is queued for them is dropped (an
-- unbound device is forgotten a day later unless bound again), and every process is told, at commit, through
-- NOTIFY peerex_session_ended with the session's id, to close that session's realtime sockets.
CREATE FUNCTION session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH unbound AS (
    UPDATE push_devices SET user_id = NULL, session_id = NULL WHERE session_id = NEW.id RETURNING id
  )
  DELETE FROM push_deliveries WHERE device_id IN (SELECT id FROM unbound);
  PERFORM pg_notify('peerex_session_ended', NEW.id::text);
  RETURN NULL;
END $$;

CREATE TRIGGER sessions_ended AFTER UPDATE OF revoked_at ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION session_ended();
