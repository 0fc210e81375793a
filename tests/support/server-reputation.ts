/** Completed trades and ratings through the API, for the reputation suites. */
import { expect } from 'vitest';
import type { OfferListItem } from '../../contracts/market.ts';
import type { TestApp } from './server.ts';
import { act, openTrade, tradeCall, type Trader } from './server-trades.ts';

/** A trader's figures as their first offer on a page of Browse Offers shows them; undefined without one. */
export const figuresOn = (offers: OfferListItem[], who: Trader) => {
  const offer = offers.find((item) => item.user__username === who.username);
  return (
    offer && {
      user__trades_count: offer.user__trades_count,
      user__completion_rate: offer.user__completion_rate,
      user__rating: offer.user__rating,
      user__ratings_count: offer.user__ratings_count,
      user__rated_by: offer.user__rated_by,
    }
  );
};

/** 970 EUR on a sellOffer (rate 1): 0.01 BTC out of the seller's escrow. */
export const TRADE_EUR = '970';

/** Opens a trade of `amount` EUR on `offer` (a sellOffer of `seller`), marks it paid and releases it; answers its channel. */
export async function completedTrade(t: TestApp, seller: Trader, buyer: Trader, offer: number, amount = TRADE_EUR): Promise<string> {
  const channel = await openTrade(t, buyer, offer, amount, 'SEPA');
  expect((await act(t, buyer, 'mark_paid', channel)).status).toBe(200);
  expect((await act(t, seller, 'release_coin', channel)).status).toBe(200);
  return channel;
}

export const rate = (t: TestApp, who: Trader, channel: string, score: unknown, comment?: unknown) =>
  tradeCall<string>(t, who, comment === undefined ? { type: 'rate', channel, score } : { type: 'rate', channel, score, comment });

/** Rates and expects the thanks. */
export async function rated(t: TestApp, who: Trader, channel: string, score: number, comment?: string): Promise<void> {
  expect(await rate(t, who, channel, score, comment)).toEqual({ status: 200, body: { success: true, info: 'Thanks for your rating.' } });
}
