import { fromPromise } from 'xstate';
import { walletChanges } from '../shared/channels.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { depositMachine } from './deposit.machine.ts';

export const bindDeposit = (deps: FlowDeps) =>
  depositMachine.provide({
    actors: {
      loadAddresses: fromPromise(() => deps.wallets.addresses()),
      copyAddress: fromPromise(({ input }) => deps.copyText(input.address)),
      userChannel: walletChanges(deps.realtime),
    },
    actions: {
      notify: (_, params) => deps.notify(params),
    },
  });
