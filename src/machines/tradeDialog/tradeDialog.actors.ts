import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { formRules } from '../shared/rules.ts';
import { tradeDialogMachine } from './tradeDialog.machine.ts';

/** The Trade Preview chart with its amount rule: what every use of it, tests included, starts from. */
export const tradeDialogLogic = tradeDialogMachine.provide({ guards: formRules });

export const bindTradeDialog = (deps: FlowDeps) =>
  tradeDialogLogic.provide({
    actors: {
      previewTrade: fromPromise(({ input }) => deps.trades.preview(input)),
      openTrade: fromPromise(({ input }) => deps.trades.open(input)),
    },
    actions: {
      notify: (_, params) => deps.notify(params),
      goToChat: (_, params) => deps.navigate('/chat', params.channel ? { channel: params.channel } : undefined),
    },
  });
