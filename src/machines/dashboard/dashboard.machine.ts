import { assign, setup } from 'xstate';
import type { Overview, WalletItem } from '../../../contracts/index.ts';
import type { LivePricesLogic } from '../livePrices/livePrices.machine.ts';
import { readInto } from '../shared/reading.ts';
import { unboundChart, unboundPromise } from '../shared/unbound.ts';
import { walletPrices } from '../shared/walletPrices.ts';

export type DashboardContext = { overview: Overview | null; wallets: WalletItem[] | null };
export type DashboardEvent = { type: 'overview.refresh' };

/**
 * The dashboard: the figures of `user/overview/`, and the trader's wallets (`user/wallet/` list) whose prices
 * then follow the coin_price channel (the live prices panel, and Total Balance at those prices).
 */
export const dashboardMachine = setup({
  types: { context: {} as DashboardContext, events: {} as DashboardEvent },
  actors: {
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
  context: { overview: null, wallets: null },
  type: 'parallel',
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
