import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { loginMachine } from './login.machine.ts';

export const bindLogin = (deps: FlowDeps) =>
  loginMachine.provide({
    actors: {
      submitCredentials: fromPromise(({ input }) => deps.accounts.login(input)),
      submitCode: fromPromise(({ input }) => deps.accounts.twoFactorLogin(input)),
    },
    actions: {
      establishSession: (_, params) => deps.signIn(params),
      notify: (_, params) => deps.notify(params),
    },
  });
