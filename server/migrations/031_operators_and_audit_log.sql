-- Operators (docs/operators.md): a third role, granted and taken back only from the command line like the
-- moderator's (`npm run user:role -- <username> operator|trader`). An operator runs the platform; they hold
-- nothing and trade nothing.
ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('trader', 'moderator', 'operator'));

-- The audit log (docs/operators.md "Audit log"): every operator's and moderator's action, and every role change,
-- who did what to whom, when, why, and the before and after. Append-only: no call changes or deletes a row, and
-- the database refuses it whoever asks (the trigger below), so a bug or a stolen staff session cannot rewrite it.
CREATE TABLE audit_log (
  id          bigserial PRIMARY KEY,
  at          timestamptz NOT NULL,
  -- Null for the command line (`npm run user:role`), whose actor is named "command line".
  actor_id    bigint REFERENCES users (id),
  actor       text NOT NULL,
  actor_role  text NOT NULL,
  action      text NOT NULL,
  -- Who or what was acted on: a username, a trade's channel, a withdrawal's id.
  target      text,
  reason      text,
  before      jsonb,
  after       jsonb
);
CREATE INDEX audit_log_newest ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_by_actor ON audit_log (actor, at DESC);
CREATE INDEX audit_log_by_target ON audit_log (target, at DESC);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
