import { Decimal } from 'decimal.js';
import { REFERENCE_COINS } from '../offers/reference-data.ts';
import type { CoinPrice, PriceFeedAdapter, PriceFeedAdapterOptions } from './adapters.ts';

/**
 * Exact decimal arithmetic for prices: 40 significant digits is far more than any price times any step
 * needs, so nothing is rounded until the one explicit rounding to the quote's places.
 */
const Exact = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });

/** How far one coin's price may move. Both numbers are fractions of a price. */
export interface Walk {
  /** The largest move of one tick, up or down. */
  maxStep: string;
  /** How far from its anchor the price may ever get, so a demo left running for months still looks believable. */
  band: string;
}

/** Volatile coins: up to ±0.3% a tick, never beyond ±25% of where they started. */
export const VOLATILE_WALK: Walk = { maxStep: '0.003', band: '0.25' };
/** Stablecoins hold their peg tightly: up to ±0.02% a tick, never beyond ±0.5% of 1 USD. */
export const PEGGED_WALK: Walk = { maxStep: '0.0002', band: '0.005' };

const STABLECOINS: ReadonlySet<string> = new Set(['USDT', 'USDC', 'DAI']);

export const walkOf = (ticker: string): Walk => (STABLECOINS.has(ticker) ? PEGGED_WALK : VOLATILE_WALK);

/**
 * Places a coin's quotes are rounded to, by the magnitude of its anchor (so a coin keeps one format as
 * it wanders), as exchanges show them: cents from 10 USD up, 4 places around a dollar (a stablecoin's
 * 1.0003), 8 below.
 */
export function quotePlaces(anchor: Decimal.Value): number {
  const value = new Exact(anchor);
  if (value.gte(10)) return 2;
  if (value.gte(1)) return 4;
  return 8;
}

/**
 * One step of the bounded random walk. `random` in [0, 1) picks the step in [-maxStep, +maxStep); a step
 * that would leave the band around `anchor` is taken the other way (a reflection, so prices do not pile
 * up at the edges), and the result is clamped into the band in case the stored price was outside it.
 */
export function nextPrice(current: Decimal.Value, anchor: Decimal.Value, walk: Walk, random: number): string {
  const price = new Exact(current);
  const base = new Exact(anchor);
  const low = base.times(new Exact(1).minus(walk.band));
  const high = base.times(new Exact(1).plus(walk.band));
  const step = new Exact(random).times(2).minus(1).times(walk.maxStep);

  let next = price.times(new Exact(1).plus(step));
  if (next.lt(low) || next.gt(high)) next = price.times(new Exact(1).minus(step));
  next = Exact.min(Exact.max(next, low), high);

  const places = quotePlaces(base);
  const rounded = next.toDecimalPlaces(places);
  // Rounding a tiny price could reach 0, which no coin may cost: keep the old price then. toFixed, unlike
  // toString, never answers in exponent notation ("1e-8"), which is not a decimal string.
  return rounded.gt(0) ? rounded.toFixed(places) : price.toFixed();
}

const REFERENCE_PRICES: ReadonlyMap<string, string> = new Map(REFERENCE_COINS.map((coin) => [coin.ticker, coin.usd_price]));

/**
 * The default price source: every coin's price wanders a little each tick from a realistic starting
 * point, so the product looks alive without any network. The anchor of a reference coin is its starting
 * price (the same after every restart); a coin an operator added later is anchored where it was first seen.
 */
export function simulatedPriceFeed({ random = Math.random }: PriceFeedAdapterOptions = {}): PriceFeedAdapter {
  const anchors = new Map(REFERENCE_PRICES);
  return {
    name: 'simulated',
    async quote(coins: readonly CoinPrice[]) {
      const quotes = new Map<string, string>();
      for (const coin of coins) {
        let anchor = anchors.get(coin.ticker);
        if (anchor === undefined) {
          anchor = coin.usdPrice;
          anchors.set(coin.ticker, anchor);
        }
        quotes.set(coin.ticker, nextPrice(coin.usdPrice, anchor, walkOf(coin.ticker), random()));
      }
      return quotes;
    },
    async close() {},
  };
}
