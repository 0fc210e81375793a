import type { SnapshotFrom } from 'xstate';
import { codeEntryOf } from '../codeEntry/codeEntry.selectors.ts';
import type { twoFactorMachine } from './twoFactor.machine.ts';

type TwoFactorSnapshot = SnapshotFrom<typeof twoFactorMachine>;

export type TwoFactorView = 'loading' | 'unavailable' | 'off' | 'enrolling' | 'recoveryCodes' | 'on' | 'disabling' | 'renewing';

/** Which panel the security page shows. */
export const selectView = (snapshot: TwoFactorSnapshot): TwoFactorView => {
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('unavailable')) return 'unavailable';
  if (snapshot.matches('confirmingSetup') || snapshot.matches('enabling')) return 'enrolling';
  if (snapshot.matches('showingRecoveryCodes')) return 'recoveryCodes';
  if (snapshot.matches('enabled')) return 'on';
  if (snapshot.matches('confirmingDisable') || snapshot.matches('disabling')) return 'disabling';
  if (snapshot.matches('confirmingRenewal') || snapshot.matches('renewingRecoveryCodes')) return 'renewing';
  return 'off';
};
/** Whether two-factor is currently on for the account (the badge). */
export const selectIsEnabled = (snapshot: TwoFactorSnapshot) => {
  const view = selectView(snapshot);
  return view === 'on' || view === 'disabling' || view === 'renewing' || view === 'recoveryCodes';
};
export const selectIsBusy = (snapshot: TwoFactorSnapshot) => snapshot.hasTag('busy');
/**
 * The form's button: the chart takes the submit (a password is there, and for turning off or renewing, a
 * whole code). Enrolment also needs its code entry complete (selectIsComplete of the child).
 */
export const selectCanSubmitCode = (snapshot: TwoFactorSnapshot) => snapshot.can({ type: 'form.submit' });
/** The code entry of the enrolment form, while it is there. */
export const selectCodeEntry = (snapshot: TwoFactorSnapshot) => codeEntryOf(snapshot);
