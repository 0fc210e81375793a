import { z } from 'zod/mini';
import {
  auditPage,
  operatorOverview,
  reviewQueue,
  traderDossier,
  traderSearchResult,
  type AuditFilters,
} from '../../contracts/operator.ts';
import type { Api } from './api.ts';

/** What an operator may do to a trader, each with a written reason (docs/api.md "Operator console"). */
export type TraderAction = 'suspend' | 'reinstate' | 'force_password_reset' | 'end_sessions';
/** A review decision: approve, or reject with a reason. */
export type ReviewDecision = 'approve' | 'reject';
/** The two CSV exports: the audit log (its filters) and the fee income (a range of days). */
export type ExportKind = 'audit' | 'fees';

const OVERVIEW = 'operator/overview/';
const TRADERS = 'operator/traders/';
const WITHDRAWALS = 'operator/withdrawals/';
const AUDIT = 'operator/audit/';

/** A change's answer: the server's sentence, shown as it comes; any other answer is worded here. */
const changed = z.unknown();
const sentenceOf = (fallback: string) => (info: unknown) => (typeof info === 'string' && info.trim() !== '' ? info : fallback);

const doneText: Record<TraderAction, string> = {
  suspend: 'The trader is suspended.',
  reinstate: 'The trader is reinstated.',
  force_password_reset: 'The trader must choose a new password.',
  end_sessions: "The trader's sessions are ended.",
};

/** The query string of an export: only the filters that are set. */
export function exportQuery(kind: ExportKind, filters: AuditFilters): string {
  const fields = kind === 'fees' ? (['since', 'until'] as const) : (['actor', 'action', 'target', 'since', 'until'] as const);
  const query = new URLSearchParams();
  for (const field of fields) {
    const value = filters[field]?.trim();
    if (value) query.set(field, value);
  }
  const text = query.toString();
  return `operator/${kind}.csv${text ? `?${text}` : ''}`;
}

/**
 * The operator console's calls (contracts/operator.ts), operators only (403 for anyone else). It comes in the
 * console's chunks, made there from the shared API client (as src/services/accountProtections.ts is), so /login's
 * first visit carries none of it. Reads the screens show a failure of themselves are quiet; so are the changes,
 * whose refusal the dialog that asked shows in its own words.
 */
export function createOperatorService(api: Api) {
  return {
    overview: () => api.read(OVERVIEW, { type: 'overview' }, operatorOverview, { noToast: true }),
    searchTraders: (input: { query: string; page: number }) =>
      api.read(TRADERS, { type: 'search', query: input.query.trim(), page: input.page }, traderSearchResult),
    trader: (input: { username: string }) => api.read(TRADERS, { type: 'get', username: input.username }, traderDossier, { noToast: true }),
    addNote: (input: { username: string; text: string }) =>
      api.write(TRADERS, { type: 'note', username: input.username, text: input.text }, changed, { noToast: true }).then(sentenceOf('Note added.')),
    act: (input: { username: string; action: TraderAction; reason: string }) =>
      api
        .write(TRADERS, { type: input.action, username: input.username, reason: input.reason }, changed, { noToast: true })
        .then(sentenceOf(doneText[input.action])),
    reviewQueue: () => api.read(WITHDRAWALS, { type: 'queue' }, reviewQueue, { noToast: true }),
    decide: (input: { id: number; decision: ReviewDecision; reason: string }) =>
      api
        .write(WITHDRAWALS, input.decision === 'approve' ? { type: 'approve', id: input.id } : { type: 'reject', id: input.id, reason: input.reason }, changed, {
          noToast: true,
        })
        .then(sentenceOf(input.decision === 'approve' ? 'Withdrawal approved.' : 'Withdrawal rejected.')),
    audit: (input: { page: number; filters: AuditFilters }) => api.read(AUDIT, { type: 'list', page: input.page, filters: input.filters }, auditPage),
    /**
     * The CSV as a file the browser saves: a GET with the session's token, which a plain link cannot carry. A
     * refusal fails with the server's sentence (the page shows it, no toast).
     */
    download: async (input: { kind: ExportKind; filters: AuditFilters }): Promise<{ blob: Blob; name: string | null }> => {
      try {
        const response = await api.request(exportQuery(input.kind, input.filters)).headers({ Accept: 'text/csv' }).get().res();
        const name = /filename="?([^";]+)"?/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? null;
        return { blob: await response.blob(), name };
      } catch (error) {
        // A failed answer is always a refusal: judged, it throws (a network failure, status 0, as "An unknown error occurred").
        const failed = error as { status?: unknown; message?: string };
        throw api.judged(typeof failed.status === 'number' ? failed.status : 0, failed.message ?? '', { noToast: true });
      }
    },
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;

/** Hands a downloaded file to the browser to save, under the server's name or `fallback`. */
export function saveFile(file: { blob: Blob; name: string | null }, fallback: string): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name ?? fallback;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the address is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
