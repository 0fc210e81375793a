import type { AuditAction } from '../../../contracts/operator.ts';
import type { Queryable } from '../infra/db/db.ts';

/** Who acted: a staff member's account, or the command line (`npm run user:role`), which has none. */
export type AuditActor = { id: string; username: string; role: string } | { id: null; username: 'command line'; role: 'command line' };

export const COMMAND_LINE: AuditActor = { id: null, username: 'command line', role: 'command line' };

/** One staff action, as the audit log keeps it (migration 031). */
export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  /** A username, a trade's channel, a withdrawal's id; null when the action has no one object. */
  target: string | null;
  reason?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  at: Date;
}

/**
 * The audit log (docs/operators.md "Audit log"): append-only, the database refuses UPDATE, DELETE and TRUNCATE
 * (migration 031). `record` takes the transaction of the action it records, so the action and its entry commit
 * or roll back together.
 */
export function auditRepository(db: Queryable) {
  return {
    record: (entry: AuditRecord) =>
      db.one<{ id: string }>(
        `INSERT INTO audit_log (at, actor_id, actor, actor_role, action, target, reason, before, after)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          entry.at,
          entry.actor.id,
          entry.actor.username,
          entry.actor.role,
          entry.action,
          entry.target,
          entry.reason ?? null,
          entry.before ? JSON.stringify(entry.before) : null,
          entry.after ? JSON.stringify(entry.after) : null,
        ],
      ),
  };
}
