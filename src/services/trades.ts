import { messageResponse, tradeHistory, tradePreview, type TradeAction, type TradeAsk, type TradeOpenAsk } from '../../contracts/index.ts';
import type { Api } from './api.ts';

export type TradeHistoryQuery = {
  page: number;
  trade_type?: 'buy' | 'sell';
  filters: { status?: 'pending' | 'completed' | 'cancelled'; offer__coin__id?: string };
};

/** The trade calls of spec section 7 (`market/trade/`). */
export function createTradeService(api: Api) {
  return {
    /** Spec section 8: a preview failure shows no message. */
    preview: (input: TradeAsk) =>
      api.read('market/trade/', { type: 'preview', ...input }, tradePreview, { noToast: true }),
    open: (input: TradeOpenAsk) =>
      api.write('market/trade/', { type: 'open', ...input }, messageResponse),
    history: (input: TradeHistoryQuery) => api.read('market/trade/', { type: 'history', ...input }, tradeHistory),
    act: (input: { type: TradeAction; channel: string; reason?: string }) =>
      api.write('market/trade/', input, messageResponse),
  };
}

export type TradeService = ReturnType<typeof createTradeService>;
