import { assertEvent, assign, setup } from 'xstate';
import type { Coin, WalletHistory, WalletTransaction } from '../../../contracts/index.ts';
import type { WalletHistoryFilters } from '../../services/wallets.ts';
import type { Notice } from '../shared/notify.ts';
import { unboundPromise } from '../shared/unbound.ts';
import { coinChoices, filterAndPage, filterBy, loadingPage, pageGuards, pagedList, type HistoryList, type HistoryListEvent } from '../shared/pagedList.ts';

export type { WalletHistoryFilters };
export const noTransactionFilters: WalletHistoryFilters = { transType: '', status: '', coinId: '' };

export type WalletHistoryContext = HistoryList<WalletHistoryFilters> & { transactions: WalletTransaction[] };
export type WalletHistoryEvent =
  | { type: 'filter.transType'; value: WalletHistoryFilters['transType'] }
  | HistoryListEvent<WalletHistoryFilters>
  | { type: 'txid.copy'; txid: string };

export const TXID_COPIED = 'Transaction ID copied to clipboard!';

type PageLoaded = { event: { output: WalletHistory } };
/** A page arrived (a load or a refresh): its rows show, and it is asked for again shortly while one of them is pending. */
const keepPage = [
  {
    guard: { type: 'hasPendingRow', params: ({ event }: PageLoaded) => ({ transactions: event.output.transactions }) },
    target: 'watching',
    actions: { type: 'keepTransactions', params: ({ event }: PageLoaded) => ({ history: event.output }) },
  },
  { target: 'idle', actions: { type: 'keepTransactions', params: ({ event }: PageLoaded) => ({ history: event.output }) } },
] as const;

/** Recent Transactions (/wallets/transactions): type, status and coin filters with Previous/Next pages. */
export const walletHistoryMachine = setup({
  types: { context: {} as WalletHistoryContext, events: {} as WalletHistoryEvent },
  actors: {
    loadCoins: unboundPromise<Coin[]>('loadCoins'),
    // The service turns the screen's filters into the call's query (only the set ones).
    loadTransactions: unboundPromise<WalletHistory, { page: number; filters: WalletHistoryFilters }>('loadTransactions'),
    copyText: unboundPromise<void, { text: string }>('copyText'),
  },
  delays: {
    /** How often a page with a pending row is asked for again, so the chain's confirmations show. */
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
  },
}).createMachine({
  id: 'walletHistory',
  description: "The signed-in trader's deposits and withdrawals, newest first.",
  context: { coins: [], filters: noTransactionFilters, page: 1, transactions: [], paginator: null },
  type: 'parallel',
  states: {
    coins: coinChoices(),
    list: {
      initial: 'loading',
      on: {
        'filter.transType': filterBy('transType'),
        ...filterAndPage(),
      },
      states: {
        loading: loadingPage('loadTransactions', keepPage),
        idle: {
          description: 'Nothing on this page is pending: it is not asked for again until the trader filters or pages.',
        },
        watching: {
          description:
            'A row on this page is pending (a deposit waiting for its confirmation, a withdrawal for the chain): the page is asked for again shortly, so it turns completed without a reload.',
          after: { pendingRefresh: { target: 'refreshing' } },
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
                'The refresh stops: the shared toast said why once (not every few seconds); the rows shown stay, and a filter or page loads again.',
            },
          },
        },
      },
    },
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
