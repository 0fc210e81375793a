import { codeEntryMachine } from '../codeEntry/codeEntry.machine.ts';
import { callsOf, signingIn } from '../shared/binding.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { formRules } from '../shared/rules.ts';
import { signupMachine } from './signup.machine.ts';

/** The signup chart with its rules and its code entry: what every use of it, tests included, starts from. */
export const signupLogic = signupMachine.provide({ guards: formRules, actors: { codeEntry: codeEntryMachine } });

export const bindSignup = (deps: FlowDeps) =>
  signupLogic.provide({
    actors: callsOf(deps.accounts, { requestCode: 'requestEmailCode', verifyCode: 'verifyEmailCode', register: 'register' }),
    actions: signingIn(deps),
  });
