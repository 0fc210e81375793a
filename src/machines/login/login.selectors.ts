import type { SnapshotFrom } from 'xstate';
import { messages } from '../../../contracts/messages.ts';
import type { loginMachine } from './login.machine.ts';

type LoginSnapshot = SnapshotFrom<typeof loginMachine>;

export const selectStep = (snapshot: LoginSnapshot): 'credentials' | 'code' | 'recoveryCode' => {
  if (snapshot.matches('awaitingSecondFactor') || snapshot.matches('verifyingCode')) return 'code';
  if (snapshot.matches('awaitingRecoveryCode') || snapshot.matches('verifyingRecoveryCode')) return 'recoveryCode';
  return 'credentials';
};
export const selectIsBusy = (snapshot: LoginSnapshot) => snapshot.hasTag('busy');
export const selectCanVerify = (snapshot: LoginSnapshot) => snapshot.can({ type: 'code.submit' });
export const selectErrors = (snapshot: LoginSnapshot) => {
  const { username, password, showErrors } = snapshot.context;
  if (!showErrors) return {};
  return {
    username: username.trim() === '' ? messages.usernameRequired : undefined,
    password: password === '' ? messages.passwordRequired : undefined,
  };
};
