import {
  TRADE_CHANNEL_HEADER,
  confirmationStatus,
  messageResponse,
  tradeHistory,
  tradePreview,
  type TradeAction,
  type TradeAsk,
  type TradeHistoryAsk,
  type TradeOpenAsk,
  type TradeRequest,
} from '../../contracts/index.ts';
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
 * A party's action on a trade, as the contract words it: `{type, channel}`, the `reason` of a dispute and the
 * optional `payer_account` of "Mark Paid".
 */
export type TradeActionRequest = Extract<TradeRequest, { type: TradeAction }>;

/** `release_coin` with its second proof, the password or (two-factor on) the code, when one is asked (docs/api.md "Trade actions"). */
export type ReleaseRequest = Extract<TradeRequest, { type: 'release_coin' }>;

/** A party's rating of the other after a completed trade (docs/api.md "Ratings"): 1–5 and an optional comment. */
export type TradeRatingRequest = Omit<Extract<TradeRequest, { type: 'rate' }>, 'type'>;

/** What `open` answers: the sentence for the "Trade Opened!" toast, and the new trade's channel when the server names it. */
export type TradeOpened = { info: string; channel: string | null };

/**
 * The calls of `market/trade/` (docs/api.md "market/trade preview and open", "market/trade history",
 * "Trade actions").
 */
export function createTradeService(api: Api) {
  return {
    /** A preview failure shows no message (docs/api.md "market/trade preview and open"). */
    preview: (input: TradeAsk) =>
      api.read('market/trade/', { type: 'preview', ...input }, tradePreview, { noToast: true }),
    open: (input: TradeOpenAsk): Promise<TradeOpened> =>
      api
        .writeWithHeader('market/trade/', { type: 'open', ...input }, messageResponse, TRADE_CHANNEL_HEADER)
        .then(({ info, header }) => ({ info, channel: header || null })),
    history: (input: { page: number; filters: TradeHistoryFilters }) =>
      api.read('market/trade/', { type: 'history', ...historyQuery(input.page, input.filters) }, tradeHistory),
    act: (input: TradeActionRequest) => api.write('market/trade/', input, messageResponse),
    /**
     * What the next release of this session must carry (docs/api.md "Release confirmation"): 'password', 'code', or
     * null while a proof given in the last 10 minutes covers it. Quiet: the release dialog goes on without it.
     */
    releaseProof: () => api.read('security/confirmation/', { type: 'status' }, confirmationStatus, { noToast: true }).then((status) => status.proof),
    /** A release, refused quietly: the release dialog shows the server's sentence itself (a wrong password, the security hold). */
    release: (input: ReleaseRequest) => api.write('market/trade/', input, messageResponse, { noToast: true }),
    /** Answers the sentence of the toast; a second rating or a trade that cannot be rated is refused (409, a toast). */
    rate: (input: TradeRatingRequest) => api.write('market/trade/', { type: 'rate', ...input }, messageResponse),
  };
}

export type TradeService = ReturnType<typeof createTradeService>;
