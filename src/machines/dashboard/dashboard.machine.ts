import { assign, setup } from 'xstate';
import type { Overview, WalletItem } from '../../../contracts/index.ts';
import type { LivePricesLogic } from '../livePrices/livePrices.machine.ts';
import { liveActors, userChannel, type WalletChannelEvent } from '../shared/liveRegions.ts';
import { readInto } from '../shared/reading.ts';
import { unboundChart, unboundPromise } from '../shared/unbound.ts';
import { walletPrices } from '../shared/walletPrices.ts';

export type DashboardInput = { username: string };
export type DashboardContext = { username: string; overview: Overview | null; wallets: WalletItem[] | null };
export type DashboardEvent = { type: 'overview.refresh' } | WalletChannelEvent;

/**
 * The dashboard: the figures of `user/overview/`, and the trader's wallets (`user/wallet/` list) whose prices
 * then follow the coin_price channel (the live prices panel, and Total Balance at those prices).
 */
export const dashboardMachine = setup({
  types: { context: {} as DashboardContext, events: {} as DashboardEvent, input: {} as DashboardInput },
  actors: {
    /** `userChannel` brings `realtime.wallet.changed` (and `realtime.subscribed`, which the dashboard leaves alone). */
    userChannel: liveActors.userChannel,
    loadOverview: unboundPromise<Overview | null>('loadOverview'),
    loadWallets: unboundPromise<WalletItem[]>('loadWallets'),
    // The shared live prices chart (livePrices.machine.ts), declared by its type: this file stands alone.
    livePrices: unboundChart<LivePricesLogic>('livePrices'),
  },
  actions: {
    keepOverview: assign((_, params: { overview: Overview | null }) => ({ overview: params.overview })),
    keepWallets: assign((_, params: { wallets: WalletItem[] }) => ({ wallets: params.wallets })),
  },
}).createMachine({
  id: 'dashboard',
  description: 'Greeting, four stat cards, the live prices of the trader’s coins and the recent trades.',
  context: ({ input }) => ({ username: input.username, overview: null, wallets: null }),
  type: 'parallel',
  invoke: userChannel('No live Total Balance: the figures are those of the last read until the page is opened again.'),
  on: {
    'realtime.wallet.changed': {
      target: ['.overview.loading', '.wallets.loading'],
      description:
        'A balance of the trader changed (a deposit credited, a trade’s escrow moved, a withdrawal): the overview and the wallets are read again together, a read on its way starting over, so Total Balance shows it at once.',
    },
  },
  states: {
    overview: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          invoke: readInto('loadOverview', ['keepOverview', 'overview'], {
            done: 'ready',
            failed: 'ready',
            failure: 'Overview failure yields null: the cards show 0.',
          }),
        },
        ready: {
          on: { 'overview.refresh': { target: 'loading' } },
        },
      },
    },
    wallets: {
      description: 'Balances and starting prices; then the prices follow the coin_price channel.',
      initial: 'loading',
      states: {
        loading: {
          invoke: readInto('loadWallets', ['keepWallets', 'wallets'], {
            done: 'live',
            failed: 'unavailable',
            failure: 'No live prices panel; Total Balance stays the overview’s figure.',
          }),
        },
        live: {
          invoke: {
            id: 'livePrices',
            src: 'livePrices',
            input: walletPrices,
          },
          on: {
            'overview.refresh': {
              target: 'loading',
              description:
                'The wallets reload with the overview, so Total Balance starts again from figures of the same moment.',
            },
          },
        },
        unavailable: {
          on: { 'overview.refresh': { target: 'loading' } },
        },
      },
    },
  },
});
