import { PRICE_FEED_ADAPTERS, type PriceFeedAdapter } from './adapters.ts';
import type { FastifyInstance } from 'fastify';
import { stopBeforeTheDatabase, type JobSpec } from '../infra/jobs.ts';
import { shared } from '../infra/shared.ts';

/** USD per coin, by ticker, as exact decimal strings. */
export type PriceMap = ReadonlyMap<string, string>;
export type PriceListener = (changed: PriceMap) => void;

/**
 * The coins' current USD prices. The database (coins.usd_price) is the truth: each tick reads it, asks the
 * adapter for the next prices and writes them back with one UPDATE, so a restart resumes where the
 * prices were and every process serves the same figures (base/coins/ reads the table).
 *
 * Trade-off, kept on purpose: with several processes each one ticks, so the shared price takes a step per
 * process per interval and two processes reading at the same moment may overwrite each other's step.
 * For the simulated feed that only makes the walk a little livelier; a real exchange adapter would be
 * polled by every process (N × the API calls), which is when one process should own the feed and the
 * others only read.
 */
export interface PriceSource {
  /** The latest prices this process has read or written. */
  current(): PriceMap;
  /**
   * Calls `listener` after each tick with the prices that changed (never an empty map). This is the hook
   * the realtime `coin_price` channel will publish from. Returns the unsubscribe.
   */
  subscribe(listener: PriceListener): () => void;
  /** One tick now: read, quote, store, notify; resolves with what changed. Ticks never overlap. */
  tick(): Promise<PriceMap>;
  /** Waits for a running tick; `tick()` still works afterwards (tests). */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    prices: PriceSource;
  }
}

export interface PricesPluginOptions extends Record<string, unknown> {
  /** Replaces the adapter PRICE_SOURCE names (tests: a simulated feed with a seeded random). */
  adapter?: PriceFeedAdapter;
}

/** What a stored price must look like: a positive decimal that fits the column. Anything else is the adapter's bug. */
const STORABLE_PRICE = /^\d{1,20}(\.\d{1,18})?$/;
const isStorablePrice = (value: string) => STORABLE_PRICE.test(value) && /[1-9]/.test(value);

/** Tier 3: the price source; priceTick moves it on a timer. */
export const pricesPlugin = shared<PricesPluginOptions>('peerex-prices', async (app, { adapter: injected }) => {
  const adapter = injected ?? PRICE_FEED_ADAPTERS[app.config.priceSource]({});
  const listeners = new Set<PriceListener>();
  let latest: PriceMap = new Map();

  const readStored = async () => {
    const rows = await app.db.query<{ ticker: string; usd_price: string }>('SELECT ticker, usd_price FROM coins ORDER BY id');
    latest = new Map(rows.map((row) => [row.ticker, row.usd_price]));
    return rows;
  };

  const runTick = async (): Promise<PriceMap> => {
    const stored = await readStored();
    if (stored.length === 0) return new Map();
    const quotes = await adapter.quote(stored.map((row) => ({ ticker: row.ticker, usdPrice: row.usd_price })));
    const tickers: string[] = [];
    const prices: string[] = [];
    for (const [ticker, price] of quotes) {
      if (!isStorablePrice(price)) {
        app.log.warn({ ticker, price, source: adapter.name }, 'price source quoted an unusable price; keeping the stored one');
        continue;
      }
      tickers.push(ticker);
      prices.push(price);
    }
    if (tickers.length === 0) return new Map();
    // One statement for every coin; "<>" compares numerically, so 97000.0 over 97000.00 is no change.
    const changedRows = await app.db.query<{ ticker: string; usd_price: string }>(
      `UPDATE coins AS c SET usd_price = q.price
       FROM unnest($1::text[], $2::numeric[]) AS q (ticker, price)
       WHERE c.ticker = q.ticker AND c.usd_price <> q.price
       RETURNING c.ticker, c.usd_price`,
      [tickers, prices],
    );
    const changed: PriceMap = new Map(changedRows.map((row) => [row.ticker, row.usd_price]));
    latest = new Map([...latest, ...changed]);
    if (changed.size > 0) {
      for (const listener of listeners) {
        try {
          listener(changed);
        } catch (error) {
          // One broken subscriber must not stop the prices or the other subscribers.
          app.log.error({ err: error }, 'price listener failed');
        }
      }
    }
    return changed;
  };

  let queue: Promise<unknown> = Promise.resolve();
  const tick = (): Promise<PriceMap> => {
    const run = queue.then(runTick, runTick);
    queue = run.catch(() => undefined);
    return run;
  };

  const stop = async () => {
    await queue;
  };

  await readStored();

  app.decorate('prices', {
    current: () => latest,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    tick,
    stop,
  } satisfies PriceSource);

  stopBeforeTheDatabase(app, stop, () => adapter.close());
});

/** The price tick, every PRICE_TICK_SECONDS once the app is ready (0: only by hand); app.ts lists it. */
export const priceTick = (app: FastifyInstance): JobSpec<PriceMap> => ({
  name: 'price tick',
  everyMs: app.config.priceTickSeconds * 1000,
  tick: () => app.prices.tick(),
});
