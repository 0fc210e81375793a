import type { SnapshotFrom } from 'xstate';
import { AUDIT_ACTIONS, type AuditAction } from '../../../contracts/operator.ts';
import type { auditLogMachine } from './auditLog.machine.ts';

type AuditSnapshot = SnapshotFrom<typeof auditLogMachine>;

/** Each recorded action as the log words it. */
export const actionLabels: Record<AuditAction, string> = {
  role_changed: 'Role changed',
  trader_suspended: 'Trader suspended',
  trader_reinstated: 'Trader reinstated',
  password_reset_forced: 'Password reset forced',
  sessions_ended: 'Sessions ended',
  note_added: 'Note added',
  withdrawal_approved: 'Withdrawal approved',
  withdrawal_rejected: 'Withdrawal rejected',
  dispute_message: 'Dispute message',
  dispute_resolved: 'Dispute resolved',
};
/** The action filter's choices, in the contract's order. */
export const actionOptions = AUDIT_ACTIONS.map((action) => ({ value: action, label: actionLabels[action] }));

export const selectDraft = (snapshot: AuditSnapshot) => snapshot.context.draft;
export const selectEntries = (snapshot: AuditSnapshot) => snapshot.context.entries;
export const selectIsLoading = (snapshot: AuditSnapshot) => snapshot.hasTag('busy');
/** Whether an answer came: before it, the empty log's sentence does not show. */
export const selectHasLoaded = (snapshot: AuditSnapshot) => snapshot.context.paginator !== null;
/** Some filter is applied: the empty log says "No entry matches these filters". */
export const selectIsFiltered = (snapshot: AuditSnapshot) => Object.values(snapshot.context.filters).some((value) => value.trim() !== '');
export const selectCanNext = (snapshot: AuditSnapshot) => snapshot.can({ type: 'page.next' });
export const selectCanPrevious = (snapshot: AuditSnapshot) => snapshot.can({ type: 'page.previous' });
/** Which export is on its way ("Preparing…" on its button), or null. */
export const selectExporting = (snapshot: AuditSnapshot) => (snapshot.hasTag('exporting') ? snapshot.context.exporting : null);
export const selectCanExport = (snapshot: AuditSnapshot) => snapshot.can({ type: 'export.audit' });
/** Why the last export failed, until dismissed or tried again. */
export const selectExportError = (snapshot: AuditSnapshot) => snapshot.context.exportError;

/** A before/after object in one line: `role: trader → operator`, keys in order. */
export function describeChange(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  const text = (value: unknown) => (value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));
  return keys.map((key) => `${key}: ${text(before?.[key])} → ${text(after?.[key])}`).join('; ');
}
