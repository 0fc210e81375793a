import { assertEvent, assign, setup, stateIn } from 'xstate';
import type { Coin, WalletHistory, WalletTransaction } from '../../../contracts/index.ts';
import type { WalletHistoryFilters } from '../../services/wallets.ts';
import { liveActors, readAgainOn, socketRegion, userChannel, walletTold, type ConnectionEvent, type WalletChannelEvent } from '../shared/liveRegions.ts';
import type { Notice } from '../shared/notify.ts';
import { unboundPromise } from '../shared/unbound.ts';
import { coinChoices, filterAndPage, filterBy, loadingPage, pageGuards, pagedList, type HistoryList, type HistoryListEvent } from '../shared/pagedList.ts';

export type { WalletHistoryFilters };
export const noTransactionFilters: WalletHistoryFilters = { transType: '', status: '', coinId: '' };

export type WalletHistoryInput = { username: string };
export type WalletHistoryContext = HistoryList<WalletHistoryFilters> & {
  /** Whose own channel tells of a change to the history. */
  username: string;
  transactions: WalletTransaction[];
};
export type WalletHistoryEvent =
  | { type: 'filter.transType'; value: WalletHistoryFilters['transType'] }
  | HistoryListEvent<WalletHistoryFilters>
  | { type: 'txid.copy'; txid: string }
  | WalletChannelEvent
  | ConnectionEvent;

export const TXID_COPIED = 'Transaction ID copied to clipboard!';

type PageLoaded = { event: { output: WalletHistory } };
/** A page arrived (a load or a refresh): its rows show, and while one of them is pending it is watched (`watching`). */
const keepPage = [
  {
    guard: { type: 'hasPendingRow', params: ({ event }: PageLoaded) => ({ transactions: event.output.transactions }) },
    target: 'watching',
    actions: { type: 'keepTransactions', params: ({ event }: PageLoaded) => ({ history: event.output }) },
  },
  { target: 'idle', actions: { type: 'keepTransactions', params: ({ event }: PageLoaded) => ({ history: event.output }) } },
] as const;

/**
 * Recent Transactions (/wallets/transactions): type, status and coin filters with Previous/Next pages; the page
 * shown is read again the moment the trader's own channel says a balance or history row changed.
 */
export const walletHistoryMachine = setup({
  types: { context: {} as WalletHistoryContext, events: {} as WalletHistoryEvent, input: {} as WalletHistoryInput },
  actors: {
    /** `userChannel` brings `realtime.wallet.changed` and `realtime.subscribed`. */
    ...liveActors,
    loadCoins: unboundPromise<Coin[]>('loadCoins'),
    // The service turns the screen's filters into the call's query (only the set ones).
    loadTransactions: unboundPromise<WalletHistory, { page: number; filters: WalletHistoryFilters }>('loadTransactions'),
    copyText: unboundPromise<void, { text: string }>('copyText'),
  },
  delays: {
    /**
     * The fallback for when the channel cannot tell of a change (no socket, or it is down): how often a page
     * with a pending row is asked for again, so its completion shows. Never a timer while the channel is live.
     */
    pendingRefresh: 5000,
  },
  actions: {
    keepCoins: assign((_, params: { coins: Coin[] }) => ({ coins: params.coins })),
    keepTransactions: assign((_, params: { history: WalletHistory }) => ({
      transactions: params.history.transactions,
      paginator: params.history.paginator,
    })),
    setFilter: assign(({ context }, params: Partial<WalletHistoryFilters>) => pagedList.filter(context, params)),
    clearFilters: assign(() => pagedList.cleared(noTransactionFilters)),
    nextPage: assign(({ context }) => pagedList.next(context)),
    previousPage: assign(({ context }) => pagedList.previous(context)),
    notify: (_, _params: Notice) => {},
  },
  guards: {
    ...pageGuards,
    hasPendingRow: (_, params: { transactions: WalletTransaction[] }) => params.transactions.some((row) => row.status === 'pending'),
    hasTxid: (_, params: { txid: string }) => params.txid.trim() !== '',
    /** Realtime cannot reach the page now. */
    isOffline: stateIn('#walletHistory.connection.offline'),
  },
}).createMachine({
  id: 'walletHistory',
  description: "The signed-in trader's deposits and withdrawals, newest first.",
  context: ({ input }) => ({ username: input.username, coins: [], filters: noTransactionFilters, page: 1, transactions: [], paginator: null }),
  type: 'parallel',
  states: {
    coins: coinChoices(),
    list: {
      invoke: userChannel('No live history: a page with a pending row is read again on the timer, as while offline.'),
      initial: 'loading',
      on: {
        'filter.transType': filterBy('transType'),
        ...filterAndPage(),
      },
      states: {
        loading: { ...loadingPage('loadTransactions', keepPage), on: readAgainOn(walletTold, { target: 'loading', reenter: true }) },
        idle: {
          description: 'Nothing on this page is pending: it is read again when the channel tells of a change (a new deposit), or when the trader filters or pages.',
          on: readAgainOn(walletTold),
        },
        watching: {
          description:
            'A row on this page is pending (a deposit waiting for its confirmation, a withdrawal for the chain): the channel tells when it changes, so it turns completed without a reload.',
          on: readAgainOn(walletTold),
          after: {
            pendingRefresh: [
              { guard: 'isOffline', target: 'refreshing', description: 'Realtime cannot reach the page: the page is read again on the timer.' },
              { target: 'watching', reenter: true, description: 'Live: nothing to read; the channel says when there is.' },
            ],
          },
        },
        refreshing: {
          description: 'The same page and filters again, in the background: no busy flag, the rows stay until the answer replaces them.',
          invoke: {
            id: 'refreshTransactions',
            src: 'loadTransactions',
            input: ({ context }) => ({ page: context.page, filters: context.filters }),
            onDone: keepPage,
            onError: {
              target: 'idle',
              description:
                'The refresh stops: the shared toast said why once (not every few seconds); the rows shown stay, and a change told, a filter or a page reads again.',
            },
          },
          on: readAgainOn(walletTold, { reenter: true }),
        },
      },
    },
    connection: socketRegion(
      'Whether the trader’s own channel can reach the page: only while it cannot is a pending page read on a timer.',
      'Live: a change to the history is told on the channel; no polling.',
      'No realtime (none configured, or the socket is down): a page with a pending row is read again every few seconds.',
    ),
    clipboard: {
      description: "Copying a row's transaction ID.",
      initial: 'idle',
      states: {
        idle: {
          on: {
            'txid.copy': {
              guard: { type: 'hasTxid', params: ({ event }) => ({ txid: event.txid }) },
              target: 'copying',
              description: 'A row without a txid (waiting for its broadcast, or internal) has nothing to copy.',
            },
          },
        },
        copying: {
          invoke: {
            id: 'copyTxid',
            src: 'copyText',
            input: ({ event }) => {
              assertEvent(event, 'txid.copy');
              return { text: event.txid };
            },
            onDone: { target: 'idle', actions: { type: 'notify', params: { title: TXID_COPIED, type: 'success' } } },
            onError: {
              target: 'idle',
              description: 'The browser refused the clipboard (no permission, not a secure page).',
              actions: {
                type: 'notify',
                params: {
                  title: 'Could not copy the transaction ID',
                  description: 'The browser refused the clipboard; the full ID shows when you point at it.',
                  type: 'error',
                },
              },
            },
          },
        },
      },
    },
  },
});
