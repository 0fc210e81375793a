import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { walletHistoryMachine } from './walletHistory.machine.ts';

export const bindWalletHistory = (deps: FlowDeps) =>
  walletHistoryMachine.provide({
    actors: {
      loadCoins: fromPromise(() => deps.market.coins()),
      loadTransactions: fromPromise(({ input }) => deps.wallets.history(input)),
      copyText: fromPromise(({ input }) => deps.copyText(input.text)),
    },
    actions: {
      notify: (_, params) => deps.notify(params),
    },
  });
