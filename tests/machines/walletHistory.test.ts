import { SimulatedClock, createActor } from 'xstate';
import { realtimeEvents, userChannelName } from '../../contracts/index.ts';
import { walletChanges, watchingConnection } from '../../src/machines/shared/channels.ts';
import type { ConnectionState } from '../../src/services/realtime.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { bindWalletHistory } from '../../src/machines/walletHistory/walletHistory.actors.ts';
import { walletHistoryMachine, type WalletHistoryEvent } from '../../src/machines/walletHistory/walletHistory.machine.ts';
import {
  selectCanNext,
  selectCanPrevious,
  selectCoins,
  selectFilters,
  selectHasLoaded,
  selectIsLoading,
  selectIsWatching,
  selectTransactions,
} from '../../src/machines/walletHistory/walletHistory.selectors.ts';
import type { Api } from '../../src/services/api.ts';
import type { MarketService } from '../../src/services/market.ts';
import { createWalletService, type WalletService } from '../../src/services/wallets.ts';
import { fakeRealtime } from '../support/chat.ts';
import { flush, scriptedActors } from '../support/machines.ts';
import {
  btcTxid,
  chosenTransactions,
  coins,
  noTransactions,
  pendingPage,
  transactionPage,
  transactionRow,
} from '../support/transaction-fixtures.ts';

/** The fallback's refresh period for a page with a pending row, written out here rather than read from the chart. */
const REFRESH_MS = 5000;
const ME = 'carol';
const OWN_CHANNEL = userChannelName(ME);

/**
 * Recent Transactions with every call faked, the socket and the trader's own channel on a fake connection (by
 * default offline: the timer is then what keeps a pending page current) and its timer on a simulated clock; by
 * default the coins and the first of three pages (nothing pending) have arrived.
 */
async function startHistory({ settle = true, connection = 'offline' as ConnectionState } = {}) {
  const fakes = scriptedActors(['loadCoins', 'loadTransactions', 'copyText']);
  const realtime = fakeRealtime(connection);
  const notices: Notice[] = [];
  const clock = new SimulatedClock();
  const actors = { ...fakes.actors, userChannel: walletChanges(realtime.service), watchConnection: watchingConnection(realtime.service) };
  const actor = createActor(
    walletHistoryMachine.provide({ actors: actors as never, actions: { notify: (_, notice) => void notices.push(notice) } }),
    { clock, input: { username: ME } },
  ).start();
  const send = (event: WalletHistoryEvent) => actor.send(event);
  const snapshot = () => actor.getSnapshot();
  /** Every history call, first loads and background refreshes alike, in order. */
  const loads = () => fakes.calls.filter((call) => call.id === 'loadTransactions' || call.id === 'refreshTransactions').map((call) => call.input);
  const refreshes = () => fakes.calls.filter((call) => call.id === 'refreshTransactions').map((call) => call.input);
  const coinLoads = () => fakes.calls.filter((call) => call.id === 'loadCoins').length;
  if (settle) {
    await fakes.resolve('loadCoins', coins);
    await fakes.resolve('loadTransactions', transactionPage(1, 3));
  }
  /** The trader's own channel says a balance or history row changed. */
  const told = () => realtime.emit(OWN_CHANNEL, realtimeEvents.wallet, {});
  return { actor, fakes, notices, clock, realtime, send, snapshot, loads, refreshes, coinLoads, told };
}

describe('Recent Transactions chart', () => {
  it('loads the coins and page 1 without filters side by side; busy until the transactions arrive', async () => {
    const { fakes, snapshot, loads, coinLoads } = await startHistory({ settle: false });
    expect(coinLoads()).toBe(1);
    expect(loads()).toEqual([{ page: 1, filters: chosenTransactions() }]);
    expect(selectIsLoading(snapshot())).toBe(true);
    expect(selectHasLoaded(snapshot())).toBe(false);

    await fakes.resolve('loadTransactions', transactionPage(1, 3));
    expect(selectIsLoading(snapshot())).toBe(false);
    expect(selectHasLoaded(snapshot())).toBe(true);
    expect(selectTransactions(snapshot())).toEqual(transactionPage(1, 3).transactions);
    expect(selectCoins(snapshot()), 'the coins are still on their way').toEqual([]);
    await fakes.resolve('loadCoins', coins);
    expect(selectCoins(snapshot())).toEqual(coins);
  });

  it('each filter change goes back to page 1 and reloads the transactions, never the coins', async () => {
    const { fakes, send, snapshot, loads, coinLoads } = await startHistory();
    send({ type: 'page.next' });
    await fakes.resolve('loadTransactions', transactionPage(2, 3));
    expect(snapshot().context.page).toBe(2);

    send({ type: 'filter.transType', value: 'withdrawal' });
    expect(snapshot().context.page).toBe(1);
    expect(selectIsLoading(snapshot())).toBe(true);
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTransactions({ transType: 'withdrawal' }) });
    await fakes.resolve('loadTransactions', transactionPage(1, 3));
    send({ type: 'page.next' });
    await fakes.resolve('loadTransactions', transactionPage(2, 3));

    send({ type: 'filter.status', value: 'cancelled' });
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTransactions({ transType: 'withdrawal', status: 'cancelled' }) });
    send({ type: 'filter.coin', value: '2' });
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTransactions({ transType: 'withdrawal', status: 'cancelled', coinId: '2' }) });
    expect(selectFilters(snapshot())).toEqual({ transType: 'withdrawal', status: 'cancelled', coinId: '2' });
    expect(coinLoads()).toBe(1);
  });

  it('a filter change drops the load in flight: its late answer is ignored', async () => {
    const { fakes, send, snapshot } = await startHistory({ settle: false });
    send({ type: 'filter.transType', value: 'deposit' });
    await fakes.resolveCall(1, transactionPage(1, 3)); // the unfiltered first load
    expect(selectHasLoaded(snapshot())).toBe(false);
    expect(selectIsLoading(snapshot())).toBe(true);
    await fakes.resolve('loadTransactions', noTransactions);
    expect(selectTransactions(snapshot())).toEqual([]);
  });

  it('Clear All forgets every filter, goes back to page 1 and reloads with no filters', async () => {
    const { fakes, send, snapshot, loads, coinLoads } = await startHistory();
    send({ type: 'filter.transType', value: 'deposit' });
    send({ type: 'filter.coin', value: '1' });
    await fakes.resolve('loadTransactions', transactionPage(1, 2));
    send({ type: 'page.next' });
    await fakes.resolve('loadTransactions', transactionPage(2, 2));

    send({ type: 'filters.clear' });
    expect(selectFilters(snapshot())).toEqual(chosenTransactions());
    expect(snapshot().context.page).toBe(1);
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTransactions() });
    expect(coinLoads()).toBe(1);
  });

  it('pages only where the paginator allows, to the pages it names', async () => {
    const { fakes, send, snapshot, loads } = await startHistory({ settle: false });
    expect(selectCanNext(snapshot()), 'no paginator yet').toBe(false);
    send({ type: 'page.next' });
    send({ type: 'page.previous' });
    expect(loads()).toHaveLength(1);

    await fakes.resolve('loadTransactions', transactionPage(1, 3));
    expect(selectCanPrevious(snapshot())).toBe(false);
    expect(selectCanNext(snapshot())).toBe(true);
    send({ type: 'page.previous' });
    expect(loads()).toHaveLength(1);
    send({ type: 'page.next' });
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenTransactions() });

    await fakes.resolve('loadTransactions', transactionPage(2, 3));
    send({ type: 'page.next' });
    await fakes.resolve('loadTransactions', transactionPage(3, 3));
    expect(selectCanNext(snapshot())).toBe(false);
    expect(selectCanPrevious(snapshot())).toBe(true);
    send({ type: 'page.next' });
    expect(loads()).toHaveLength(3);
    send({ type: 'page.previous' });
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenTransactions() });

    // The server decides where "next" goes: a paginator that skips is followed.
    await fakes.resolve('loadTransactions', { ...transactionPage(2, 3), paginator: { prev: true, next: true, previous_page: 1, next_page: 7 } });
    send({ type: 'page.next' });
    expect(loads().at(-1)).toEqual({ page: 7, filters: chosenTransactions() });
  });

  it('a failed load clears the busy state without a message; a failed coins call leaves no coin choices', async () => {
    const { fakes, send, snapshot, notices, clock, loads } = await startHistory({ settle: false });
    await fakes.reject('loadCoins', new Error('An unknown error occurred'));
    await fakes.reject('loadTransactions', new Error('Internet server error'));
    expect(selectIsLoading(snapshot())).toBe(false);
    expect(selectCoins(snapshot())).toEqual([]);
    expect(selectHasLoaded(snapshot())).toBe(false);
    expect(notices, 'the shared error handling speaks, not the chart').toEqual([]);
    clock.increment(REFRESH_MS * 3);
    expect(loads(), 'a failure is not retried on a timer').toHaveLength(1);
    send({ type: 'filter.transType', value: 'deposit' });
    expect(selectIsLoading(snapshot()), 'filters still work').toBe(true);
  });
});

describe('Recent Transactions chart: live on the trader’s own channel', () => {
  it('reads the page again the moment the channel says `wallet`, with the same page and filters, and never on a timer while live', async () => {
    const { fakes, send, snapshot, clock, realtime, refreshes, told } = await startHistory({ settle: false, connection: 'connected' });
    expect(realtime.listeners(OWN_CHANNEL)).toBe(1);
    await fakes.resolve('loadCoins', coins);
    send({ type: 'filter.coin', value: '1' });
    await fakes.resolve('loadTransactions', pendingPage(1, 2));
    expect(selectIsWatching(snapshot()), 'pending rows update by themselves').toBe(true);
    clock.increment(REFRESH_MS * 4);
    expect(refreshes(), 'live: no timer').toEqual([]);

    told();
    expect(refreshes()).toEqual([{ page: 1, filters: chosenTransactions({ coinId: '1' }) }]);
    expect(selectIsLoading(snapshot()), 'a refresh is not a load: no busy flag').toBe(false);
    const confirmed = transactionPage(1, 2, { status: 'completed' });
    await fakes.resolve('refreshTransactions', confirmed);
    expect(selectTransactions(snapshot())).toEqual(confirmed.transactions);

    told();
    expect(refreshes(), 'a page with nothing pending hears of a new deposit too').toHaveLength(2);
    told();
    expect(refreshes(), 'told again during the read: it starts over').toHaveLength(3);
    expect(fakes.isRunning('refreshTransactions')).toBe(true);
  });

  it('a change told while the page loads, or a (re)join, reads it again', async () => {
    const { fakes, realtime, loads, told } = await startHistory({ settle: false, connection: 'connected' });
    told();
    expect(loads(), 'the load on its way starts over').toHaveLength(2);
    await fakes.resolve('loadTransactions', transactionPage(1, 3));
    realtime.accept(OWN_CHANNEL);
    expect(loads()).toHaveLength(3);
  });

  it('goes back to the timer while the socket is down, and off it when it is back', async () => {
    const { fakes, clock, realtime, refreshes } = await startHistory({ settle: false, connection: 'connected' });
    await fakes.resolve('loadTransactions', pendingPage(1, 1));
    realtime.setState('offline');
    clock.increment(REFRESH_MS);
    expect(refreshes()).toHaveLength(1);
    await fakes.resolve('refreshTransactions', pendingPage(1, 1));
    realtime.setState('connected');
    clock.increment(REFRESH_MS * 3);
    expect(refreshes()).toHaveLength(1);
  });

  it('closing the screen ends the subscription', async () => {
    const { actor, realtime } = await startHistory();
    actor.stop();
    expect(realtime.listeners(OWN_CHANNEL)).toBe(0);
  });
});

describe('Recent Transactions chart: pending rows refresh while the channel cannot reach the page', () => {
  it('a page with a pending row is asked for again every 5 s, in the background, until nothing on it is pending', async () => {
    const { fakes, send, snapshot, clock, loads, refreshes } = await startHistory({ settle: false });
    send({ type: 'filter.coin', value: '1' });
    await fakes.resolve('loadTransactions', pendingPage(1, 2));
    send({ type: 'page.next' });
    await fakes.resolve('loadTransactions', pendingPage(2, 2));
    expect(selectIsWatching(snapshot())).toBe(true);
    const asked = loads().length;

    clock.increment(REFRESH_MS - 1);
    expect(loads(), 'not before 5 s').toHaveLength(asked);
    clock.increment(1);
    expect(refreshes(), 'the same page with the same filters').toEqual([{ page: 2, filters: chosenTransactions({ coinId: '1' }) }]);
    expect(selectIsLoading(snapshot()), 'a refresh is not a load: no busy flag').toBe(false);
    expect(selectTransactions(snapshot()), 'the rows stay while it runs').toEqual(pendingPage(2, 2).transactions);

    await fakes.resolve('refreshTransactions', pendingPage(2, 2));
    clock.increment(REFRESH_MS);
    expect(refreshes(), 'still pending: again').toHaveLength(2);

    const confirmed = transactionPage(2, 2, { status: 'completed' });
    await fakes.resolve('refreshTransactions', confirmed);
    expect(selectTransactions(snapshot())).toEqual(confirmed.transactions);
    expect(selectIsWatching(snapshot())).toBe(false);
    clock.increment(REFRESH_MS * 4);
    expect(refreshes(), 'nothing pending: no more refreshes').toHaveLength(2);
  });

  it('any pending row counts, wherever it is on the page; a page of completed and cancelled rows is not refreshed', async () => {
    const { fakes, send, clock, snapshot, refreshes } = await startHistory({ settle: false });
    const mixed = { ...transactionPage(1, 1), transactions: [transactionRow(1), transactionRow(2, { status: 'cancelled' }), transactionRow(3, { status: 'pending', trans_type: 'withdrawal', txid: null })] };
    await fakes.resolve('loadTransactions', mixed);
    expect(selectIsWatching(snapshot())).toBe(true);
    clock.increment(REFRESH_MS);
    expect(refreshes()).toHaveLength(1);

    send({ type: 'filters.clear' });
    await fakes.resolve('loadTransactions', { ...mixed, transactions: mixed.transactions.slice(0, 2) });
    clock.increment(REFRESH_MS * 2);
    expect(refreshes()).toHaveLength(1);
  });

  it('a filter or page change while waiting cancels the refresh; the new page decides whether to watch', async () => {
    const { fakes, send, clock, refreshes, loads } = await startHistory({ settle: false });
    await fakes.resolve('loadTransactions', pendingPage(1, 2));
    clock.increment(REFRESH_MS - 1);
    send({ type: 'filter.status', value: 'completed' });
    clock.increment(1);
    expect(refreshes(), 'the old timer was dropped').toEqual([]);
    await fakes.resolve('loadTransactions', transactionPage(1, 2));
    clock.increment(REFRESH_MS * 2);
    expect(refreshes()).toEqual([]);
    expect(loads()).toHaveLength(2);
  });

  it('a filter change during a refresh drops it: its late answer changes nothing', async () => {
    const { fakes, send, snapshot, clock } = await startHistory({ settle: false });
    await fakes.resolve('loadTransactions', pendingPage(1, 1));
    clock.increment(REFRESH_MS);
    expect(fakes.isRunning('refreshTransactions')).toBe(true);
    send({ type: 'filter.transType', value: 'withdrawal' });
    expect(fakes.isRunning('refreshTransactions')).toBe(false);
    expect(selectIsLoading(snapshot())).toBe(true);
    await fakes.resolveCall(2, transactionPage(1, 1)); // the refresh, answered after it was dropped
    expect(selectTransactions(snapshot()), 'the stale refresh is ignored').toEqual(pendingPage(1, 1).transactions);
    await fakes.resolve('loadTransactions', noTransactions);
    expect(selectTransactions(snapshot())).toEqual([]);
  });

  it('a failed refresh stops refreshing and keeps the rows shown, without a message of its own', async () => {
    const { fakes, snapshot, clock, refreshes, notices } = await startHistory({ settle: false });
    await fakes.resolve('loadTransactions', pendingPage(1, 1));
    clock.increment(REFRESH_MS);
    await fakes.reject('refreshTransactions', new Error('Internet server error'));
    expect(selectTransactions(snapshot())).toEqual(pendingPage(1, 1).transactions);
    expect(selectIsLoading(snapshot())).toBe(false);
    expect(selectIsWatching(snapshot())).toBe(false);
    clock.increment(REFRESH_MS * 3);
    expect(refreshes()).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('closing the screen (stopping the actor) stops the refresh', async () => {
    const { actor, fakes, clock, loads } = await startHistory({ settle: false });
    await fakes.resolve('loadTransactions', pendingPage(1, 1));
    actor.stop();
    clock.increment(REFRESH_MS * 3);
    expect(loads()).toHaveLength(1);
  });
});

describe('Recent Transactions chart: copying a txid', () => {
  it('copies the whole txid and says "Transaction ID copied to clipboard!"', async () => {
    const { fakes, send, notices } = await startHistory();
    send({ type: 'txid.copy', txid: btcTxid });
    expect(fakes.calls.at(-1)).toEqual({ id: 'copyTxid', input: { text: btcTxid } });
    expect(notices, 'only once the clipboard took it').toEqual([]);
    await fakes.resolve('copyTxid', undefined);
    expect(notices).toEqual([{ title: 'Transaction ID copied to clipboard!', type: 'success' }]);
  });

  it('a refused clipboard says so in a sentence; nothing else changes', async () => {
    const { fakes, send, snapshot, notices } = await startHistory();
    const before = snapshot().context;
    send({ type: 'txid.copy', txid: btcTxid });
    await fakes.reject('copyTxid', new DOMException('Write permission denied.', 'NotAllowedError'));
    expect(notices).toEqual([
      {
        title: 'Could not copy the transaction ID',
        description: 'The browser refused the clipboard; the full ID shows when you point at it.',
        type: 'error',
      },
    ]);
    expect(snapshot().context).toEqual(before);
    send({ type: 'txid.copy', txid: btcTxid });
    expect(fakes.isRunning('copyTxid'), 'it can be tried again').toBe(true);
  });

  it('an empty txid is not copied; a second click while copying is not a second copy', async () => {
    const { fakes, send, notices } = await startHistory();
    send({ type: 'txid.copy', txid: '  ' });
    expect(fakes.calls.filter((call) => call.id === 'copyTxid')).toEqual([]);
    send({ type: 'txid.copy', txid: btcTxid });
    send({ type: 'txid.copy', txid: 'another' });
    expect(fakes.calls.filter((call) => call.id === 'copyTxid')).toEqual([{ id: 'copyTxid', input: { text: btcTxid } }]);
    await fakes.resolve('copyTxid', undefined);
    expect(notices).toHaveLength(1);
  });

  it('copying does not disturb the list: a load in flight still lands', async () => {
    const { fakes, send, snapshot } = await startHistory({ settle: false });
    send({ type: 'txid.copy', txid: btcTxid });
    await fakes.resolve('loadTransactions', transactionPage(1, 1));
    expect(selectTransactions(snapshot())).toEqual(transactionPage(1, 1).transactions);
    await fakes.resolve('copyTxid', undefined);
  });
});

describe('bindWalletHistory', () => {
  it('loads the coins from base/coins/, the history through the wallet service, and copies and toasts through deps', async () => {
    const market = { coins: vi.fn(async () => coins) } as unknown as MarketService;
    const history = vi.fn(async () => transactionPage(1, 1));
    const copyText = vi.fn(async () => {});
    const notify = vi.fn();
    const realtime = fakeRealtime();
    const deps = { market, wallets: { history } as unknown as WalletService, copyText, notify, realtime: realtime.service } as unknown as FlowDeps;
    const actor = createActor(bindWalletHistory(deps), { input: { username: ME } }).start();
    expect(realtime.listeners(OWN_CHANNEL), 'the binding listens on the trader’s own channel').toBe(1);
    await flush();
    actor.send({ type: 'filter.coin', value: '2' });
    await flush();
    actor.send({ type: 'txid.copy', txid: btcTxid });
    await flush();
    expect(market.coins).toHaveBeenCalledTimes(1);
    expect(history.mock.calls).toEqual([[{ page: 1, filters: chosenTransactions() }], [{ page: 1, filters: chosenTransactions({ coinId: '2' }) }]]);
    expect(copyText).toHaveBeenCalledWith(btcTxid);
    expect(notify).toHaveBeenCalledWith({ title: 'Transaction ID copied to clipboard!', type: 'success' });
    expect(actor.getSnapshot().context.coins).toEqual(coins);
    actor.stop();
  });

  it('asks user/wallet/ for each page with trans_type, status and coin__id under filters, only when set', async () => {
    const sent: { how: 'read' | 'write'; path: string; body: unknown; options: unknown }[] = [];
    const respond = (how: 'read' | 'write') => async (path: string, body: unknown, _schema: unknown, options?: unknown) => {
      sent.push({ how, path, body, options });
      return transactionPage(1, 2);
    };
    const api = { read: respond('read'), write: respond('write') } as unknown as Api;
    const market = { coins: vi.fn(async () => coins) } as unknown as MarketService;
    const deps = { market, wallets: createWalletService(api), realtime: fakeRealtime().service } as FlowDeps;
    const actor = createActor(bindWalletHistory(deps), { input: { username: ME } }).start();
    await flush();
    actor.send({ type: 'filter.transType', value: 'withdrawal' });
    actor.send({ type: 'filter.status', value: 'pending' });
    actor.send({ type: 'filter.coin', value: '2' });
    await flush();
    actor.send({ type: 'page.next' });
    await flush();
    actor.send({ type: 'filter.transType', value: '' });
    actor.send({ type: 'filters.clear' });
    await flush();
    expect(sent).toStrictEqual(
      [
        { type: 'history', page: 1, filters: {} },
        { type: 'history', page: 1, filters: { trans_type: 'withdrawal' } },
        { type: 'history', page: 1, filters: { trans_type: 'withdrawal', status: 'pending' } },
        { type: 'history', page: 1, filters: { trans_type: 'withdrawal', status: 'pending', coin__id: '2' } },
        { type: 'history', page: 2, filters: { trans_type: 'withdrawal', status: 'pending', coin__id: '2' } },
        { type: 'history', page: 1, filters: { status: 'pending', coin__id: '2' } },
        { type: 'history', page: 1, filters: {} },
      ].map((body) => ({ how: 'read', path: 'user/wallet/', body, options: undefined })),
    );
    expect(selectTransactions(actor.getSnapshot())).toEqual(transactionPage(1, 2).transactions);
    actor.stop();
  });
});
