import { messageResponse, tradeHistory, tradePreview, type TradeAction, type TradeAsk, type TradeHistoryAsk, type TradeOpenAsk } from '../../contracts/index.ts';
import type { Api } from './api.ts';

/** Recent Trades' filters as the screen holds them; empty strings are no filter. */
export type TradeHistoryFilters = {
  tradeType: '' | 'buy' | 'sell';
  status: '' | 'pending' | 'completed' | 'cancelled';
  coinId: string;
};

/** The history call's query: only the filters that are set (docs/api.md "market/trade history"). */
export function historyQuery(page: number, filters: TradeHistoryFilters): TradeHistoryAsk {
  return {
    page,
    ...(filters.tradeType ? { trade_type: filters.tradeType } : {}),
    filters: {
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.coinId ? { offer__coin__id: filters.coinId } : {}),
    },
  };
}

/**
 * The calls of `market/trade/` (docs/api.md "market/trade preview and open", "market/trade history",
 * "Trade actions").
 */
export function createTradeService(api: Api) {
  return {
    /** A preview failure shows no message (docs/api.md "market/trade preview and open"). */
    preview: (input: TradeAsk) =>
      api.read('market/trade/', { type: 'preview', ...input }, tradePreview, { noToast: true }),
    open: (input: TradeOpenAsk) =>
      api.write('market/trade/', { type: 'open', ...input }, messageResponse),
    history: (input: { page: number; filters: TradeHistoryFilters }) =>
      api.read('market/trade/', { type: 'history', ...historyQuery(input.page, input.filters) }, tradeHistory),
    act: (input: { type: TradeAction; channel: string; reason?: string }) =>
      api.write('market/trade/', input, messageResponse),
  };
}

export type TradeService = ReturnType<typeof createTradeService>;
