import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import type { TraderDossier } from '../../../contracts/operator.ts';
import {
  selectActionButtons,
  selectCanSaveNote,
  selectDossier,
  selectDossierView,
  selectIsRefreshing,
  selectIsSavingNote,
  selectNote,
  selectNoteError,
} from '../../machines/traderDossier/traderDossier.selectors.ts';
import { ColumnFailed, ColumnLoading } from '../chat/SplitView.tsx';
import { Button, ButtonLink } from '../primitives/Button.tsx';
import { Card } from '../primitives/Card.tsx';
import { Form } from '../primitives/Form.tsx';
import { Badge, StatusBadge } from '../primitives/StatusBadge.tsx';
import { TextAreaField } from '../primitives/TextAreaField.tsx';
import { ActionDialog } from './ActionDialog.tsx';
import { coinAmount, formatMaybe, formatMoment } from './format.ts';
import { emptyRow, longText, muted, nowrap, section, sectionTitle, stacked, table, tableCard } from './styles.ts';
import type { DossierRef } from './types.ts';

const header = css({ display: 'flex', flexDirection: 'column', gap: '2' });
const titleRow = css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' });
const title = css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold', letterSpacing: '-0.02em', overflowWrap: 'anywhere' });
const facts = css({
  display: 'grid',
  gridTemplateColumns: { base: 'auto 1fr', md: 'repeat(3, auto 1fr)' },
  columnGap: '3',
  rowGap: '1.5',
  fontSize: 'sm',
  mt: '4',
  '& dt': { color: 'fg.muted' },
  '& dd': { overflowWrap: 'anywhere' },
});
const banner = css({
  mt: '4',
  p: '4',
  borderRadius: 'lg',
  borderWidth: '1px',
  borderColor: 'danger',
  bg: 'danger.subtle',
  fontSize: 'sm',
  '& strong': { color: 'danger', display: 'block', mb: '1' },
  '& p': { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
});
const actionsRow = css({ display: 'flex', flexWrap: 'wrap', gap: '2', mt: '4' });
const notes = css({ display: 'flex', flexDirection: 'column', gap: '3' });
const note = css({ borderBottomWidth: '1px', borderColor: 'border', pb: '3', '& p': { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: '1', fontSize: 'sm' } });
const noteMeta = css({ fontSize: 'xs', color: 'fg.muted' });
const noteForm = css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '4', '& textarea': { h: 'auto!', minH: '20', py: '2' } });
const noteSubmit = css({ alignSelf: 'flex-end' });
const placeholder = css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '16', color: 'fg.muted', textAlign: 'center' });
const back = css({ mb: '4' });

/** /operator/traders/$username: one trader as the dossier's chart has them, and the staff actions. */
export function TraderDossierScreen({ actor }: { actor: DossierRef }) {
  const view = useSelector(actor, selectDossierView);
  const dossier = useSelector(actor, selectDossier);
  const refreshing = useSelector(actor, selectIsRefreshing);
  return (
    <section aria-busy={refreshing || view === 'loading'}>
      <div className={back}>
        <ButtonLink to="/operator/{-$section}/{-$username}" params={{ section: 'traders' }} variant="ghost" size="sm">
          ← All traders
        </ButtonLink>
      </div>
      {view === 'loading' ? (
        <ColumnLoading className={placeholder} label="Loading the trader" />
      ) : view === 'missing' ? (
        <p className={placeholder} role="alert">
          No trader by that name.
        </p>
      ) : view === 'failed' || !dossier ? (
        <ColumnFailed className={placeholder} text="This trader could not be loaded." onRetry={() => actor.send({ type: 'dossier.retry' })} />
      ) : (
        <Dossier actor={actor} dossier={dossier} />
      )}
    </section>
  );
}

function Table({ label, columns, empty, children, rows }: { label: string; columns: readonly ReactNode[]; empty: string; rows: number; children: ReactNode }) {
  return (
    <section className={section} aria-label={label}>
      <h2 className={sectionTitle}>{label}</h2>
      <div className={tableCard}>
        <table className={`${table} ${stacked}`}>
          <thead>
            <tr>{columns}</tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
        {rows === 0 ? <p className={emptyRow}>{empty}</p> : null}
      </div>
    </section>
  );
}

function Dossier({ actor, dossier }: { actor: DossierRef; dossier: TraderDossier }) {
  const buttons = useSelector(actor, selectActionButtons);
  return (
    <>
      <header className={header}>
        <div className={titleRow}>
          <h1 className={title}>{dossier.username}</h1>
          {dossier.suspended ? <Badge tone="danger">Suspended</Badge> : <Badge tone="success">Active</Badge>}
          {dossier.role === 'trader' ? null : <Badge tone="info">{dossier.role}</Badge>}
        </div>
      </header>
      <Card>
        <dl className={facts}>
          <dt>Email</dt>
          <dd>{dossier.email}</dd>
          <dt>Joined</dt>
          <dd>{formatMoment(dossier.joined)}</dd>
          <dt>Last seen</dt>
          <dd>{formatMaybe(dossier.last_seen, 'Never')}</dd>
          <dt>Two-factor</dt>
          <dd>{dossier.two_factor ? 'On' : 'Off'}</dd>
          <dt>Devices signed in</dt>
          <dd>{dossier.devices.length}</dd>
          <dt>Push devices</dt>
          <dd>{dossier.push_devices}</dd>
        </dl>
        {dossier.suspension ? (
          <div className={banner} role="status" data-suspension>
            <strong>
              Suspended by {dossier.suspension.by} on {formatMoment(dossier.suspension.at)}
            </strong>
            <p>{dossier.suspension.reason}</p>
          </div>
        ) : null}
        <div className={actionsRow} role="group" aria-label="Staff actions">
          {buttons.map((button) => (
            <Button
              key={button.action}
              variant={button.tone}
              disabled={!button.enabled}
              data-action={button.action}
              onClick={() => actor.send({ type: 'action.choose', action: button.action })}
            >
              {button.label}
            </Button>
          ))}
        </div>
      </Card>

      <Table
        label="Balances"
        rows={dossier.balances.length}
        empty="No balances."
        columns={[
          <th key="coin">Coin</th>,
          <th key="available" data-numeric>
            Available
          </th>,
          <th key="escrow" data-numeric>
            In escrow
          </th>,
          <th key="withdrawing" data-numeric>
            Withdrawing
          </th>,
        ]}
      >
        {dossier.balances.map((balance) => (
          <tr key={balance.ticker}>
            <td data-label="Coin">
              <strong>{balance.ticker.toUpperCase()}</strong>
            </td>
            <td data-numeric data-label="Available">
              {coinAmount(balance.available, balance.decimal_places, balance.ticker)}
            </td>
            <td data-numeric data-label="In escrow">
              {coinAmount(balance.escrow, balance.decimal_places, balance.ticker)}
            </td>
            <td data-numeric data-label="Withdrawing">
              {coinAmount(balance.withdrawing, balance.decimal_places, balance.ticker)}
            </td>
          </tr>
        ))}
      </Table>

      <Table
        label="Trades"
        rows={dossier.trades.length}
        empty="No trades yet."
        columns={['Opened', 'Role', 'Partner', 'Amount', 'Fiat', 'Status'].map((column) => (
          <th key={column} data-numeric={column === 'Amount' || column === 'Fiat' ? true : undefined}>
            {column}
          </th>
        ))}
      >
        {dossier.trades.map((trade) => (
          <tr key={trade.channel}>
            <td className={nowrap} data-label="Opened">
              {formatMoment(trade.created)}
            </td>
            <td data-label="Role">{trade.role}</td>
            <td className={nowrap} data-label="Partner">
              {trade.partner}
            </td>
            <td data-numeric data-label="Amount">{`${trade.trading_amount_crypto} ${trade.coin__ticker.toUpperCase()}`}</td>
            <td data-numeric data-label="Fiat">{`${trade.trading_amount} ${trade.currency__code}`}</td>
            <td className={nowrap} data-label="Status">
              <span>
                <StatusBadge status={trade.status} /> {trade.dispute_raised ? <Badge tone="warning">Disputed</Badge> : null}
              </span>
            </td>
          </tr>
        ))}
      </Table>

      <Table
        label="Sign-ins"
        rows={dossier.sign_ins.length}
        empty="No sign-ins."
        columns={['Signed in', 'Last used', 'Device', 'Address', 'State'].map((column) => (
          <th key={column}>{column}</th>
        ))}
      >
        {dossier.sign_ins.map((entry) => (
          <tr key={entry.id}>
            <td className={nowrap} data-label="Signed in">
              {formatMoment(entry.created)}
            </td>
            <td className={nowrap} data-label="Last used">
              {formatMoment(entry.last_used)}
            </td>
            <td data-label="Device">{entry.device || 'Unknown device'}</td>
            <td className={nowrap} data-label="Address">
              {entry.ip || '—'}
            </td>
            <td data-label="State">{entry.active ? <Badge tone="success">Signed in</Badge> : <Badge>Ended</Badge>}</td>
          </tr>
        ))}
      </Table>

      <Table
        label="Devices"
        rows={dossier.devices.length}
        empty="Not signed in anywhere."
        columns={['Device', 'Address', 'Signed in', 'Last used'].map((column) => (
          <th key={column}>{column}</th>
        ))}
      >
        {dossier.devices.map((device) => (
          <tr key={`${device.signed_in}-${device.device}`}>
            <td data-label="Device">{device.device || 'Unknown device'}</td>
            <td className={nowrap} data-label="Address">
              {device.address || '—'}
            </td>
            <td className={nowrap} data-label="Signed in">
              {formatMoment(device.signed_in)}
            </td>
            <td className={nowrap} data-label="Last used">
              {formatMoment(device.last_used)}
            </td>
          </tr>
        ))}
      </Table>

      <section className={section} aria-label="Notes">
        <h2 className={sectionTitle}>Notes</h2>
        <Card>
          {dossier.notes.length === 0 ? (
            <p className={muted}>No notes yet. Only operators read them.</p>
          ) : (
            <ol className={notes} aria-label="Notes, oldest first">
              {dossier.notes.map((entry) => (
                <li key={entry.id} className={note}>
                  <span className={noteMeta}>
                    {entry.author} · {formatMoment(entry.created)}
                  </span>
                  <p className={longText}>{entry.text}</p>
                </li>
              ))}
            </ol>
          )}
          <NoteForm actor={actor} />
        </Card>
      </section>

      <ActionDialog actor={actor} />
    </>
  );
}

function NoteForm({ actor }: { actor: DossierRef }) {
  const text = useSelector(actor, selectNote);
  const error = useSelector(actor, selectNoteError);
  const canSave = useSelector(actor, selectCanSaveNote);
  const saving = useSelector(actor, selectIsSavingNote);
  return (
    <Form className={noteForm} onSubmit={() => actor.send({ type: 'note.save' })}>
      <TextAreaField
        label="Add a note"
        name="note"
        rows={3}
        placeholder="What other operators should know about this trader."
        value={text}
        error={error}
        disabled={saving}
        onValueChange={(value) => actor.send({ type: 'note.change', value })}
      />
      <Button type="submit" className={noteSubmit} disabled={!canSave || saving} aria-busy={saving}>
        {saving ? 'Please wait...' : 'Add note'}
      </Button>
    </Form>
  );
}
