import { fromPromise } from 'xstate';
import { codeEntryMachine } from '../codeEntry/codeEntry.machine.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { formRules } from '../shared/rules.ts';
import { signupMachine } from './signup.machine.ts';

/** The signup chart with its rules and its code entry: what every use of it, tests included, starts from. */
export const signupLogic = signupMachine.provide({ guards: formRules, actors: { codeEntry: codeEntryMachine } });

export const bindSignup = (deps: FlowDeps) =>
  signupLogic.provide({
    actors: {
      requestCode: fromPromise(({ input }) => deps.accounts.requestEmailCode(input)),
      verifyCode: fromPromise(({ input }) => deps.accounts.verifyEmailCode(input)),
      register: fromPromise(({ input }) => deps.accounts.register(input)),
    },
    actions: {
      establishSession: (_, params) => deps.signIn(params),
      notify: (_, params) => deps.notify(params),
    },
  });
