import { callsOf, toasts } from '../shared/binding.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { formRules } from '../shared/rules.ts';
import { tradeDialogMachine } from './tradeDialog.machine.ts';

/** The Trade Preview chart with its amount rule: what every use of it, tests included, starts from. */
export const tradeDialogLogic = tradeDialogMachine.provide({ guards: formRules });

export const bindTradeDialog = (deps: FlowDeps) =>
  tradeDialogLogic.provide({
    actors: callsOf(deps.trades, { previewTrade: 'preview', openTrade: 'open' }),
    actions: {
      ...toasts(deps),
      goToChat: (_, params) => deps.navigate('/chat', params.channel ? { channel: params.channel } : undefined),
    },
  });
