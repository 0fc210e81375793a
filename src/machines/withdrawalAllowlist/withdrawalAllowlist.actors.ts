import { fromPromise } from 'xstate';
import { createAccountProtectionService } from '../../services/accountProtections.ts';
import { confirmedBy } from '../passwordConfirm/passwordConfirm.actors.ts';
import { callsOf, toasts } from '../shared/binding.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { withdrawalAllowlistMachine } from './withdrawalAllowlist.machine.ts';
import { allowlistRules } from './withdrawalAllowlist.rules.ts';

/** The allowlist chart with the contract's rules for a new address: what every use of it, tests included, starts from. */
export const withdrawalAllowlistLogic = withdrawalAllowlistMachine.provide({ guards: allowlistRules });

export const bindWithdrawalAllowlist = (deps: FlowDeps) => {
  const protections = createAccountProtectionService(deps.api);
  return withdrawalAllowlistLogic.provide({
    actors: {
      ...callsOf(protections, { loadStatus: 'allowlistStatus', enable: 'enableAllowlist', removeAddress: 'removeAllowlistAddress' }),
      confirmDisable: confirmedBy(protections.disableAllowlist),
      // The chart's guard has checked the addition against the contract, network key included.
      addAddress: fromPromise(({ input }) => protections.addAllowlistAddress(input as never)),
    },
    actions: toasts(deps),
  });
};
