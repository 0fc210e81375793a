import { createAccountProtectionService } from '../../services/accountProtections.ts';
import { callsOf } from '../shared/binding.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { signInHistoryMachine } from './signInHistory.machine.ts';

export const bindSignInHistory = (deps: FlowDeps) => {
  const protections = createAccountProtectionService(deps.api);
  return signInHistoryMachine.provide({
    actors: callsOf(protections, { loadHistory: 'signInHistory', signOutOthers: 'signOutOthers' }),
  });
};
