import { codeEntryMachine } from '../codeEntry/codeEntry.machine.ts';
import { callsOf, toasts } from '../shared/binding.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { formRules } from '../shared/rules.ts';
import { passwordResetMachine } from './passwordReset.machine.ts';

/** The reset chart with its rules and its code entry: what every use of it, tests included, starts from. */
export const passwordResetLogic = passwordResetMachine.provide({ guards: formRules, actors: { codeEntry: codeEntryMachine } });

export const bindPasswordReset = (deps: FlowDeps) =>
  passwordResetLogic.provide({
    actors: callsOf(deps.accounts, { requestReset: 'requestPasswordReset', resetPassword: 'resetPassword' }),
    actions: { ...toasts(deps), goToLogin: () => deps.navigate('/login') },
  });
