import { Switch } from '@ark-ui/react/switch';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import { ALLOWLIST_WAIT_HOURS, NETWORK_CHOICES, NETWORK_NAMES, type AllowlistEntry } from '../../../contracts/account-protections.ts';
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
import { Card } from '../primitives/Card.tsx';
import { SelectField } from '../primitives/SelectField.tsx';
import { Badge } from '../primitives/StatusBadge.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { CurrentPasswordField, FormButtons, LoadingOrRetry, PasswordConfirmForm } from './parts.tsx';
import { securityStyles as s } from './styles.ts';
import { exactTime } from './time.tsx';

export const allowlistTexts = {
  title: 'Withdrawal allowlist',
  lead: `When on, withdrawals go only to the addresses saved here. A new address can be used ${ALLOWLIST_WAIT_HOURS} hours after you add it.`,
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

/** The withdrawal allowlist: the switch, the saved addresses (with their wait), adding and removing. */
export function WithdrawalAllowlistCard({ actor }: { actor: ActorRefFrom<typeof withdrawalAllowlistMachine> }) {
  const view = useSelector(actor, selectView);
  const busy = useSelector(actor, selectIsBusy);
  const canSubmit = useSelector(actor, selectCanSubmit);
  const canToggle = useSelector(actor, selectCanToggle);
  const canAdd = useSelector(actor, selectCanAdd);
  const canRemove = useSelector(actor, selectCanRemove);
  const labelProblem = useSelector(actor, selectLabelProblem);
  const disabling = useSelector(actor, selectDisabling);
  const { enabled, enforcedUntil, addresses, network, address, label, password, removingId } = useSelector(actor, (state) => state.context);
  const change = (name: AllowlistField) => (value: string) => actor.send({ type: 'field.change', name, value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'form.submit' });
  };
  const cancel = () => actor.send({ type: 'form.cancel' });
  const loaded = view !== 'loading' && view !== 'unavailable';
  return (
    <Card aria-labelledby="allowlist-title" role="region">
      <h2 className={s.title} id="allowlist-title">
        {allowlistTexts.title}
      </h2>
      <p className={s.muted}>{allowlistTexts.lead}</p>
      <LoadingOrRetry view={view} failure="The withdrawal allowlist could not be loaded." onRetry={() => actor.send({ type: 'status.retry' })} />
      {loaded ? (
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
      ) : null}
      {view === 'disabling' ? (
        <PasswordConfirmForm actor={disabling} lead={allowlistTexts.disableLead} submitLabel={allowlistTexts.confirmDisable} variant="destructive" />
      ) : null}
      {loaded ? (
        addresses.length === 0 ? (
          <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '4' })}>{allowlistTexts.empty}</p>
        ) : (
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
        )
      ) : null}
      {view === 'list' ? (
        <div className={css({ mt: '4' })}>
          <Button variant="outline" onClick={() => actor.send({ type: 'add.start' })} disabled={!canAdd}>
            {allowlistTexts.add}
          </Button>
        </div>
      ) : null}
      {view === 'adding' ? (
        <form className={formGrid} onSubmit={submit} noValidate aria-label="Add an address">
          <SelectField
            label="Network"
            name="network"
            options={NETWORK_CHOICES}
            value={[network]}
            onValueChange={(value) => value[0] && change('network')(value[0])}
            placeholder="Choose a network"
          />
          <TextField label="Address" name="address" value={address} onValueChange={change('address')} autoComplete="off" spellCheck={false} autoFocus />
          <TextField label="Label (optional)" name="label" value={label} onValueChange={change('label')} autoComplete="off" error={labelProblem} />
          <CurrentPasswordField value={password} onValueChange={change('password')} />
          <p className={s.muted}>This address can be used {ALLOWLIST_WAIT_HOURS} hours after you save it.</p>
          <FormButtons submitLabel={allowlistTexts.save} canSubmit={canSubmit} busy={busy} onCancel={cancel} />
        </form>
      ) : null}
    </Card>
  );
}

function AddressRow({ entry, removing, canRemove, onRemove }: { entry: AllowlistEntry; removing: boolean; canRemove: boolean; onRemove: () => void }) {
  const waiting = isWaiting(entry, Date.now());
  return (
    <li className={s.row} data-waiting={waiting}>
      <div className={s.rowMain}>
        <span className={s.rowTitle}>
          {NETWORK_NAMES[entry.network]}
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
