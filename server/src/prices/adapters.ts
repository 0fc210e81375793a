import { simulatedPriceFeed } from './simulated.ts';

/** One coin's price as the database holds it: what an adapter is asked to move or replace. */
export interface CoinPrice {
  ticker: string;
  /** USD per coin, an exact decimal string. */
  usdPrice: string;
}

/**
 * Where prices come from. The price source (prices/prices.plugin.ts) asks its adapter once a tick, stores what
 * it answers and tells its listeners. An adapter for a real exchange implements `quote` with one
 * request for the latest tickers (REST polling: nothing to reconnect, and the tick interval bounds the
 * rate it spends against the exchange's limits).
 */
export interface PriceFeedAdapter {
  readonly name: PriceSourceName;
  /**
   * The current USD price of the given coins, by ticker, as exact decimal strings (never floats). A coin
   * the adapter has no quote for is left out and keeps its stored price. A throw skips the tick.
   */
  quote(coins: readonly CoinPrice[]): Promise<Map<string, string>>;
  /** Releases connections or timers, if the adapter holds any. */
  close(): Promise<void>;
}

export interface PriceFeedAdapterOptions {
  /** A number in [0, 1); injected by tests to make the simulated walk reproducible. */
  random?: () => number;
}

/**
 * The names PRICE_SOURCE accepts. A real exchange adds its name here and its factory below; any other
 * value fails at boot (config.ts) with the list of valid names.
 */
export const PRICE_SOURCE_NAMES = ['simulated'] as const;
export type PriceSourceName = (typeof PRICE_SOURCE_NAMES)[number];

export const PRICE_FEED_ADAPTERS: Record<PriceSourceName, (options: PriceFeedAdapterOptions) => PriceFeedAdapter> = {
  simulated: (options) => simulatedPriceFeed(options),
};
