import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { passwordResetMachine } from './passwordReset.machine.ts';

export const bindPasswordReset = (deps: FlowDeps) =>
  passwordResetMachine.provide({
    actors: {
      requestReset: fromPromise(({ input }) => deps.accounts.requestPasswordReset(input)),
      resetPassword: fromPromise(({ input }) => deps.accounts.resetPassword(input)),
    },
    actions: {
      notify: (_, params) => deps.notify(params),
      goToLogin: () => deps.navigate('/login'),
    },
  });
