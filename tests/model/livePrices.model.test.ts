import { Decimal } from 'decimal.js';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { COIN_PRICE_CHANNEL } from '../../contracts/index.ts';
import { bindLivePrices, livePricesLogic } from '../../src/machines/livePrices/livePrices.actors.ts';
import type { LivePrice, PriceQuote } from '../../src/machines/livePrices/livePrices.machine.ts';
import { selectIsLive, selectPrices } from '../../src/machines/livePrices/livePrices.selectors.ts';
import { fakeRealtime } from '../support/chat.ts';
import { Coverage, describePath, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';

const starting: PriceQuote[] = [{ ticker: 'BTC', price: '100' }];

/**
 * What the coin_price channel can do: the coin shown rises, falls or stays (written differently), a coin the
 * screen does not show moves, the subscription is accepted, the connection drops.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const list: ModelEvent[] = [
    { type: 'price.received', ticker: 'BTC', price: '100.5' },
    { type: 'price.received', ticker: 'BTC', price: '99.99' },
    { type: 'price.received', ticker: 'BTC', price: '100.00' },
    { type: 'price.received', ticker: 'DOGE', price: '0.1' },
  ];
  if (snapshot.matches('connecting')) list.push({ type: 'feed.subscribed' });
  if (snapshot.matches('live')) list.push({ type: 'feed.interrupted' });
  return list;
}

const model = walk(livePricesLogic, { events, input: { prices: starting } });

/**
 * Replays a walk on the chart bound to a fake connection: each event of the walk is what the server (or the
 * socket) does, so the subscription actor's reading of the channel is replayed too.
 */
async function run(path: ModelPath, coverage?: Coverage) {
  const realtime = fakeRealtime();
  const actor = createActor(bindLivePrices(realtime.service), { input: { prices: starting }, inspect: coverage?.inspect }).start();

  // The oracle: each shown coin's price and last move, compared as exact decimals; live between acceptance and a drop.
  const expected: Record<string, LivePrice> = { BTC: { price: '100', direction: null } };
  let live = false;

  for (const [index, { event, state }] of path.steps.entries()) {
    if (index > 0) {
      if (event.type === 'price.received') {
        realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker: event.ticker, price: event.price });
        const ticker = event.ticker as string;
        const known = expected[ticker];
        const move = known ? new Decimal(event.price as string).cmp(known.price) : 0;
        if (known && move !== 0) expected[ticker] = { price: event.price as string, direction: move > 0 ? 'up' : 'down' };
      } else if (event.type === 'feed.subscribed') {
        realtime.setState('connected');
        realtime.accept(COIN_PRICE_CHANNEL);
        live = true;
      } else if (event.type === 'feed.interrupted') {
        realtime.setState('connecting');
        live = false;
      }
    }
    const snapshot = actor.getSnapshot();
    expect({ value: snapshot.value, context: snapshot.context }, `after step ${index} (${event.type})`).toEqual({
      value: state.value,
      context: state.context,
    });
    expect(selectPrices(snapshot)).toEqual(expected);
    expect(selectIsLive(snapshot)).toBe(live);
    expect(realtime.listeners(COIN_PRICE_CHANNEL), 'one subscription while it runs').toBe(1);
  }
  actor.stop();
  expect(realtime.listeners(COIN_PRICE_CHANNEL), 'none once it stops').toBe(0);
}

describe('livePrices: every path through the chart', () => {
  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThanOrEqual(10);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(livePricesLogic);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(livePricesLogic);
    const leftOut = (path: ModelPath) => path.steps.some(({ event }) => event.type === 'feed.subscribed');
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['livePrices.live']);
    expect(coverage.missingTransitions()).toEqual([
      'livePrices.connecting —feed.subscribed#0→ livePrices.live',
      'livePrices.live —feed.interrupted#0→ livePrices.connecting',
    ]);
  });
});
