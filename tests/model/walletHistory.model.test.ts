import { SimulatedClock, createActor, type AnyMachineSnapshot } from 'xstate';
import type { Coin, WalletHistory } from '../../contracts/index.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { walletHistoryMachine, type WalletHistoryFilters } from '../../src/machines/walletHistory/walletHistory.machine.ts';
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
import {
  Coverage,
  afterEvent,
  describePath,
  offlineAfter,
  replay,
  scriptedActors,
  socketMoves,
  walk,
  type ActorCall,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';
import { btcTxid, coins, noTransactions, pendingPage, transactionPage } from '../support/transaction-fixtures.ts';

/** Nothing chosen, written out here rather than taken from the chart. */
const blank: WalletHistoryFilters = { transType: '', status: '', coinId: '' };
const isBlank = (filters: WalletHistoryFilters) => JSON.stringify(filters) === JSON.stringify(blank);

/**
 * The server's answer: without filters, two pages each with a deposit waiting for its confirmation;
 * nothing with any filter. A refresh finds the deposit still pending or, once the chain confirmed it, completed.
 */
const answer = (page: number, filters: WalletHistoryFilters): WalletHistory => (isBlank(filters) ? pendingPage(page, 2) : noTransactions);
const confirmed = (page: number): WalletHistory => transactionPage(page, 2, { status: 'completed' });

/** The fallback timer of a pending page: it reads the page only while the channel cannot reach it. */
const refreshDue = afterEvent('pendingRefresh', 'walletHistory.list.watching');
const told = { type: 'realtime.wallet.changed' } as const;
const joined = { type: 'realtime.subscribed' } as const;
const USERNAME = 'carol';
const copied: Notice = { title: 'Transaction ID copied to clipboard!', type: 'success' };
const refused: Notice = {
  title: 'Could not copy the transaction ID',
  description: 'The browser refused the clipboard; the full ID shows when you point at it.',
  type: 'error',
};

/**
 * What can happen on Recent Transactions: each call's outcomes, the fallback timer of a page with a pending
 * row, the trader's own channel telling of a change, being joined (again) or failing, the socket's moves, and,
 * once the coins call has settled, what the trader can click. The channel's and the socket's events come only
 * without filters and while the clipboard rests (the socket's only while a pending page is watched), so the
 * regions are walked against each other where they meet. One filter at a time (then "Clear
 * All") keeps the graph small and still takes every edge; Previous/Next are pressed in every state, loading
 * included, and the copy button (with a txid, and without one) wherever rows show, copying included.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const {
    filters,
    page,
    coins: known,
    transactions: rows,
  } = snapshot.context as { filters: WalletHistoryFilters; page: number; coins: Coin[]; transactions: unknown[] };
  const list: ModelEvent[] = [];
  // Away from `connecting`, only the socket's moves and what the fallback timer does are walked.
  if (!snapshot.matches({ connection: 'connecting' })) return socketSide(snapshot);
  if (snapshot.matches({ coins: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadCoins', output: coins },
      { type: 'xstate.error.actor.loadCoins', error: new Error('An unknown error occurred') },
    );
  }
  if (snapshot.matches({ list: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadTransactions', output: answer(page, filters) },
      { type: 'xstate.error.actor.loadTransactions', error: new Error('Internet server error') },
    );
  }
  if (snapshot.matches({ list: 'watching' })) list.push(refreshDue);
  const quiet = isBlank(filters) && !snapshot.matches({ clipboard: 'copying' }) && !snapshot.matches({ coins: 'loading' });
  if (quiet) {
    list.push(told, joined);
    if (snapshot.matches({ list: 'loading' }) && snapshot.children.userChannel) {
      list.push({ type: 'xstate.error.actor.userChannel', error: new Error('refused') });
    }
  }
  if (quiet && snapshot.matches({ list: 'watching' })) list.push(...socketMoves(snapshot));
  if (snapshot.matches({ list: 'refreshing' })) {
    list.push(
      { type: 'xstate.done.actor.refreshTransactions', output: answer(page, filters) },
      { type: 'xstate.done.actor.refreshTransactions', output: confirmed(page) },
      { type: 'xstate.error.actor.refreshTransactions', error: new Error('Internet server error') },
    );
  }
  if (snapshot.matches({ clipboard: 'copying' })) {
    list.push(
      { type: 'xstate.done.actor.copyTxid', output: undefined },
      { type: 'xstate.error.actor.copyTxid', error: new DOMException('Write permission denied.', 'NotAllowedError') },
    );
  }
  // Pressing anything before the coins arrive is the actor tests' case; here it would only triple the graph.
  if (snapshot.matches({ coins: 'loading' })) return list;
  // The copy button is on a row: only a page with rows offers it.
  if (rows.length > 0) list.push({ type: 'txid.copy', txid: btcTxid }, { type: 'txid.copy', txid: '' });
  // The copy settles in a moment: while it runs, the calls may answer and the timer run out, but filters
  // and pages pressed meanwhile would only double the graph (the actor tests press them).
  if (snapshot.matches({ clipboard: 'copying' })) return list;
  if (isBlank(filters)) {
    list.push({ type: 'filter.transType', value: 'withdrawal' }, { type: 'filter.status', value: 'completed' });
    if (known.length > 0) list.push({ type: 'filter.coin', value: '2' });
  } else {
    list.push({ type: 'filters.clear' });
  }
  list.push({ type: 'page.next' }, { type: 'page.previous' });
  return list;
}

/** The socket live or offline over a watched page: its moves, the fallback timer, and the refresh it may start. */
function socketSide(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const { page, filters } = snapshot.context as { page: number; filters: WalletHistoryFilters };
  const list: ModelEvent[] = [];
  if (snapshot.matches({ list: 'watching' })) list.push(refreshDue);
  if (snapshot.matches({ list: 'refreshing' })) {
    list.push(
      { type: 'xstate.done.actor.refreshTransactions', output: answer(page, filters) },
      { type: 'xstate.error.actor.refreshTransactions', error: new Error('Internet server error') },
    );
  }
  return [...list, ...socketMoves(snapshot)];
}

const model = walk(walletHistoryMachine, { events, input: { username: USERNAME } });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadCoins', 'loadTransactions', 'copyText', 'userChannel', 'watchConnection']);
  const notices: Notice[] = [];
  const clock = new SimulatedClock();
  const machine = walletHistoryMachine.provide({ actors: fakes.actors as never, actions: { notify: (_, notice) => void notices.push(notice) } });
  const actor = createActor(machine, { clock, input: { username: USERNAME }, inspect: coverage?.inspect }).start();

  // The oracle, from docs/rules.md "Wallets" and docs/api.md "User calls" (history) and the screen's brief: what the trader set, which
  // page, the last answer, whether a pending row keeps the page refreshing, and the clipboard.
  type Phase = 'loading' | 'idle' | 'watching' | 'refreshing';
  let filters = blank;
  let page = 1;
  let coinsLoading = true;
  let coinChoices: Coin[] = [];
  let shown: WalletHistory | null = null;
  let phase: Phase = 'loading';
  let copying = false;
  let offline = false;
  let listening = true;
  const expectedNotices: Notice[] = [];
  const expectedCalls: ActorCall[] = [
    { id: 'loadCoins', input: undefined },
    { id: 'userChannel', input: { username: USERNAME } },
    { id: 'loadTransactions', input: { page: 1, filters: blank } },
    { id: 'connection', input: undefined },
  ];
  const refresh = () => {
    phase = 'refreshing';
    expectedCalls.push({ id: 'refreshTransactions', input: { page, filters } });
  };
  const load = () => {
    phase = 'loading';
    expectedCalls.push({ id: 'loadTransactions', input: { page, filters } });
  };
  const setFilter = (change: Partial<WalletHistoryFilters>) => {
    filters = { ...filters, ...change };
    page = 1;
    load();
  };
  const show = (history: WalletHistory) => {
    shown = history;
    phase = history.transactions.some((row) => row.status === 'pending') ? 'watching' : 'idle';
  };

  await replay(
    actor,
    path,
    fakes,
    (snapshot, step) => {
      const event = step.event as ModelEvent & { value?: never; txid?: string };
      offline = offlineAfter(event, offline);
      switch (event.type) {
        case 'xstate.done.actor.loadCoins':
          coinChoices = event.output as Coin[];
          coinsLoading = false;
          break;
        case 'xstate.error.actor.loadCoins':
          coinsLoading = false;
          break;
        case 'xstate.done.actor.loadTransactions':
        case 'xstate.done.actor.refreshTransactions':
          show(event.output as WalletHistory);
          break;
        case 'xstate.error.actor.loadTransactions':
        case 'xstate.error.actor.refreshTransactions':
          phase = 'idle';
          break;
        case refreshDue.type:
          // Only while offline; live, the channel says when there is something to read.
          if (offline) refresh();
          break;
        case told.type:
        case joined.type:
          // Read again at once; a read on its way starts over.
          if (phase === 'loading') load();
          else refresh();
          break;
        case 'xstate.error.actor.userChannel':
          listening = false;
          break;
        case 'filter.transType':
          setFilter({ transType: event.value });
          break;
        case 'filter.status':
          setFilter({ status: event.value });
          break;
        case 'filter.coin':
          setFilter({ coinId: event.value });
          break;
        case 'filters.clear':
          setFilter(blank);
          break;
        case 'page.next':
          if (shown?.paginator.next) {
            page = shown.paginator.next_page!;
            load();
          }
          break;
        case 'page.previous':
          if (shown?.paginator.prev) {
            page = shown.paginator.previous_page!;
            load();
          }
          break;
        case 'txid.copy':
          if (!copying && event.txid !== '') {
            copying = true;
            expectedCalls.push({ id: 'copyTxid', input: { text: event.txid } });
          }
          break;
        case 'xstate.done.actor.copyTxid':
          copying = false;
          expectedNotices.push(copied);
          break;
        case 'xstate.error.actor.copyTxid':
          copying = false;
          expectedNotices.push(refused);
          break;
      }

      const s = snapshot as never;
      expect(selectFilters(s)).toEqual(filters);
      expect(snapshot.context.page).toBe(page);
      expect(selectCoins(s)).toEqual(coinChoices);
      expect(fakes.isRunning('loadCoins'), 'the coins call runs').toBe(coinsLoading);
      expect(selectIsLoading(s), 'busy').toBe(phase === 'loading');
      expect(fakes.isRunning('loadTransactions'), 'a history load runs').toBe(phase === 'loading');
      expect(fakes.isRunning('refreshTransactions'), 'a background refresh runs').toBe(phase === 'refreshing');
      expect(selectIsWatching(s), 'refreshing by itself').toBe(phase === 'watching' || phase === 'refreshing');
      expect(selectHasLoaded(s)).toBe(shown !== null);
      expect(selectTransactions(s)).toEqual(shown?.transactions ?? []);
      expect(selectCanNext(s), 'Next enabled').toBe(shown?.paginator.next ?? false);
      expect(selectCanPrevious(s), 'Previous enabled').toBe(shown?.paginator.prev ?? false);
      expect(fakes.isRunning('copyTxid'), 'copying').toBe(copying);
      expect(fakes.isRunning('userChannel'), 'the trader’s own channel is listened to').toBe(listening);
      expect(notices).toEqual(expectedNotices);
    },
    { clock },
  );

  // Filters and pages reload the transactions only: the coins are asked for once.
  expect(fakes.calls).toEqual(expectedCalls);
  actor.stop();
}

describe('walletHistory: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(60);
    expect(model.paths.length).toBeGreaterThan(model.states);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  // Replaying with coverage is the slow part: both checks below stop once the walk has shown what they need
  // (shortest paths come first), and otherwise replay every path they were given.
  const replayUntil = async (coverage: Coverage, paths: ModelPath[], enough: () => boolean) => {
    for (const path of paths) {
      await run(path, coverage);
      if (enough()) return;
    }
  };

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(walletHistoryMachine);
    await replayUntil(coverage, model.paths, () => coverage.missingStates().length + coverage.missingTransitions().length === 0);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(walletHistoryMachine);
    const leftOut = (path: ModelPath) =>
      path.steps.some(
        ({ event }) =>
          event.type === 'xstate.error.actor.copyTxid' ||
          (event.type === 'xstate.done.actor.refreshTransactions' && (event.output as WalletHistory).transactions.every((row) => row.status !== 'pending')),
      );
    // Stopping early is sound here: a left-out transition is taken only by the events the filter removed.
    await replayUntil(
      coverage,
      model.paths.filter((path) => !leftOut(path)),
      () => coverage.missingStates().length === 0 && coverage.missingTransitions().length === 2,
    );
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([
      'walletHistory.list.refreshing —xstate.done.actor.refreshTransactions#1→ walletHistory.list.idle',
      'walletHistory.clipboard.copying —xstate.error.actor.copyTxid#0→ walletHistory.clipboard.idle',
    ]);
  });
});
