import { assign, setup } from 'xstate';
import type { Paginator } from '../../../contracts/market.ts';
import type { AuditEntry, AuditPage } from '../../../contracts/operator.ts';
import type { ExportKind } from '../../services/operator.ts';
import { loadingPage, pageGuards, pageTurns, pagedList } from '../shared/pagedList.ts';
import { keepAnswer } from '../shared/reading.ts';
import { refusalText } from '../shared/refusal.ts';
import { unboundPromise } from '../shared/unbound.ts';

/** The filter bar as typed: who acted, the action, whom, and a range of days (YYYY-MM-DD); '' is no filter. */
export type AuditFilterFields = { actor: string; action: string; target: string; since: string; until: string };
export const noAuditFilters: AuditFilterFields = { actor: '', action: '', target: '', since: '', until: '' };

export type AuditLogContext = {
  /** What the filter bar shows, applied or not yet. */
  draft: AuditFilterFields;
  /** The filters the rows (and the audit export) answer. */
  filters: AuditFilterFields;
  page: number;
  paginator: Paginator | null;
  entries: AuditEntry[];
  /** The export on its way or last refused. */
  exporting: ExportKind | null;
  /** Why the last export failed (the server's sentence). */
  exportError: string | null;
};

export type AuditLogEvent =
  | { type: 'filter.change'; name: keyof AuditFilterFields; value: string }
  | { type: 'filters.apply' }
  | { type: 'filters.clear' }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'export.audit' }
  | { type: 'export.fees' }
  | { type: 'export.dismiss' };

const exportAs = (kind: ExportKind) => ({ target: 'downloading' as const, actions: { type: 'startExport' as const, params: { kind } } });

/**
 * /operator/audit: every staff action, newest first, filtered by who, what, whom and when, in pages; and the
 * two CSV exports (this log as filtered, the fee income over the same days), downloaded with the session's token.
 */
export const auditLogMachine = setup({
  types: { context: {} as AuditLogContext, events: {} as AuditLogEvent },
  actors: {
    loadAudit: unboundPromise<AuditPage, { page: number; filters: AuditFilterFields }>('loadAudit'),
    /** Fetches the CSV and hands it to the browser to save. */
    downloadExport: unboundPromise<void, { kind: ExportKind; filters: AuditFilterFields }>('downloadExport'),
  },
  actions: {
    setDraft: assign(({ context }, params: { name: keyof AuditFilterFields; value: string }) => ({
      draft: { ...context.draft, [params.name]: params.value },
    })),
    applyFilters: assign(({ context }) => pagedList.filter({ filters: context.filters }, context.draft)),
    clearFilters: assign(() => ({ ...pagedList.cleared(noAuditFilters), draft: noAuditFilters })),
    keepEntries: assign((_, params: { page: AuditPage }) => ({ entries: params.page.entries, paginator: params.page.paginator })),
    nextPage: assign(({ context }) => pagedList.next(context)),
    previousPage: assign(({ context }) => pagedList.previous(context)),
    startExport: assign((_, params: { kind: ExportKind }) => ({ exporting: params.kind, exportError: null })),
    exportDone: assign({ exporting: null, exportError: null }),
    exportFailed: assign((_, params: { error: unknown }) => ({ exportError: refusalText(params.error) })),
  },
  guards: pageGuards,
}).createMachine({
  id: 'auditLog',
  description: 'The audit log, filtered and paged, and its CSV exports (the log, the fee income).',
  context: { draft: noAuditFilters, filters: noAuditFilters, page: 1, paginator: null, entries: [], exporting: null, exportError: null },
  type: 'parallel',
  states: {
    list: {
      description: 'The entries, newest first, as the applied filters and the page ask.',
      initial: 'loading',
      on: {
        'filter.change': { actions: { type: 'setDraft', params: ({ event }) => ({ name: event.name, value: event.value }) } },
        'filters.apply': { target: '.loading', actions: 'applyFilters', description: '"Apply": the filters as typed, from the first page.' },
        'filters.clear': { target: '.loading', actions: 'clearFilters' },
        ...pageTurns(),
      },
      states: {
        loading: loadingPage(
          'loadAudit',
          { target: 'idle', actions: keepAnswer('keepEntries', 'page') },
          {
            description: 'The page asked for; the rows shown stay meanwhile.',
            failure: 'The rows stay; the shared toast says why (a bad date, say).',
          },
        ),
        idle: { description: 'The rows, or "Nothing recorded yet" / "No entry matches these filters".' },
      },
    },
    export: {
      description: '"Export audit log (CSV)" and "Export fee income (CSV)": one download at a time.',
      initial: 'idle',
      states: {
        idle: { description: 'Both buttons enabled.', on: { 'export.audit': exportAs('audit'), 'export.fees': exportAs('fees') } },
        downloading: {
          tags: ['exporting'],
          description: '"Preparing…" on the button asked.',
          invoke: {
            id: 'downloadExport',
            src: 'downloadExport',
            input: ({ context }) => ({ kind: context.exporting!, filters: context.filters }),
            onDone: { target: 'idle', actions: 'exportDone', description: 'The browser saves the file.' },
            onError: {
              target: 'failed',
              description: 'The server’s sentence beside the buttons.',
              actions: { type: 'exportFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          description: '"The export failed: …" with the server’s sentence, and "Dismiss"; either button tries again.',
          on: {
            'export.audit': exportAs('audit'),
            'export.fees': exportAs('fees'),
            'export.dismiss': { target: 'idle', actions: 'exportDone' },
          },
        },
      },
    },
  },
});

export type AuditLogLogic = typeof auditLogMachine;
