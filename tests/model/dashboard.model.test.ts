import { Decimal } from 'decimal.js';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { COIN_PRICE_CHANNEL, type Overview, type WalletItem } from '../../contracts/index.ts';
import { dashboardMachine } from '../../src/machines/dashboard/dashboard.machine.ts';
import {
  liveTotalBalance,
  selectIsLoading,
  selectLivePrices,
  selectOverview,
  selectPricesUnavailable,
  selectWallets,
} from '../../src/machines/dashboard/dashboard.selectors.ts';
import { bindLivePrices } from '../../src/machines/livePrices/livePrices.actors.ts';
import { selectPrices } from '../../src/machines/livePrices/livePrices.selectors.ts';
import { fakeRealtime } from '../support/chat.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { wallets } from '../support/wallets.ts';

const overview: Overview = { total_balance: '42000.20', active_offers: 1, completed_trades: 2, open_chats: 0, recent_trades: [] };

/**
 * What can happen on the dashboard: each call's outcomes (the overview's failure answers null), a refresh, and the
 * trader's own channel telling of a balance change.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const list: ModelEvent[] = [];
  if (snapshot.matches({ overview: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadOverview', output: overview },
      { type: 'xstate.done.actor.loadOverview', output: null },
      { type: 'xstate.error.actor.loadOverview', error: new Error('unexpected') },
    );
  }
  if (snapshot.matches({ wallets: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadWallets', output: wallets },
      { type: 'xstate.error.actor.loadWallets', error: new Error('Internet server error') },
    );
  }
  list.push({ type: 'overview.refresh' }, { type: 'realtime.wallet.changed' });
  if (snapshot.children.userChannel) list.push({ type: 'xstate.error.actor.userChannel', error: new Error('refused') });
  return list;
}

const model = walk(dashboardMachine, { events, input: { username: 'erin' } });

async function run(path: ModelPath, coverage?: Coverage) {
  // The trader's own channel: a call that stays open for the dashboard's life (its events are the path's steps).
  const fakes = scriptedActors(['loadOverview', 'loadWallets', 'userChannel']);
  const realtime = fakeRealtime();
  const actors = { ...fakes.actors, livePrices: bindLivePrices(realtime.service) };
  const actor = createActor(dashboardMachine.provide({ actors: actors as never }), {
    input: { username: 'erin' },
    inspect: coverage?.inspect,
  }).start();

  // The oracle: what each call answered last, whether a call runs, and whether the prices are live.
  let shownOverview: Overview | null = null;
  let shownWallets: WalletItem[] | null = null;
  let overviewLoading = true;
  let walletsState: 'loading' | 'live' | 'unavailable' = 'loading';
  let channelOpen = true;

  await replay(actor, path, fakes, (snapshot, { event }) => {
    switch (event.type) {
      case 'xstate.done.actor.loadOverview':
        shownOverview = event.output as Overview | null;
        overviewLoading = false;
        break;
      case 'xstate.error.actor.loadOverview':
        overviewLoading = false;
        break;
      case 'xstate.done.actor.loadWallets':
        shownWallets = event.output as WalletItem[];
        walletsState = 'live';
        break;
      case 'xstate.error.actor.loadWallets':
        walletsState = 'unavailable';
        break;
      case 'overview.refresh':
        // Each figure reloads once it has arrived; the two reload together so the total starts from one moment.
        if (!overviewLoading) overviewLoading = true;
        if (walletsState !== 'loading') walletsState = 'loading';
        break;
      case 'xstate.error.actor.userChannel':
        // The channel refused: the figures stay those of the last read.
        channelOpen = false;
        break;
      case 'realtime.wallet.changed':
        // A balance changed: both are read again, whatever they were doing (a read on its way may predate it).
        overviewLoading = true;
        walletsState = 'loading';
        break;
    }
    expect(selectOverview(snapshot as never)).toEqual(shownOverview);
    expect(selectWallets(snapshot as never)).toEqual(shownWallets);
    expect(selectIsLoading(snapshot as never), 'busy').toBe(overviewLoading);
    expect(fakes.isRunning('loadOverview')).toBe(overviewLoading);
    expect(fakes.isRunning('loadWallets')).toBe(walletsState === 'loading');
    expect(fakes.isRunning('userChannel'), 'the trader’s own channel is listened to all along').toBe(channelOpen);
    expect(selectPricesUnavailable(snapshot as never)).toBe(walletsState === 'unavailable');
    const child = selectLivePrices(snapshot as never);
    expect(child !== undefined, 'live prices run only once the wallets have loaded').toBe(walletsState === 'live');
    expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(walletsState === 'live' ? 1 : 0);
    if (child) {
      expect(selectPrices(child.getSnapshot())).toEqual(
        Object.fromEntries(shownWallets!.map((wallet) => [wallet.coin__ticker, { price: wallet.coin__price, direction: null }])),
      );
    }
    const total = liveTotalBalance(selectOverview(snapshot as never), selectWallets(snapshot as never), child && selectPrices(child.getSnapshot()));
    // At the starting prices the total is the overview's (written exactly), or the wallets' sum without it.
    const expectedTotal = shownOverview ? '42000.20' : shownWallets ? '36000.20' : null;
    expect(total === null ? null : new Decimal(total).toFixed(2)).toBe(expectedTotal);
  });

  actor.stop();
  expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(0);
}

describe('dashboard: every path through the chart', () => {
  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(dashboardMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(dashboardMachine);
    const leftOut = (path: ModelPath) => path.steps.some(({ event }) => event.type === 'xstate.error.actor.loadWallets');
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['dashboard.wallets.unavailable']);
    expect(coverage.missingTransitions()).toEqual([
      'dashboard.wallets.loading —xstate.error.actor.loadWallets#0→ dashboard.wallets.unavailable',
      'dashboard.wallets.unavailable —overview.refresh#0→ dashboard.wallets.loading',
    ]);
  });
});
