import { Decimal } from 'decimal.js';
import { SimulatedClock, createActor, type AnyActorRef, type AnyMachineSnapshot } from 'xstate';
import { COIN_PRICE_CHANNEL, type WalletItem } from '../../contracts/index.ts';
import { bindLivePrices } from '../../src/machines/livePrices/livePrices.actors.ts';
import { selectPrices } from '../../src/machines/livePrices/livePrices.selectors.ts';
import { walletsLogic } from '../../src/machines/wallets/wallets.actors.ts';
import type { WalletsContext } from '../../src/machines/wallets/wallets.machine.ts';
import {
  selectIsLoading,
  selectIsMasked,
  selectLivePrices,
  selectTotal,
  selectTotalDirection,
  selectWallets,
} from '../../src/machines/wallets/wallets.selectors.ts';
import { fakeRealtime } from '../support/chat.ts';
import { Coverage, afterEvent, describePath, offlineAfter, replay, scriptedActors, socketMoves, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { creditedList, walletList } from '../support/wallet-fixtures.ts';

const retried = afterEvent('refreshInterval', 'wallets.balances.failed');
/** The fallback timer of the cards: it reads the balances only while the channel cannot reach the page. */
const refreshed = afterEvent('refreshInterval', 'wallets.balances.live.current');
const told = { type: 'realtime.wallet.changed' } as const;
const joined = { type: 'realtime.subscribed' } as const;
const USERNAME = 'carol';
/** The prices BTC moves between on the channel (it starts at the list's 60,000.00). */
const BTC_PRICES = ['61000.00', '59000.00'];
const PRICE_EVENT = 'xstate.snapshot.livePrices';

/**
 * What can happen on My Wallets: the list answers (the starting list, or after a refresh the list with a
 * credited deposit) or fails; the trader's own channel says the balances changed, or is joined (again), or
 * fails; the socket connects, goes offline, tries again or its watch fails; the refresh interval runs out (it
 * reads only while offline); BTC's price moves on the channel (the live prices child reports its new
 * snapshot); and the trader toggles show/hide. The regions are walked against each other only where they meet
 * (the channel's and the trader's events while the socket is still connecting, the socket's moves while the
 * cards rest or the first read failed), so the graph stays small enough to replay whole.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as WalletsContext;
  const connecting = snapshot.matches({ connection: 'connecting' });
  const resting = snapshot.matches({ balances: { live: 'current' } }) || snapshot.matches({ balances: 'failed' });
  const list: ModelEvent[] = [];
  if (connecting) list.push({ type: 'balances.toggle' });
  if (snapshot.matches({ balances: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadWallets', output: walletList },
      { type: 'xstate.error.actor.loadWallets', error: new Error('Internet server error') },
    );
    if (connecting) list.push(told, joined);
    if (connecting && snapshot.children.userChannel) list.push({ type: 'xstate.error.actor.userChannel', error: new Error('refused') });
  }
  if (snapshot.matches({ balances: 'failed' })) {
    list.push(retried);
    if (connecting) list.push(told, joined);
  }
  if (snapshot.matches({ balances: { live: 'current' } })) {
    list.push(refreshed);
    if (connecting) list.push(told, joined);
  }
  if (snapshot.matches({ balances: { live: 'refreshing' } })) {
    list.push(
      { type: 'xstate.done.actor.refreshWallets', output: creditedList },
      { type: 'xstate.error.actor.refreshWallets', error: new Error('Internet server error') },
    );
    if (connecting) list.push(told, joined);
  }
  if (connecting && snapshot.matches({ balances: 'live' })) {
    for (const price of BTC_PRICES.filter((price) => price !== context.prices.BTC)) {
      // The replay makes the real live prices child report this (see `driver` below).
      list.push({ type: PRICE_EVENT, ticker: 'BTC', price, snapshot: { context: { prices: { BTC: { price, direction: null } } } } });
    }
  }
  if (resting) list.push(...socketMoves(snapshot));
  return list;
}

const model = walk(walletsLogic, { events, input: { username: USERNAME } });

/** The oracle's own total: Σ balance × price with decimal.js, the list's price where none other is known. */
function oracleTotal(wallets: WalletItem[], prices: Record<string, string>) {
  return wallets.reduce((sum, wallet) => sum.plus(new Decimal(wallet.balance).times(prices[wallet.coin__ticker] ?? wallet.coin__price)), new Decimal(0));
}

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadWallets', 'userChannel', 'watchConnection']);
  const realtime = fakeRealtime();
  const clock = new SimulatedClock();
  const machine = walletsLogic.provide({ actors: { ...fakes.actors, livePrices: bindLivePrices(realtime.service) } as never });
  const actor = createActor(machine, { input: { username: USERNAME }, clock, inspect: coverage?.inspect }).start();
  // A price step is the channel publishing it; the real child then reports its snapshot to the chart.
  const driver = {
    getSnapshot: () => actor.getSnapshot(),
    logic: actor.logic,
    send: (event: ModelEvent) =>
      event.type === PRICE_EVENT ? realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker: event.ticker, price: event.price }) : actor.send(event as never),
  } as unknown as AnyActorRef;

  // The oracle: what the trader should see after each step. The balances are read again when the channel tells
  // of a change or of a (re)join, at once (a read on its way starts over), and on the timer only while offline.
  let phase: 'loading' | 'failed' | 'current' | 'refreshing' = 'loading';
  let offline = false;
  let channelOpen = true;
  let wallets: WalletItem[] | null = null;
  let prices: Record<string, string> = {};
  let total: Decimal | null = null;
  let direction: 'up' | 'down' | null = null;
  let masked = false;
  let calls = 1;
  const recompute = () => {
    const next = oracleTotal(wallets!, prices);
    if (total !== null && !next.eq(total)) direction = next.gt(total) ? 'up' : 'down';
    total = next;
  };

  await replay(
    driver,
    path,
    fakes,
    (snapshot, { event }) => {
      offline = offlineAfter(event, offline);
      switch (event.type) {
        case 'xstate.done.actor.loadWallets':
        case 'xstate.done.actor.refreshWallets':
          wallets = event.output as WalletItem[];
          for (const wallet of wallets) prices[wallet.coin__ticker] ??= wallet.coin__price;
          recompute();
          phase = 'current';
          break;
        case 'xstate.error.actor.loadWallets':
          phase = 'failed';
          break;
        case 'xstate.error.actor.refreshWallets':
          phase = 'current';
          break;
        case retried.type:
          phase = 'loading';
          calls += 1;
          break;
        case refreshed.type:
          if (offline) {
            phase = 'refreshing';
            calls += 1;
          }
          break;
        case told.type:
        case joined.type:
          phase = phase === 'failed' ? 'loading' : phase === 'current' ? 'refreshing' : phase;
          calls += 1;
          break;
        case 'xstate.error.actor.userChannel':
          channelOpen = false;
          break;
        case PRICE_EVENT:
          prices = { ...prices, BTC: String(event.price) };
          recompute();
          break;
        case 'balances.toggle':
          masked = !masked;
          break;
      }
      const s = snapshot as never;
      const live = phase === 'current' || phase === 'refreshing';
      expect(selectIsLoading(s), 'loading flag').toBe(phase === 'loading');
      expect(selectWallets(s)).toEqual(wallets);
      expect(selectIsMasked(s), 'masked').toBe(masked);
      const shownTotal = selectTotal(s);
      expect(shownTotal === null ? null : new Decimal(shownTotal).toFixed(), 'total').toBe(total === null ? null : (total as Decimal).toFixed());
      expect(selectTotalDirection(s), 'total’s move').toBe(direction);
      expect(fakes.calls.filter((call) => call.id === 'loadWallets' || call.id === 'refreshWallets').length, 'list calls').toBe(calls);
      expect(fakes.isRunning('userChannel'), 'the trader’s own channel is listened to').toBe(channelOpen);
      expect(fakes.isRunning('loadWallets') || fakes.isRunning('refreshWallets'), 'a list call runs').toBe(
        phase === 'loading' || phase === 'refreshing',
      );
      expect(realtime.listeners(COIN_PRICE_CHANNEL), 'one subscription while the cards show').toBe(live ? 1 : 0);
      const child = selectLivePrices(s);
      expect(child !== undefined).toBe(live);
      if (child) expect(selectPrices(child.getSnapshot()).BTC?.price).toBe(prices.BTC);
    },
    { clock },
  );

  actor.stop();
  expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(0);
}

describe('wallets: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(20);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(walletsLogic);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(walletsLogic);
    const leftOut = (path: ModelPath) => path.steps.some(({ event }) => event.type === told.type);
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([
      'wallets.balances.loading —realtime.wallet.changed#0→ wallets.balances.loading',
      'wallets.balances.failed —realtime.wallet.changed#0→ wallets.balances.loading',
      'wallets.balances.live.current —realtime.wallet.changed#0→ wallets.balances.live.refreshing',
      'wallets.balances.live.refreshing —realtime.wallet.changed#0→ wallets.balances.live.refreshing',
      // Without a change told, the cards are read again only on the offline timer, where the walk joins nothing.
      'wallets.balances.live.refreshing —realtime.subscribed#0→ wallets.balances.live.refreshing',
    ]);
  });
});
