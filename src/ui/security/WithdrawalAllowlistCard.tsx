import { Switch } from '@ark-ui/react/switch';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import { ALLOWLIST_WAIT_HOURS, networkChoices, networkName, type AllowlistEntry } from '../../../contracts/account-protections.ts';
import type { AllowlistField, withdrawalAllowlistMachine } from '../../machines/withdrawalAllowlist/withdrawalAllowlist.machine.ts';
import {
  isWaiting,
  selectCanAdd,
  selectCanRemove,
  selectCanSubmit,
  selectCanToggle,
  selectDisabling,
  selectIsBusy,
  selectLabelProblem,
  selectView,
} from '../../machines/withdrawalAllowlist/withdrawalAllowlist.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { SingleSelectField } from '../primitives/SelectField.tsx';
import { Badge } from '../primitives/StatusBadge.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { CurrentPasswordField, FormButtons, PasswordConfirmForm, ProtectionCard } from './parts.tsx';
import { securityStyles as s } from './styles.ts';
import { exactTime } from './time.tsx';

export const allowlistTexts = {
  title: 'Withdrawal allowlist',
  lead: `When on, withdrawals go only to the addresses saved here. A new address can be used ${ALLOWLIST_WAIT_HOURS} hours after you add it.`,
  failure: 'The withdrawal allowlist could not be loaded.',
  switchLabel: 'Only allow withdrawals to saved addresses',
  disableLead: `Enter your password to turn the allowlist off. It stays enforced for ${ALLOWLIST_WAIT_HOURS} hours more.`,
  confirmDisable: 'Turn off',
  empty: 'No saved addresses yet.',
  add: 'Add address',
  save: 'Save address',
  remove: 'Remove',
} as const;


const switchRoot = css({ display: 'inline-flex', alignItems: 'center', gap: '3', mt: '4', cursor: 'pointer', _disabled: { cursor: 'default', opacity: 0.6 } });
const switchControl = css({
  display: 'inline-flex',
  alignItems: 'center',
  flexShrink: 0,
  w: '10',
  h: '6',
  p: '0.5',
  borderRadius: 'full',
  bg: 'bg.muted',
  borderWidth: '1px',
  borderColor: 'border',
  transition: 'background 0.15s',
  '&[data-state=checked]': { bg: 'accent', borderColor: 'accent' },
});
const switchThumb = css({
  w: '4.5',
  h: '4.5',
  borderRadius: 'full',
  bg: 'white',
  boxShadow: 'sm',
  transition: 'transform 0.15s',
  '&[data-state=checked]': { transform: 'translateX(1rem)' },
});
const formGrid = css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '4', maxW: 'md' });

type AllowlistActor = ActorRefFrom<typeof withdrawalAllowlistMachine>;

/** The withdrawal allowlist: the switch, the saved addresses (with their wait), adding and removing. */
export function WithdrawalAllowlistCard({ actor }: { actor: AllowlistActor }) {
  const view = useSelector(actor, selectView);
  const canAdd = useSelector(actor, selectCanAdd);
  const disabling = useSelector(actor, selectDisabling);
  const loaded = view !== 'loading' && view !== 'unavailable';
  return (
    <ProtectionCard id="allowlist-title" texts={allowlistTexts} view={view} onRetry={() => actor.send({ type: 'status.retry' })}>
      {loaded ? <AllowlistSwitch actor={actor} /> : null}
      {view === 'disabling' ? (
        <PasswordConfirmForm actor={disabling} lead={allowlistTexts.disableLead} submitLabel={allowlistTexts.confirmDisable} variant="destructive" />
      ) : null}
      {loaded ? <SavedAddresses actor={actor} /> : null}
      {view === 'list' ? (
        <div className={css({ mt: '4' })}>
          <Button variant="outline" onClick={() => actor.send({ type: 'add.start' })} disabled={!canAdd}>
            {allowlistTexts.add}
          </Button>
        </div>
      ) : null}
      {view === 'adding' ? <AddAddressForm actor={actor} /> : null}
    </ProtectionCard>
  );
}

/** On or off; turned off, it stays enforced for a while, and says until when. */
function AllowlistSwitch({ actor }: { actor: AllowlistActor }) {
  const canToggle = useSelector(actor, selectCanToggle);
  const { enabled, enforcedUntil } = useSelector(actor, (state) => state.context);
  return (
    <>
      <Switch.Root
        className={switchRoot}
        checked={enabled}
        disabled={!canToggle}
        onCheckedChange={(details) => actor.send({ type: details.checked ? 'allowlist.enable' : 'disable.start' })}
      >
        <Switch.Control className={switchControl}>
          <Switch.Thumb className={switchThumb} />
        </Switch.Control>
        <Switch.Label className={css({ fontSize: 'sm', fontWeight: 'medium' })}>{allowlistTexts.switchLabel}</Switch.Label>
        <Switch.HiddenInput />
      </Switch.Root>
      {!enabled && enforcedUntil ? (
        <p className={s.notice} data-testid="allowlist-enforced-until">
          Turned off: still enforced until <strong>{exactTime(enforcedUntil)}</strong>.
        </p>
      ) : null}
    </>
  );
}

function SavedAddresses({ actor }: { actor: AllowlistActor }) {
  const canRemove = useSelector(actor, selectCanRemove);
  const { addresses, removingId } = useSelector(actor, (state) => state.context);
  if (addresses.length === 0) return <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '4' })}>{allowlistTexts.empty}</p>;
  return (
    <ul className={s.list} aria-label="Saved addresses">
      {addresses.map((entry) => (
        <AddressRow
          key={entry.id}
          entry={entry}
          removing={removingId === entry.id}
          canRemove={canRemove}
          onRemove={() => actor.send({ type: 'address.remove', id: entry.id })}
        />
      ))}
    </ul>
  );
}

/** A new address: its network, the address, an optional label, and the password that confirms it. */
function AddAddressForm({ actor }: { actor: AllowlistActor }) {
  const busy = useSelector(actor, selectIsBusy);
  const canSubmit = useSelector(actor, selectCanSubmit);
  const labelProblem = useSelector(actor, selectLabelProblem);
  const { network, networks, address, label, password } = useSelector(actor, (state) => state.context);
  const change = (name: AllowlistField) => (value: string) => actor.send({ type: 'field.change', name, value });
  return (
    <Form className={formGrid} onSubmit={() => actor.send({ type: 'form.submit' })} aria-label="Add an address">
      <SingleSelectField
        label="Network"
        name="network"
        options={networkChoices(networks)}
        value={network}
        onValueChange={(value) => value && change('network')(value)}
        placeholder="Choose a network"
      />
      <TextField label="Address" name="address" value={address} onValueChange={change('address')} autoComplete="off" spellCheck={false} autoFocus />
      <TextField label="Label (optional)" name="label" value={label} onValueChange={change('label')} autoComplete="off" error={labelProblem} />
      <CurrentPasswordField value={password} onValueChange={change('password')} />
      <p className={s.muted}>This address can be used {ALLOWLIST_WAIT_HOURS} hours after you save it.</p>
      <FormButtons submitLabel={allowlistTexts.save} canSubmit={canSubmit} busy={busy} onCancel={() => actor.send({ type: 'form.cancel' })} />
    </Form>
  );
}

function AddressRow({ entry, removing, canRemove, onRemove }: { entry: AllowlistEntry; removing: boolean; canRemove: boolean; onRemove: () => void }) {
  const waiting = isWaiting(entry, Date.now());
  return (
    <li className={s.row} data-waiting={waiting}>
      <div className={s.rowMain}>
        <span className={s.rowTitle}>
          {networkName(entry.network)}
          {entry.label ? ` · ${entry.label}` : ''}
        </span>
        <span className={s.mono}>{entry.address}</span>
        <span className={s.badges}>
          {waiting ? <Badge tone="warning">usable from {exactTime(entry.usable_from)}</Badge> : <Badge tone="success">Usable</Badge>}
        </span>
      </div>
      <Button variant="ghost" size="sm" onClick={onRemove} disabled={!canRemove} aria-label={`Remove ${entry.address}`}>
        {removing ? 'Removing...' : allowlistTexts.remove}
      </Button>
    </li>
  );
}
