import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { signInHistoryMachine } from './signInHistory.machine.ts';

export const bindSignInHistory = (deps: FlowDeps) =>
  signInHistoryMachine.provide({
    actors: {
      loadHistory: fromPromise(() => deps.accountProtections.signInHistory()),
      signOutOthers: fromPromise(() => deps.accountProtections.signOutOthers()),
    },
  });
