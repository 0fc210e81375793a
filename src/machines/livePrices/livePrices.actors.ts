import { fromCallback } from 'xstate';
import { z } from 'zod/mini';
import { COIN_PRICE_CHANNEL, priceEvent, realtimeEvents, type PriceEvent } from '../../../contracts/index.ts';
import { compareDecimal } from '../../../domain/money.ts';
import type { RealtimeService } from '../../services/realtime.ts';
import { livePricesMachine, type LivePricesEvent } from './livePrices.machine.ts';

type PriceMove = { price: string; previous: string | null };

/** The chart's price comparisons, exact on decimal strings; a coin with no previous price never moves. */
export const priceRules = {
  isHigher: (_: unknown, params: PriceMove) => params.previous !== null && compareDecimal(params.price, params.previous) > 0,
  isLower: (_: unknown, params: PriceMove) => params.previous !== null && compareDecimal(params.price, params.previous) < 0,
};

/** The live prices chart with its comparisons: what every use of it, tests included, starts from. */
export const livePricesLogic = livePricesMachine.provide({ guards: priceRules });

/**
 * A `price` event as the contract describes it (a non-negative decimal price); anything else (another shape,
 * a number instead of a string, "NaN") is dropped rather than shown.
 */
export function readPriceEvent(data: unknown): PriceEvent | null {
  const parsed = z.safeParse(priceEvent, data);
  return parsed.success ? { ticker: parsed.data.ticker, price: parsed.data.price } : null;
}

/**
 * The chart bound to the tab's realtime connection: while it runs it listens on `coin_price`, and says
 * when the subscription is accepted (after each reconnect too) and when the connection drops.
 */
export const bindLivePrices = (realtime: Pick<RealtimeService, 'subscribe' | 'watchConnection'>) =>
  livePricesLogic.provide({
    actors: {
      priceFeed: fromCallback<LivePricesEvent>(({ sendBack }) => {
        const unsubscribe = realtime.subscribe(COIN_PRICE_CHANNEL, {
          events: {
            [realtimeEvents.price]: (data) => {
              const quote = readPriceEvent(data);
              if (quote) sendBack({ type: 'price.received', ...quote });
            },
          },
          onSubscribed: () => sendBack({ type: 'feed.subscribed' }),
        });
        const unwatch = realtime.watchConnection((state) => {
          if (state !== 'connected') sendBack({ type: 'feed.interrupted' });
        });
        return () => {
          unwatch();
          unsubscribe();
        };
      }),
    },
  });
