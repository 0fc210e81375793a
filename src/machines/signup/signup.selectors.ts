import type { SnapshotFrom } from 'xstate';
import { codeEntryOf } from '../codeEntry/codeEntry.selectors.ts';
import { newPasswordErrors, usernameError, type NewPasswordErrors } from '../shared/validation.ts';
import type { signupMachine } from './signup.machine.ts';

type SignupSnapshot = SnapshotFrom<typeof signupMachine>;

export type SignupStep = 'email' | 'code' | 'account' | 'done';

export const selectStep = (snapshot: SignupSnapshot): SignupStep => {
  if (snapshot.matches('enteringEmail') || snapshot.matches('requestingCode')) return 'email';
  if (snapshot.matches('completingAccount') || snapshot.matches('registering')) return 'account';
  if (snapshot.matches('registered')) return 'done';
  return 'code';
};
export const selectIsBusy = (snapshot: SignupSnapshot) => snapshot.hasTag('busy');
/** The code entry of the code step, while it is there (its field shows its own message). */
export const selectCodeEntry = (snapshot: SignupSnapshot) => codeEntryOf(snapshot);
export const selectIsResending = (snapshot: SignupSnapshot) => snapshot.matches('resendingCode');

/** The validation messages for the fields of the current step, once a submit revealed them. */
export const selectErrors = (snapshot: SignupSnapshot): NewPasswordErrors & { username?: string } => {
  const { context } = snapshot;
  return context.showErrors ? { ...newPasswordErrors(context), username: usernameError(context.username) } : {};
};
