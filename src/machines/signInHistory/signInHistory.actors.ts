import { fromPromise } from 'xstate';
import { createAccountProtectionService } from '../../services/accountProtections.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { signInHistoryMachine } from './signInHistory.machine.ts';

export const bindSignInHistory = (deps: FlowDeps) => {
  const protections = createAccountProtectionService(deps.api);
  return signInHistoryMachine.provide({
    actors: {
      loadHistory: fromPromise(() => protections.signInHistory()),
      signOutOthers: fromPromise(() => protections.signOutOthers()),
    },
  });
};
