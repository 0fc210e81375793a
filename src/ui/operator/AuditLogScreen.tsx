import { useSelector } from '@xstate/react';
import { css, cx } from 'styled-system/css';
import type { AuditFilterFields } from '../../machines/auditLog/auditLog.machine.ts';
import {
  actionLabels,
  actionOptions,
  describeChange,
  selectCanExport,
  selectCanNext,
  selectCanPrevious,
  selectDraft,
  selectEntries,
  selectExportError,
  selectExporting,
  selectHasLoaded,
  selectIsFiltered,
  selectIsLoading,
} from '../../machines/auditLog/auditLog.selectors.ts';
import { PageHeader } from '../pages/PageHeader.tsx';
import { Button } from '../primitives/Button.tsx';
import { callout, filterBar } from '../primitives/boxes.ts';
import { Form } from '../primitives/Form.tsx';
import { Pager } from '../primitives/Pager.tsx';
import { FilterSelectField } from '../primitives/SelectField.tsx';
import { Badge } from '../primitives/StatusBadge.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { formatMoment } from './format.ts';
import { DataTable, type Column } from '../primitives/DataTable.tsx';
import { muted } from './styles.ts';
import type { AuditLogRef } from './types.ts';

const bar = cx(filterBar, css({ gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(5, 1fr)' } }));
const barActions = css({ display: 'flex', gap: '2', gridColumn: { base: 'auto', sm: '1 / -1' }, justifyContent: 'flex-end' });
const exports = css({ display: 'flex', flexWrap: { base: 'wrap', lg: 'nowrap' }, alignItems: 'center', gap: '2', flexShrink: 0 });
const exportError = cx(
  callout({ tone: 'danger', bordered: false }),
  css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', mt: '4', p: '3', color: 'danger' }),
);
const results = css({ mt: '6' });
const columns: Column[] = [
  { label: 'When', nowrap: true },
  { label: 'Who', nowrap: true },
  { label: 'Action', nowrap: true },
  { label: 'On', nowrap: true },
  { label: 'Why', long: true },
];
const change = css({ display: 'block', fontSize: 'xs', color: 'fg.muted', mt: '1', overflowWrap: 'anywhere' });

/** /operator/audit: the audit log, filtered, paged, and its CSV exports (the log as filtered, and the fee income). */
export function AuditLogScreen({ actor }: { actor: AuditLogRef }) {
  const draft = useSelector(actor, selectDraft);
  const entries = useSelector(actor, selectEntries);
  const loading = useSelector(actor, selectIsLoading);
  const loaded = useSelector(actor, selectHasLoaded);
  const filtered = useSelector(actor, selectIsFiltered);
  const canPrevious = useSelector(actor, selectCanPrevious);
  const canNext = useSelector(actor, selectCanNext);
  const exporting = useSelector(actor, selectExporting);
  const canExport = useSelector(actor, selectCanExport);
  const failure = useSelector(actor, selectExportError);
  const set = (name: keyof AuditFilterFields) => (value: string) => actor.send({ type: 'filter.change', name, value });
  return (
    <section aria-busy={loading}>
      <PageHeader
        title="Audit log"
        subtitle="Every staff action: who, what, to whom, when and why. Nothing here can be changed or deleted."
        actions={
          <div className={exports} role="group" aria-label="Exports">
            <Button variant="outline" disabled={!canExport} aria-busy={exporting === 'audit'} onClick={() => actor.send({ type: 'export.audit' })}>
              {exporting === 'audit' ? 'Preparing…' : 'Export audit log (CSV)'}
            </Button>
            <Button variant="outline" disabled={!canExport} aria-busy={exporting === 'fees'} onClick={() => actor.send({ type: 'export.fees' })}>
              {exporting === 'fees' ? 'Preparing…' : 'Export fee income (CSV)'}
            </Button>
          </div>
        }
      />
      {failure ? (
        <div className={exportError} role="alert">
          <span>The export failed: {failure}</span>
          <Button size="sm" variant="ghost" onClick={() => actor.send({ type: 'export.dismiss' })}>
            Dismiss
          </Button>
        </div>
      ) : null}
      <Form className={bar} role="search" aria-label="Filters" onSubmit={() => actor.send({ type: 'filters.apply' })}>
        <TextField label="Who acted" name="actor" placeholder="Username" value={draft.actor} onValueChange={set('actor')} />
        <FilterSelectField label="Action" name="action" allLabel="All actions" options={actionOptions} value={draft.action} onValueChange={set('action')} />
        <TextField label="Acted on" name="target" placeholder="Username or reference" value={draft.target} onValueChange={set('target')} />
        <TextField label="From (UTC)" name="since" type="date" value={draft.since} onValueChange={set('since')} />
        <TextField label="To (UTC)" name="until" type="date" value={draft.until} onValueChange={set('until')} />
        <div className={barActions}>
          <Button variant="ghost" onClick={() => actor.send({ type: 'filters.clear' })}>
            Clear All
          </Button>
          <Button type="submit">Apply</Button>
        </div>
      </Form>
      <p className={`${muted} ${results}`}>The fee income export covers the same days as the filters (all days when none are set).</p>
      <DataTable
        className={results}
        columns={columns}
        loaded={loaded}
        empty={filtered ? 'No entry matches these filters.' : 'Nothing recorded yet.'}
        rows={entries.map((entry) => {
          const changed = describeChange(entry.before, entry.after);
          return {
            key: entry.id,
            data: { 'data-entry': entry.id },
            cells: [
              formatMoment(entry.at),
              <span key="who">
                {entry.actor} <Badge>{entry.actor_role}</Badge>
              </span>,
              actionLabels[entry.action],
              entry.target ?? '—',
              <span key="why">
                {entry.reason ?? '—'}
                {changed ? <span className={change}>{changed}</span> : null}
              </span>,
            ],
          };
        })}
      />
      <Pager canPrevious={canPrevious} canNext={canNext} actor={actor} />
    </section>
  );
}
