import { assign, setup } from 'xstate';
import { unboundCallback, unboundRule } from '../shared/unbound.ts';

/** Which way a coin's price last moved against the value before it. */
export type PriceDirection = 'up' | 'down';
/** A coin's USD price (a decimal string) and its last move; no move yet: null. */
export type LivePrice = { price: string; direction: PriceDirection | null };
/** A coin's USD price as a screen's own call gave it. */
export type PriceQuote = { ticker: string; price: string };

export type LivePricesContext = { prices: Record<string, LivePrice> };
/** The coins this screen shows, at the prices its own call gave: a price for any other coin is ignored. */
export type LivePricesInput = { prices: readonly PriceQuote[] };
/** What the `coin_price` subscription reports (livePrices.actors.ts). */
export type LivePricesEvent =
  | { type: 'price.received'; ticker: string; price: string }
  | { type: 'feed.subscribed' }
  | { type: 'feed.interrupted' };

/** The comparison of a new price with the one it replaces; none before it (an unknown coin): null. */
type PriceMove = { price: string; previous: string | null };

/**
 * Live USD prices of the coins a screen shows (docs/api.md "Realtime": the coin_price channel), each marked
 * up or down against its previous value. Invoked as a child by the charts of the screens that show prices
 * (Dashboard, Browse Offers, Wallets), with the prices their own call gave as the starting point.
 */
export const livePricesMachine = setup({
  types: {
    context: {} as LivePricesContext,
    events: {} as LivePricesEvent,
    input: {} as LivePricesInput,
  },
  actors: {
    /** The subscription to `coin_price`, reporting valid prices, the subscription and its loss. */
    priceFeed: unboundCallback<LivePricesEvent>('priceFeed'),
  },
  actions: {
    movePrice: assign(({ context }, params: { ticker: string; price: string; direction: PriceDirection }) => ({
      prices: { ...context.prices, [params.ticker]: { price: params.price, direction: params.direction } },
    })),
  },
  guards: {
    /** Exact decimal comparison (domain/money.ts), bound with the chart. */
    isHigher: unboundRule<PriceMove>('isHigher'),
    isLower: unboundRule<PriceMove>('isLower'),
  },
}).createMachine({
  id: 'livePrices',
  description: 'USD prices of the coins on screen, kept live from the coin_price channel, each marked up or down.',
  context: ({ input }) => ({
    prices: Object.fromEntries(input.prices.map((quote) => [quote.ticker, { price: quote.price, direction: null }])),
  }),
  invoke: { id: 'priceFeed', src: 'priceFeed' },
  on: {
    'price.received': [
      {
        guard: {
          type: 'isHigher',
          params: ({ context, event }) => ({ price: event.price, previous: context.prices[event.ticker]?.price ?? null }),
        },
        description: 'Higher than the previous price: shown as up.',
        actions: {
          type: 'movePrice',
          params: ({ event }) => ({ ticker: event.ticker, price: event.price, direction: 'up' as const }),
        },
      },
      {
        guard: {
          type: 'isLower',
          params: ({ context, event }) => ({ price: event.price, previous: context.prices[event.ticker]?.price ?? null }),
        },
        description:
          'Lower than the previous price: shown as down. An unchanged price keeps its last move; a coin the ' +
          'screen does not show (no previous price) is ignored.',
        actions: {
          type: 'movePrice',
          params: ({ event }) => ({ ticker: event.ticker, price: event.price, direction: 'down' as const }),
        },
      },
    ],
  },
  initial: 'connecting',
  states: {
    connecting: {
      description:
        'Until the server accepts the subscription, and again while the connection is down: the last prices known stay shown.',
      on: { 'feed.subscribed': { target: 'live' } },
    },
    live: {
      description: 'Subscribed: a price arrives for every coin on every tick of the server.',
      on: { 'feed.interrupted': { target: 'connecting', description: 'The connection dropped; pusher-js reconnects and resubscribes.' } },
    },
  },
});

export type LivePricesLogic = typeof livePricesMachine;
