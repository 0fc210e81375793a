import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { signupMachine } from './signup.machine.ts';

export const bindSignup = (deps: FlowDeps) =>
  signupMachine.provide({
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
