import { fromPromise } from 'xstate';
import { codeEntryMachine } from '../codeEntry/codeEntry.machine.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { formRules } from '../shared/rules.ts';
import { passwordResetMachine } from './passwordReset.machine.ts';

/** The reset chart with its rules and its code entry: what every use of it, tests included, starts from. */
export const passwordResetLogic = passwordResetMachine.provide({ guards: formRules, actors: { codeEntry: codeEntryMachine } });

export const bindPasswordReset = (deps: FlowDeps) =>
  passwordResetLogic.provide({
    actors: {
      requestReset: fromPromise(({ input }) => deps.accounts.requestPasswordReset(input)),
      resetPassword: fromPromise(({ input }) => deps.accounts.resetPassword(input)),
    },
    actions: {
      notify: (_, params) => deps.notify(params),
      goToLogin: () => deps.navigate('/login'),
    },
  });
