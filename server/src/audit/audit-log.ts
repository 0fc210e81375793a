import type { AuditEntry, AuditFilters, AuditPage } from '../../../contracts/operator.ts';
import type { Db } from '../infra/db/db.ts';
import { pageOf, pageWindow } from '../offers/offers.ts';
import { refuse } from '../sentences.ts';
import { auditRepository, type AuditQuery, type AuditRow } from './audit.repository.ts';

/** Entries on one page of the console's audit log. */
export const AUDIT_PAGE_SIZE = 50;
/** Rows read at a time while an export streams. */
export const EXPORT_BATCH = 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A day (`2026-11-29`, UTC) or an instant (`2026-11-29T10:00:00Z`; without a zone, UTC) of a filter: `end` reads
 * a day as its end (the next midnight, exclusive) and an instant as itself, inclusive. A date that does not
 * exist (`2026-02-30`) is refused, naming the field.
 */
export function boundOf(field: string, value: string | undefined, end: boolean): Date | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length === 10) {
    const day = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) throw refuse.invalidField(`${field} must be a date (YYYY-MM-DD)`);
    return end ? new Date(day.getTime() + DAY_MS) : day;
  }
  const instant = new Date(/(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`);
  if (Number.isNaN(instant.getTime())) throw refuse.invalidField(`${field} must be a date (YYYY-MM-DD)`);
  return end ? new Date(instant.getTime() + 1) : instant;
}

/** The contract's filters as the repository reads them: empty means any. */
export function readFilters(filters: AuditFilters): AuditQuery {
  const query: AuditQuery = {};
  if (filters.actor) query.actor = filters.actor;
  if (filters.action) query.action = filters.action;
  if (filters.target) query.target = filters.target;
  const from = boundOf('since', filters.since, false);
  const to = boundOf('until', filters.until, true);
  if (from) query.from = from;
  if (to) query.to = to;
  return query;
}

export const entryOf = (row: AuditRow): AuditEntry => ({
  id: Number(row.id),
  at: row.at.toISOString(),
  actor: row.actor,
  actor_role: row.actor_role,
  action: row.action,
  target: row.target,
  reason: row.reason,
  before: row.before,
  after: row.after,
});

/** The audit export's columns, in order. */
export const AUDIT_CSV_HEADER = ['id', 'at', 'actor', 'actor_role', 'action', 'target', 'reason', 'before', 'after'] as const;

/**
 * An export's records, EXPORT_BATCH rows at a time: each batch read after the last row of the one before (its
 * time and id, the order it is read in), until a batch comes back short.
 */
export async function* keysetBatches<Row extends { at: Date; id: string }, Cell>(
  read: (after: { at: Date; id: string } | undefined) => Promise<Row[]>,
  record: (row: Row) => Cell[],
): AsyncIterable<Cell[][]> {
  let after: { at: Date; id: string } | undefined;
  for (;;) {
    const rows = await read(after);
    yield rows.map(record);
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_BATCH) return;
    after = { at: last.at, id: last.id };
  }
}

const json = (value: Record<string, unknown> | null) => (value === null ? null : JSON.stringify(value));

/**
 * Reading the audit log (docs/operators.md "Audit log"; the operator console's POST /api/operator/audit/ and
 * GET /api/operator/audit.csv): a page of 50, newest first, and the whole filtered log as CSV records, newest
 * first, read in keyset batches so an export of any length holds one batch. Only reads: nothing here, or
 * anywhere, changes an entry (migration 031 refuses it).
 */
export function auditLogService({ db }: { db: Db }) {
  return {
    async page(filters: AuditFilters, page: number): Promise<AuditPage> {
      const { limit, offset } = pageWindow(page, AUDIT_PAGE_SIZE);
      const rows = await auditRepository(db).page(readFilters(filters), limit, offset);
      const { rows: entries, paginator } = pageOf(rows, page, AUDIT_PAGE_SIZE);
      return { entries: entries.map(entryOf), paginator };
    },

    /** The filters read at once (a bad date refuses before any byte is sent), then the records batch by batch. */
    records(filters: AuditFilters): AsyncIterable<(string | number | null)[][]> {
      const query = readFilters(filters);
      return keysetBatches(
        (after) => auditRepository(db).batch(query, after, EXPORT_BATCH),
        (row) => [row.id, row.at.toISOString(), row.actor, row.actor_role, row.action, row.target, row.reason, json(row.before), json(row.after)],
      );
    },
  };
}

export type AuditLogService = ReturnType<typeof auditLogService>;
