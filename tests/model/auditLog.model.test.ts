import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { AuditPage } from '../../contracts/operator.ts';
import { bindAuditLog } from '../../src/machines/auditLog/auditLog.actors.ts';
import type { AuditLogContext } from '../../src/machines/auditLog/auditLog.machine.ts';
import {
  selectCanExport,
  selectCanNext,
  selectCanPrevious,
  selectEntries,
  selectExportError,
  selectExporting,
  selectHasLoaded,
  selectIsFiltered,
  selectIsLoading,
} from '../../src/machines/auditLog/auditLog.selectors.ts';
import { Coverage, describeModel, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { auditPageOf, operatorDeps, refusal } from '../support/operator.ts';

/**
 * The audit log walked as it is: pages read (answered or failed), one filter typed then applied or cleared,
 * Previous/Next in every state, and both exports downloaded or refused (tried again, or the message dismissed).
 * The server's log: two pages unfiltered, nothing by "mia".
 */
const answer = (actor: string, page: number): AuditPage => (actor === '' ? auditPageOf(page, 2) : auditPageOf(1, 1, []));
const REFUSED = 'since must be a date (YYYY-MM-DD)';
const on = (snapshot: AnyMachineSnapshot, value: object) => snapshot.matches(value as never);

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as AuditLogContext;
  const list: ModelEvent[] = [];
  if (on(snapshot, { list: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadAudit', output: answer(context.filters.actor, context.page) },
      { type: 'xstate.error.actor.loadAudit', error: refusal(400, REFUSED) },
    );
  }
  // The exports while the list is at rest: together with the list's own steps they would only multiply the graph.
  if (on(snapshot, { list: 'idle' })) {
    if (on(snapshot, { export: 'idle' }) || on(snapshot, { export: 'failed' })) list.push({ type: 'export.audit' }, { type: 'export.fees' });
    if (on(snapshot, { export: 'failed' })) list.push({ type: 'export.dismiss' });
    if (on(snapshot, { export: 'downloading' })) {
      list.push({ type: 'xstate.done.actor.downloadExport' }, { type: 'xstate.error.actor.downloadExport', error: refusal(400, REFUSED) });
      return list;
    }
  }
  if (!on(snapshot, { export: 'idle' })) return list;
  list.push({ type: 'filter.change', name: 'actor', value: context.draft.actor === '' ? 'mia' : '' }, { type: 'filters.apply' }, { type: 'filters.clear' });
  list.push({ type: 'page.next' }, { type: 'page.previous' });
  return list;
}

const walked = bindAuditLog(operatorDeps().deps);
const model = walk(walked, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadAudit', 'downloadExport'] as const);
  const actor = createActor(walked.provide({ actors: fakes.actors as never }), { inspect: coverage?.inspect }).start();
  // The oracle: the filter as typed and as applied, the last page answered, the export on its way or refused.
  let typed = '';
  let applied = '';
  let shown: AuditPage | null = null;
  let exporting: 'audit' | 'fees' | null = null;
  let failure: string | null = null;
  await replay(actor, path, fakes, (snapshot, { event }) => {
    switch (event.type) {
      case 'filter.change':
        typed = String(event.value);
        break;
      case 'filters.apply':
        applied = typed;
        break;
      case 'filters.clear':
        typed = '';
        applied = '';
        break;
      case 'xstate.done.actor.loadAudit':
        shown = event.output as AuditPage;
        break;
      case 'export.audit':
      case 'export.fees':
        exporting = event.type === 'export.audit' ? 'audit' : 'fees';
        failure = null;
        // The export asks for the filters the rows answer, not those still being typed.
        expect(fakes.calls.at(-1)?.input, 'the export asked for').toMatchObject({ kind: exporting, filters: { actor: applied } });
        break;
      case 'xstate.done.actor.downloadExport':
      case 'export.dismiss':
        exporting = null;
        failure = null;
        break;
      case 'xstate.error.actor.downloadExport':
        exporting = null;
        failure = REFUSED;
        break;
    }
    if (['filters.apply', 'filters.clear'].includes(event.type)) {
      expect(fakes.calls.at(-1)?.input, 'the page asked for').toMatchObject({ page: 1, filters: { actor: applied } });
    }
    const s = snapshot as never;
    expect((snapshot.context as AuditLogContext).draft.actor, 'the filter bar').toBe(typed);
    expect(selectEntries(s), 'rows').toEqual(shown?.entries ?? []);
    expect(selectHasLoaded(s), 'answered').toBe(shown !== null);
    expect(selectIsFiltered(s), 'filtered').toBe(applied !== '');
    expect(selectIsLoading(s), 'busy').toBe(fakes.isRunning('loadAudit'));
    expect(selectCanNext(s), 'Next').toBe(shown?.paginator.next ?? false);
    expect(selectCanPrevious(s), 'Previous').toBe(shown?.paginator.prev ?? false);
    expect(selectExporting(s), 'Preparing…').toBe(exporting);
    expect(selectCanExport(s), 'export buttons').toBe(exporting === null);
    expect(selectExportError(s), 'export refused').toBe(failure);
  });
  actor.stop();
}

describeModel('audit log', walked, model, 20, run);
