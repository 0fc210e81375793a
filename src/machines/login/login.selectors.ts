import type { SnapshotFrom } from 'xstate';
import { messages } from '../../../contracts/messages.ts';
import { codeEntryOf } from '../codeEntry/codeEntry.selectors.ts';
import type { loginMachine } from './login.machine.ts';

type LoginSnapshot = SnapshotFrom<typeof loginMachine>;

export const selectStep = (snapshot: LoginSnapshot): 'credentials' | 'code' | 'recoveryCode' => {
  if (snapshot.matches('awaitingSecondFactor') || snapshot.matches('verifyingCode')) return 'code';
  if (snapshot.matches('awaitingRecoveryCode') || snapshot.matches('verifyingRecoveryCode')) return 'recoveryCode';
  return 'credentials';
};
export const selectIsBusy = (snapshot: LoginSnapshot) => snapshot.hasTag('busy');
/** The code entry of the code screen, while it is there. */
export const selectCodeEntry = (snapshot: LoginSnapshot) => codeEntryOf(snapshot);
/** The recovery code screen's "Verify Code": the chart takes the submit only with a whole recovery code. */
export const selectCanVerifyRecoveryCode = (snapshot: LoginSnapshot) => snapshot.matches('awaitingRecoveryCode') && snapshot.can({ type: 'code.submit' });
export const selectErrors = (snapshot: LoginSnapshot) => {
  const { username, password, showErrors } = snapshot.context;
  if (!showErrors) return {};
  return {
    username: username.trim() === '' ? messages.usernameRequired : undefined,
    password: password === '' ? messages.passwordRequired : undefined,
  };
};
