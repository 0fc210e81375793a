import { fromPromise } from 'xstate';
import { codeEntryMachine } from '../codeEntry/codeEntry.machine.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { formRules } from '../shared/rules.ts';
import { loginMachine } from './login.machine.ts';

/** The login chart with its rules and its code entry: what every use of it, tests included, starts from. */
export const loginLogic = loginMachine.provide({ guards: formRules, actors: { codeEntry: codeEntryMachine } });

export const bindLogin = (deps: FlowDeps) =>
  loginLogic.provide({
    actors: {
      submitCredentials: fromPromise(({ input }) => deps.accounts.login(input)),
      submitCode: fromPromise(({ input }) => deps.accounts.twoFactorLogin(input)),
    },
    actions: {
      establishSession: (_, params) => deps.signIn(params),
      notify: (_, params) => deps.notify(params),
    },
  });
