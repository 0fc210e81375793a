import type { SnapshotFrom } from 'xstate';
import { codeEntryOf } from '../codeEntry/codeEntry.selectors.ts';
import { newPasswordErrors, type NewPasswordErrors } from '../shared/validation.ts';
import type { passwordResetMachine } from './passwordReset.machine.ts';

type ResetSnapshot = SnapshotFrom<typeof passwordResetMachine>;

export const selectStep = (snapshot: ResetSnapshot) =>
  snapshot.matches('enteringEmail') || snapshot.matches('requestingCode') ? 'email' : 'details';
export const selectIsBusy = (snapshot: ResetSnapshot) => snapshot.hasTag('busy');
/** The code entry of the details step, while it is there (its field shows its own message). */
export const selectCodeEntry = (snapshot: ResetSnapshot) => codeEntryOf(snapshot);
/** The validation messages of the form, once a submit revealed them. */
export const selectErrors = (snapshot: ResetSnapshot): NewPasswordErrors => (snapshot.context.showErrors ? newPasswordErrors(snapshot.context) : {});
