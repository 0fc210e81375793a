import { useSelector } from '@xstate/react';
import { css, cx } from 'styled-system/css';
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
import { callout, factList } from '../primitives/boxes.ts';
import { Card } from '../primitives/Card.tsx';
import { Form } from '../primitives/Form.tsx';
import { Badge, StatusBadge } from '../primitives/StatusBadge.tsx';
import { TextAreaField } from '../primitives/TextAreaField.tsx';
import { ActionDialog } from './ActionDialog.tsx';
import { coinAmount, formatMaybe, formatMoment } from './format.ts';
import { DataTable, longText, type Column, type Row } from '../primitives/DataTable.tsx';
import { muted, placeholder, section, sectionTitle } from './styles.ts';
import type { DossierRef } from './types.ts';

const header = css({ display: 'flex', flexDirection: 'column', gap: '2' });
const titleRow = css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' });
const title = css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold', letterSpacing: '-0.02em', overflowWrap: 'anywhere' });
const facts = cx(
  factList,
  css({ gridTemplateColumns: { base: 'auto 1fr', md: 'repeat(3, auto 1fr)' }, rowGap: '1.5', mt: '4', '& dd': { overflowWrap: 'anywhere' } }),
);
const banner = cx(
  callout({ tone: 'danger' }),
  css({ mt: '4', p: '4', '& strong': { color: 'danger', display: 'block', mb: '1' }, '& p': { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } }),
);
const actionsRow = css({ display: 'flex', flexWrap: 'wrap', gap: '2', mt: '4' });
const notes = css({ display: 'flex', flexDirection: 'column', gap: '3' });
const note = css({ borderBottomWidth: '1px', borderColor: 'border', pb: '3', '& p': { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: '1', fontSize: 'sm' } });
const noteMeta = css({ fontSize: 'xs', color: 'fg.muted' });
const noteForm = css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '4', '& textarea': { h: 'auto!', minH: '20', py: '2' } });
const noteSubmit = css({ alignSelf: 'flex-end' });
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

/** A titled table of the trader's page: its heading names the section, and its sentence shows when it has no rows. */
function DossierSection({ label, ...table }: { label: string; columns: readonly Column[]; rows: readonly Row[]; empty: string }) {
  return (
    <section className={section} aria-label={label}>
      <h2 className={sectionTitle}>{label}</h2>
      <DataTable {...table} />
    </section>
  );
}

const balanceColumns: Column[] = [{ label: 'Coin' }, ...['Available', 'In escrow', 'Withdrawing'].map((label) => ({ label, numeric: true }))];
const tradeColumns: Column[] = [
  { label: 'Opened', nowrap: true },
  { label: 'Role' },
  { label: 'Partner', nowrap: true },
  { label: 'Amount', numeric: true },
  { label: 'Fiat', numeric: true },
  { label: 'Status', nowrap: true },
];
const signInColumns: Column[] = [
  { label: 'Signed in', nowrap: true },
  { label: 'Last used', nowrap: true },
  { label: 'Device' },
  { label: 'Address', nowrap: true },
  { label: 'State' },
];
const deviceColumns: Column[] = [{ label: 'Device' }, { label: 'Address', nowrap: true }, { label: 'Signed in', nowrap: true }, { label: 'Last used', nowrap: true }];

/** One entry of a list the dossier carries (`Of<'trades'>`, a trade). */
type Of<Key extends keyof TraderDossier> = TraderDossier[Key] extends readonly (infer Item)[] ? Item : never;

const balanceRow = (balance: Of<'balances'>): Row => ({
  key: balance.ticker,
  cells: [
    <strong key="coin">{balance.ticker.toUpperCase()}</strong>,
    ...[balance.available, balance.escrow, balance.withdrawing].map((amount) => coinAmount(amount, balance.decimal_places, balance.ticker)),
  ],
});
const tradeRow = (trade: Of<'trades'>): Row => ({
  key: trade.channel,
  cells: [
    formatMoment(trade.created),
    trade.role,
    trade.partner,
    `${trade.trading_amount_crypto} ${trade.coin__ticker.toUpperCase()}`,
    `${trade.trading_amount} ${trade.currency__code}`,
    <span key="status">
      <StatusBadge status={trade.status} /> {trade.dispute_raised ? <Badge tone="warning">Disputed</Badge> : null}
    </span>,
  ],
});
const signInRow = (entry: Of<'sign_ins'>): Row => ({
  key: entry.id,
  cells: [
    formatMoment(entry.created),
    formatMoment(entry.last_used),
    entry.device || 'Unknown device',
    entry.ip || '—',
    entry.active ? <Badge tone="success">Signed in</Badge> : <Badge>Ended</Badge>,
  ],
});
const deviceRow = (device: Of<'devices'>): Row => ({
  key: `${device.signed_in}-${device.device}`,
  cells: [device.device || 'Unknown device', device.address || '—', formatMoment(device.signed_in), formatMoment(device.last_used)],
});

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

      <DossierSection label="Balances" columns={balanceColumns} empty="No balances." rows={dossier.balances.map(balanceRow)} />
      <DossierSection label="Trades" columns={tradeColumns} empty="No trades yet." rows={dossier.trades.map(tradeRow)} />
      <DossierSection label="Sign-ins" columns={signInColumns} empty="No sign-ins." rows={dossier.sign_ins.map(signInRow)} />
      <DossierSection label="Devices" columns={deviceColumns} empty="Not signed in anywhere." rows={dossier.devices.map(deviceRow)} />

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
