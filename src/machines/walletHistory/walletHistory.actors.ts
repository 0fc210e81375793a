import { fromPromise } from 'xstate';
import { walletChanges, watchingConnection } from '../shared/channels.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { walletHistoryMachine } from './walletHistory.machine.ts';

export const bindWalletHistory = (deps: FlowDeps) =>
  walletHistoryMachine.provide({
    actors: {
      loadCoins: fromPromise(() => deps.market.coins()),
      loadTransactions: fromPromise(({ input }) => deps.wallets.history(input)),
      copyText: fromPromise(({ input }) => deps.copyText(input.text)),
      userChannel: walletChanges(deps.realtime),
      watchConnection: watchingConnection(deps.realtime),
    },
    actions: {
      notify: (_, params) => deps.notify(params),
    },
  });
