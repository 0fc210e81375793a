import { fromPromise } from 'xstate';
import { AUDIT_ACTIONS, type AuditAction, type AuditFilters } from '../../../contracts/operator.ts';
import { createOperatorService, saveFile, type OperatorService } from '../../services/operator.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { auditLogMachine, type AuditFilterFields } from './auditLog.machine.ts';

const isAction = (value: string): value is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(value);

/** The filter bar as the call takes it: only the filters that are set, trimmed. */
export function auditFilters(fields: AuditFilterFields): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of ['actor', 'target', 'since', 'until'] as const) {
    const value = fields[name].trim();
    if (value) filters[name] = value;
  }
  if (isAction(fields.action)) filters.action = fields.action;
  return filters;
}

/** `operator`: the console's calls, made from the shared client unless a test hands its own; `save` hands a file to the browser. */
export const bindAuditLog = (deps: FlowDeps, operator: OperatorService = createOperatorService(deps.api), save = saveFile) =>
  auditLogMachine.provide({
    actors: {
      loadAudit: fromPromise(({ input }) => operator.audit({ page: input.page, filters: auditFilters(input.filters) })),
      downloadExport: fromPromise(async ({ input }) => {
        const file = await operator.download({ kind: input.kind, filters: auditFilters(input.filters) });
        save(file, input.kind === 'audit' ? 'audit-log.csv' : 'fee-income.csv');
      }),
    },
  });
