import type { SnapshotFrom } from 'xstate';
import type { AllowlistEntry } from '../../../contracts/account-protections.ts';
import { passwordConfirmOf } from '../passwordConfirm/passwordConfirm.selectors.ts';
import type { withdrawalAllowlistMachine } from './withdrawalAllowlist.machine.ts';
import { additionProblem } from './withdrawalAllowlist.rules.ts';

type AllowlistSnapshot = SnapshotFrom<typeof withdrawalAllowlistMachine>;

export type AllowlistView = 'loading' | 'unavailable' | 'list' | 'disabling' | 'adding';

export const selectView = (snapshot: AllowlistSnapshot): AllowlistView => {
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('unavailable')) return 'unavailable';
  if (snapshot.matches('confirmingDisable')) return 'disabling';
  if (snapshot.matches('editingAddress') || snapshot.matches('addingAddress')) return 'adding';
  return 'list';
};
/** The password confirmation of turning it off, while it is asked for. */
export const selectDisabling = (snapshot: AllowlistSnapshot) => passwordConfirmOf(snapshot, 'confirmDisable');
export const selectIsBusy = (snapshot: AllowlistSnapshot) => snapshot.hasTag('busy');
export const selectCanSubmit = (snapshot: AllowlistSnapshot) => snapshot.can({ type: 'form.submit' });
export const selectCanAdd = (snapshot: AllowlistSnapshot) => snapshot.can({ type: 'add.start' });
export const selectCanRemove = (snapshot: AllowlistSnapshot) => snapshot.can({ type: 'address.remove', id: 1 });
/** The switch takes a click when the chart takes the change it asks for: on at once, or the password form to turn it off. */
export const selectCanToggle = (snapshot: AllowlistSnapshot) =>
  snapshot.can({ type: 'allowlist.enable' }) || snapshot.can({ type: 'disable.start' });
/** The label's problem as the contract words it; the other fields only hold the button back. */
export const selectLabelProblem = (snapshot: AllowlistSnapshot) => {
  const { network, label } = snapshot.context;
  return label === '' ? undefined : additionProblem({ network, address: 'x', label, password: 'x' });
};
/** An address still in its wait (before `usable_from`), at the instant `now`. */
export const isWaiting = (entry: AllowlistEntry, now: number) => Date.parse(entry.usable_from) > now;
