import type { AuditAction } from '../../../contracts/operator.ts';
import { sqlParams, type Queryable, type SqlParams } from '../infra/db/db.ts';

/** Who acted: a staff member's account, or the command line (`npm run user:role`), which has none. */
export type AuditActor = { id: string; username: string; role: string } | { id: null; username: 'command line'; role: 'command line' };

export const COMMAND_LINE: AuditActor = { id: null, username: 'command line', role: 'command line' };

/** A staff member acting through a call (a moderator, an operator): their account, as their session names it. */
export type StaffMember = Extract<AuditActor, { id: string }>;

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

/** The audit log's filters once read (audit/audit-log.ts `readFilters`): exact names, a half-open range of time. */
export interface AuditQuery {
  actor?: string;
  action?: AuditAction;
  target?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

/** One row of the audit log as read. */
export interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  actor_role: string;
  action: AuditAction;
  target: string | null;
  reason: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const AUDIT_COLUMNS = 'id, at, actor, actor_role, action, target, reason, before, after';

const valuesOf = (p: SqlParams, entry: AuditRecord) =>
  [
    p.add(entry.at),
    `${p.add(entry.actor.id)}::bigint`,
    p.add(entry.actor.username),
    p.add(entry.actor.role),
    p.add(entry.action),
    `${p.add(entry.target)}::text`,
    `${p.add(entry.reason ?? null)}::text`,
    `${p.add(entry.before ? JSON.stringify(entry.before) : null)}::jsonb`,
    `${p.add(entry.after ? JSON.stringify(entry.after) : null)}::jsonb`,
  ].join(', ');

/**
 * The CTE step that writes `entry` as part of a bigger statement (a settlement, a moderator's message), as
 * notifications/notify.ts `notificationSteps` does: `audited`, written only when the step `onlyIf` returned a
 * row, so an action that did not apply (a compare-and-set that lost) leaves no entry, and one that did commits
 * with its entry.
 */
export function auditStep(p: SqlParams, entry: AuditRecord, onlyIf: string): string {
  return `audited AS (
     INSERT INTO audit_log (at, actor_id, actor, actor_role, action, target, reason, before, after)
     SELECT ${valuesOf(p, entry)} WHERE EXISTS (SELECT FROM ${onlyIf})
     RETURNING id
   )`;
}

/** The WHERE clause of `query`'s filters, each through an index of migrations 031 and 034. */
function whereOf(p: SqlParams, query: AuditQuery): string {
  const conditions: string[] = [];
  if (query.actor !== undefined) conditions.push(`actor = ${p.add(query.actor)}`);
  if (query.action !== undefined) conditions.push(`action = ${p.add(query.action)}`);
  if (query.target !== undefined) conditions.push(`target = ${p.add(query.target)}`);
  if (query.from !== undefined) conditions.push(`at >= ${p.add(query.from)}`);
  if (query.to !== undefined) conditions.push(`at < ${p.add(query.to)}`);
  return conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
}

/**
 * The audit log (docs/operators.md "Audit log"): append-only, the database refuses UPDATE, DELETE and TRUNCATE
 * (migration 031). `record` takes the transaction of the action it records, so the action and its entry commit
 * or roll back together. The reads are the operator console's: a page, newest first, and the CSV export's
 * batches, keyset-paged so an export of any length holds one batch in memory.
 */
export function auditRepository(db: Queryable) {
  return {
    record: (entry: AuditRecord) => {
      const p = sqlParams();
      return db.one<{ id: string }>(
        `INSERT INTO audit_log (at, actor_id, actor, actor_role, action, target, reason, before, after)
         VALUES (${valuesOf(p, entry)}) RETURNING id`,
        p.values,
      );
    },

    /** One page, newest first, with one row more than `limit` when there is more. */
    page: (query: AuditQuery, limit: number, offset: number) => {
      const p = sqlParams();
      const where = whereOf(p, query);
      return db.query<AuditRow>(
        `SELECT ${AUDIT_COLUMNS} FROM audit_log ${where} ORDER BY at DESC, id DESC LIMIT ${p.add(limit + 1)} OFFSET ${p.add(offset)}`,
        p.values,
      );
    },

    /** The next `limit` rows after `after` (newest first; none: from the newest). */
    batch: (query: AuditQuery, after: { at: Date; id: string } | undefined, limit: number) => {
      const p = sqlParams();
      const where = whereOf(p, query);
      const past = after ? `${where ? `${where} AND` : 'WHERE'} (at, id) < (${p.add(after.at)}, ${p.add(after.id)}::bigint)` : where;
      return db.query<AuditRow>(`SELECT ${AUDIT_COLUMNS} FROM audit_log ${past} ORDER BY at DESC, id DESC LIMIT ${p.add(limit)}`, p.values);
    },
  };
}
