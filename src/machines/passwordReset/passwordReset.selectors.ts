import type { SnapshotFrom } from 'xstate';
import { codeError, confirmPasswordError, emailError, passwordError } from '../shared/validation.ts';
import type { passwordResetMachine } from './passwordReset.machine.ts';

type ResetSnapshot = SnapshotFrom<typeof passwordResetMachine>;

export const selectStep = (snapshot: ResetSnapshot) =>
  snapshot.matches('enteringEmail') || snapshot.matches('requestingCode') ? 'email' : 'details';
export const selectIsBusy = (snapshot: ResetSnapshot) => snapshot.hasTag('busy');
export const selectErrors = (snapshot: ResetSnapshot) => {
  const { context } = snapshot;
  if (!context.showErrors) return {};
  return {
    email: emailError(context.email),
    code: codeError(context.code),
    password: passwordError(context.password),
    confirmPassword: confirmPasswordError(context.confirmPassword, context.password),
  };
};
