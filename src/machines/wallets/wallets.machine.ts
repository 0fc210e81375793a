import { assign, setup, stateIn } from 'xstate';
import type { WalletItem } from '../../../contracts/index.ts';
import type { LivePrice, LivePricesLogic, PriceDirection } from '../livePrices/livePrices.machine.ts';
import { liveActors, readAgainOn, socketRegion, userChannel, walletTold, type ConnectionEvent, type WalletChannelEvent } from '../shared/liveRegions.ts';
import { unboundAction, unboundChart, unboundPromise } from '../shared/unbound.ts';
import { walletPrices } from '../shared/walletPrices.ts';

export type WalletsInput = { username: string };

export type WalletsContext = {
  /** Whose own channel tells of a change to the balances. */
  username: string;
  /** `user/wallet/` list as last answered; null until the first answer. */
  wallets: WalletItem[] | null;
  /**
   * The last USD price known per ticker: the list's, then each the live prices chart reports. Kept here so a
   * refreshed balance is valued at the live price, not at the price the list was read with.
   */
  prices: Record<string, string>;
  /** Total Portfolio Value, an exact decimal string (rounded only where shown); null until the wallets load. */
  total: string | null;
  /** The total's last move against the total before it; null while there has been no other total. */
  totalDirection: PriceDirection | null;
};
export type WalletsEvent = { type: 'balances.toggle' } | WalletChannelEvent | ConnectionEvent;

const pricesOfList = (wallets: readonly WalletItem[]) =>
  Object.fromEntries(wallets.map((wallet) => [wallet.coin__ticker, wallet.coin__price]));

/**
 * The balances read (`loadWallets`, invoked as `id`): the list is kept and the total recomputed at the prices
 * known now, then the chart goes on to `then`; `failed` says where a failure leads.
 */
const readingBalances = (id: string, input: { quiet: boolean }, then: string, failed: { target: string; description: string }) => ({
  id,
  src: 'loadWallets' as const,
  input,
  onDone: {
    target: then,
    actions: [{ type: 'keepWallets' as const, params: ({ event }: { event: { output: WalletItem[] } }) => ({ wallets: event.output }) }, 'recomputeTotal' as const],
  },
  onError: failed,
});

/**
 * My Wallets (/wallets): the trader's balances (`user/wallet/` list, read again the moment the trader's own channel
 * says they changed, so a credited deposit shows as the bell announces it), valued at the coins' live prices (the
 * shared live prices chart on the coin_price channel), the Total Portfolio Value marked up or down against the
 * total before it, and a show/hide toggle that masks the figures.
 */
export const walletsMachine = setup({
  types: { context: {} as WalletsContext, events: {} as WalletsEvent, input: {} as WalletsInput },
  actors: {
    /** `userChannel` brings `realtime.wallet.changed` and `realtime.subscribed`. */
    ...liveActors,
    /** `quiet`: a background re-read, whose failure shows no toast (the last balances simply stay). */
    loadWallets: unboundPromise<WalletItem[], { quiet: boolean }>('loadWallets'),
    // The shared live prices chart (livePrices.machine.ts), declared by its type: this file stands alone.
    livePrices: unboundChart<LivePricesLogic>('livePrices'),
  },
  actions: {
    /** A new list; a live price already known stays the coin's price (it is newer than the list's). */
    keepWallets: assign(({ context }, params: { wallets: WalletItem[] }) => ({
      wallets: params.wallets,
      prices: { ...pricesOfList(params.wallets), ...context.prices },
    })),
    keepPrices: assign(({ context }, params: { prices: Record<string, LivePrice> }) => ({
      prices: { ...context.prices, ...Object.fromEntries(Object.entries(params.prices).map(([ticker, live]) => [ticker, live.price])) },
    })),
    /**
     * Total Portfolio Value at the prices known now (Σ balance × price), moved up or down against the total
     * before it; an unchanged total keeps its last move. Exact decimal arithmetic, bound with the chart.
     */
    recomputeTotal: unboundAction('recomputeTotal'),
  },
  guards: {
    /** Realtime cannot reach the page now: only then is a timer what keeps the balances current. */
    isOffline: stateIn('#wallets.connection.offline'),
  },
  delays: {
    /**
     * The fallback for when the channel cannot tell of a change (no socket, or it is down): the balances are
     * read again this often, and a first read that failed is tried again. Never a timer while the channel is live.
     */
    refreshInterval: 15_000,
  },
}).createMachine({
  id: 'wallets',
  description: 'My Wallets: balances at live prices, the Total Portfolio Value and its move, and the show/hide toggle.',
  context: ({ input }) => ({ username: input.username, wallets: null, prices: {}, total: null, totalDirection: null }),
  type: 'parallel',
  states: {
    balances: {
      invoke: userChannel('No live balances: they are read again on the refresh interval, as while offline.'),
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          invoke: readingBalances('loadWallets', { quiet: false }, 'live', {
            target: 'failed',
            description: 'The loading flag clears; the shared toast already said why.',
          }),
          on: readAgainOn(walletTold, { target: 'loading', reenter: true }),
        },
        failed: {
          description: 'Nothing to show yet: the list is asked for again after the refresh interval, or at once when the channel tells of a change.',
          after: { refreshInterval: { target: 'loading' } },
          on: readAgainOn(walletTold, { target: 'loading' }),
        },
        live: {
          description:
            'The cards show: prices follow the coin_price channel, and each new price recomputes the total. The ' +
            'subscription stays open while the balances are read again.',
          invoke: {
            id: 'livePrices',
            src: 'livePrices',
            input: walletPrices,
            onSnapshot: {
              description: 'A price moved (or the feed changed state): the total is recomputed at the prices now known.',
              actions: [
                { type: 'keepPrices', params: ({ event }) => ({ prices: event.snapshot.context.prices }) },
                'recomputeTotal',
              ],
            },
          },
          initial: 'current',
          states: {
            current: {
              description: 'The balances as last read, until the channel says they changed.',
              on: readAgainOn(walletTold),
              after: {
                refreshInterval: [
                  { guard: 'isOffline', target: 'refreshing', description: 'Realtime cannot reach the page: the balances are read again on the timer.' },
                  { target: 'current', reenter: true, description: 'Live: nothing to read; the channel says when there is.' },
                ],
              },
            },
            refreshing: {
              description: 'The balances are read again (a deposit credited since shows); the cards stay as they are meanwhile.',
              invoke: readingBalances('refreshWallets', { quiet: true }, 'current', {
                target: 'current',
                description: 'The last balances stay; the next change told (or, offline, the next interval) tries again.',
              }),
              on: readAgainOn(walletTold, { reenter: true }),
            },
          },
        },
      },
    },
    visibility: {
      description: 'The show/hide toggle: hidden masks balances, USD values and the total as dots.',
      initial: 'shown',
      states: {
        shown: { on: { 'balances.toggle': { target: 'hidden' } } },
        hidden: { on: { 'balances.toggle': { target: 'shown' } } },
      },
    },
    connection: socketRegion(
      'Whether the trader’s own channel can reach the page: only while it cannot are the balances read on a timer.',
      'Live: a change to the balances is told on the channel; no polling.',
      'No realtime (none configured, or the socket is down): the balances are read again every refresh interval.',
    ),
  },
});

export type WalletsLogic = typeof walletsMachine;
