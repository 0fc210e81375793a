import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { tradeDialogMachine } from './tradeDialog.machine.ts';

export const bindTradeDialog = (deps: FlowDeps) =>
  tradeDialogMachine.provide({
    actors: {
      previewTrade: fromPromise(({ input }) => deps.trades.preview(input)),
      openTrade: fromPromise(({ input }) => deps.trades.open(input)),
    },
    actions: {
      notify: (_, params) => deps.notify(params),
      goToChat: () => deps.navigate('/chat'),
    },
  });
