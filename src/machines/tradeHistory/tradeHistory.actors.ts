import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { tradeHistoryMachine } from './tradeHistory.machine.ts';

export const bindTradeHistory = (deps: FlowDeps) =>
  tradeHistoryMachine.provide({
    actors: {
      loadCoins: fromPromise(() => deps.market.coins()),
      loadTrades: fromPromise(({ input }) => deps.trades.history(input)),
    },
  });
