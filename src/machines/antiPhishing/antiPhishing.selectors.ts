import type { SnapshotFrom } from 'xstate';
import { passwordConfirmOf } from '../passwordConfirm/passwordConfirm.selectors.ts';
import type { antiPhishingMachine } from './antiPhishing.machine.ts';
import { antiPhishingCodeProblem } from './antiPhishing.rules.ts';

type AntiPhishingSnapshot = SnapshotFrom<typeof antiPhishingMachine>;

export type AntiPhishingView = 'loading' | 'unavailable' | 'showing' | 'setting' | 'removing';

export const selectView = (snapshot: AntiPhishingSnapshot): AntiPhishingView => {
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('unavailable')) return 'unavailable';
  if (snapshot.matches('editing') || snapshot.matches('saving')) return 'setting';
  if (snapshot.matches('confirmingClear')) return 'removing';
  return 'showing';
};
export const selectCurrentCode = (snapshot: AntiPhishingSnapshot) => snapshot.context.current;
export const selectIsBusy = (snapshot: AntiPhishingSnapshot) => snapshot.hasTag('busy');
export const selectCanSubmit = (snapshot: AntiPhishingSnapshot) => snapshot.can({ type: 'form.submit' });
/** The password confirmation of a removal, while it is asked for. */
export const selectRemoval = (snapshot: AntiPhishingSnapshot) => passwordConfirmOf(snapshot, 'confirmClear');
export const selectCanRemove = (snapshot: AntiPhishingSnapshot) => snapshot.can({ type: 'clear.start' });
/** The typed code's problem, once something is typed (an empty field is not yet wrong). */
export const selectCodeProblem = (snapshot: AntiPhishingSnapshot) =>
  snapshot.context.draft === '' ? undefined : antiPhishingCodeProblem(snapshot.context.draft);
