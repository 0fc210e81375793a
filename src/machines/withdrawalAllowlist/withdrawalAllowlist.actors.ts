import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { withdrawalAllowlistMachine } from './withdrawalAllowlist.machine.ts';
import { allowlistRules } from './withdrawalAllowlist.rules.ts';

/** The allowlist chart with the contract's rules for a new address: what every use of it, tests included, starts from. */
export const withdrawalAllowlistLogic = withdrawalAllowlistMachine.provide({ guards: allowlistRules });

export const bindWithdrawalAllowlist = (deps: FlowDeps) =>
  withdrawalAllowlistLogic.provide({
    actors: {
      loadStatus: fromPromise(() => deps.accountProtections.allowlistStatus()),
      enable: fromPromise(() => deps.accountProtections.enableAllowlist()),
      disable: fromPromise(({ input }) => deps.accountProtections.disableAllowlist(input)),
      // The chart's guard has checked the addition against the contract, network key included.
      addAddress: fromPromise(({ input }) => deps.accountProtections.addAllowlistAddress(input as never)),
      removeAddress: fromPromise(({ input }) => deps.accountProtections.removeAllowlistAddress(input)),
    },
    actions: { notify: (_, params) => deps.notify(params) },
  });
