/** Trade answers for the web tests (Trade Preview dialog, Recent Trades), shaped by the zod contracts. */
import type { Coin, OfferListItem, TradeHistory, TradeHistoryRow, TradePreview } from '../../contracts/index.ts';
import type { TradeHistoryFilters, TradeOpened } from '../../src/services/trades.ts';
import { offerItem, paginator } from './offers.ts';

/** A sell offer (the taker buys): 50 - 1000 EUR by SEPA or Cash. */
export const sellOffer: OfferListItem = offerItem(7, {
  offer_type: 'sell',
  currency__code: 'EUR',
  min_amount: '50',
  max_amount: '1000',
  payment_methods: ['SEPA', 'Cash'],
});

/** A buy offer (the taker sells): 1500.00 - 250000 NGN by Bank Transfer. */
export const buyOffer: OfferListItem = offerItem(8, {
  offer_type: 'buy',
  user__username: 'carol',
  coin__label: 'Ethereum',
  coin__ticker: 'eth',
  currency__code: 'NGN',
  min_amount: '1500.00',
  max_amount: '250000',
  payment_methods: ['Bank Transfer'],
});

/** The server's preview of 100 EUR on the sell offer (1% fee). */
export const preview100: TradePreview = {
  trading_amount: '100.00',
  trading_amount_crypto: '0.00105263',
  fee_local: '1.00',
  fee_crypto: '0.00001052',
  amount_local: '99.00',
  amount_crypto: '0.00104211',
};

export const openedText = 'Trade opened: pay bob within 30 minutes.';
/** The new trade's channel, as the `open` answer names it in its X-Trade-Channel header. */
export const openedChannel = 'c0ffee00-trade';
/** What `trades.open` answers: the toast's sentence and the channel the chat opens on. */
export const opened: TradeOpened = { info: openedText, channel: openedChannel };

export const coins: Coin[] = [
  { id: 1, label: 'Bitcoin', ticker: 'btc', image: '/coins/btc.svg', decimal_places: 8, price: '65000.00', networks: [] },
  { id: 2, label: 'Ethereum', ticker: 'eth', image: '/coins/eth.svg', decimal_places: 8, price: '3200.00', networks: [] },
];

export function tradeRow(id: number, overrides: Partial<TradeHistoryRow> = {}): TradeHistoryRow {
  return {
    id,
    created: '2026-11-21T17:22:00.000',
    trade_type: 'buy',
    partner: 'bob',
    offer__coin__image: '/coins/btc.svg',
    offer__coin__ticker: 'btc',
    offer__coin__decimal_places: 8,
    amount_crypto: '0.00104211',
    amount_usd: '108.42',
    fee_crypto: '0.00001052',
    fee_usd: '1.09',
    payment_method: 'SEPA',
    status: 'pending',
    ...overrides,
  };
}

/** Page `page` of `pages` pages, one trade each (ids tell the pages apart). */
export const tradePage = (page: number, pages: number, overrides: Partial<TradeHistoryRow> = {}): TradeHistory => ({
  trades: [tradeRow(page * 100, overrides)],
  paginator: paginator(page, pages),
});

export const noTrades: TradeHistory = { trades: [], paginator: paginator(1, 1) };

/**
 * Recent Trades' filters with `set` chosen, the rest empty, as the chart hands them to `loadTrades`; the
 * service turns them into the call's query (tests/services/trades.test.ts holds that rule's oracle).
 */
export const chosenTrades = (set: Partial<TradeHistoryFilters> = {}): TradeHistoryFilters => ({ tradeType: '', status: '', coinId: '', ...set });
