import { createActor } from 'xstate';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import { bindTradeHistory } from '../../src/machines/tradeHistory/tradeHistory.actors.ts';
import { tradeHistoryMachine, type TradeHistoryEvent } from '../../src/machines/tradeHistory/tradeHistory.machine.ts';
import {
  selectCanNext,
  selectCanPrevious,
  selectCoins,
  selectFilters,
  selectHasLoaded,
  selectIsLoading,
  selectTrades,
} from '../../src/machines/tradeHistory/tradeHistory.selectors.ts';
import type { Api } from '../../src/services/api.ts';
import type { MarketService } from '../../src/services/market.ts';
import { createTradeService, type TradeService } from '../../src/services/trades.ts';
import { flush, scriptedActors } from '../support/machines.ts';
import { chosenTrades, coins, noTrades, tradePage } from '../support/trades.ts';

/** Recent Trades with both calls faked; by default the coins and the first of three pages have arrived. */
async function startHistory({ settle = true } = {}) {
  const fakes = scriptedActors(['loadCoins', 'loadTrades']);
  const actor = createActor(tradeHistoryMachine.provide({ actors: fakes.actors as never })).start();
  const send = (event: TradeHistoryEvent) => actor.send(event);
  const snapshot = () => actor.getSnapshot();
  const loads = () => fakes.calls.filter((call) => call.id === 'loadTrades').map((call) => call.input);
  const coinLoads = () => fakes.calls.filter((call) => call.id === 'loadCoins').length;
  if (settle) {
    await fakes.resolve('loadCoins', coins);
    await fakes.resolve('loadTrades', tradePage(1, 3));
  }
  return { actor, fakes, send, snapshot, loads, coinLoads };
}

describe('Recent Trades chart', () => {
  it('loads the coins and page 1 without filters side by side; busy until the trades arrive', async () => {
    const { fakes, snapshot, loads, coinLoads } = await startHistory({ settle: false });
    expect(coinLoads()).toBe(1);
    expect(loads()).toEqual([{ page: 1, filters: chosenTrades() }]);
    expect(selectIsLoading(snapshot())).toBe(true);
    expect(selectHasLoaded(snapshot())).toBe(false);

    await fakes.resolve('loadTrades', tradePage(1, 3));
    expect(selectIsLoading(snapshot())).toBe(false);
    expect(selectHasLoaded(snapshot())).toBe(true);
    expect(selectTrades(snapshot())).toEqual(tradePage(1, 3).trades);
    expect(selectCoins(snapshot()), 'the coins are still on their way').toEqual([]);
    await fakes.resolve('loadCoins', coins);
    expect(selectCoins(snapshot())).toEqual(coins);
  });

  it('each filter change goes back to page 1 and reloads the trades, never the coins', async () => {
    const { fakes, send, snapshot, loads, coinLoads } = await startHistory();
    send({ type: 'page.next' });
    await fakes.resolve('loadTrades', tradePage(2, 3));
    expect(snapshot().context.page).toBe(2);

    send({ type: 'filter.tradeType', value: 'buy' });
    expect(snapshot().context.page).toBe(1);
    expect(selectIsLoading(snapshot())).toBe(true);
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTrades({ tradeType: 'buy' }) });
    await fakes.resolve('loadTrades', tradePage(1, 3));
    send({ type: 'page.next' });
    await fakes.resolve('loadTrades', tradePage(2, 3));

    send({ type: 'filter.status', value: 'completed' });
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTrades({ tradeType: 'buy', status: 'completed' }) });
    send({ type: 'filter.coin', value: '2' });
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTrades({ tradeType: 'buy', status: 'completed', coinId: '2' }) });
    expect(selectFilters(snapshot())).toEqual({ tradeType: 'buy', status: 'completed', coinId: '2' });
    expect(coinLoads()).toBe(1);
  });

  it('a filter changed before the coins arrive reloads the trades and leaves the coins call running', async () => {
    const { fakes, send, snapshot, loads } = await startHistory({ settle: false });
    send({ type: 'filter.status', value: 'pending' });
    expect(fakes.isRunning('loadCoins')).toBe(true);
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTrades({ status: 'pending' }) });
    await fakes.resolve('loadCoins', coins);
    expect(selectCoins(snapshot())).toEqual(coins);
  });

  it('a filter change drops the load in flight: its late answer is ignored', async () => {
    const { fakes, send, snapshot } = await startHistory({ settle: false });
    send({ type: 'filter.tradeType', value: 'sell' });
    await fakes.resolveCall(1, tradePage(1, 3)); // the unfiltered first load
    expect(selectHasLoaded(snapshot())).toBe(false);
    expect(selectIsLoading(snapshot())).toBe(true);
    await fakes.resolve('loadTrades', noTrades);
    expect(selectTrades(snapshot())).toEqual([]);
  });

  it("Clear All forgets every filter, goes back to page 1 and reloads with no filters", async () => {
    const { fakes, send, snapshot, loads, coinLoads } = await startHistory();
    send({ type: 'filter.tradeType', value: 'sell' });
    send({ type: 'filter.coin', value: '1' });
    await fakes.resolve('loadTrades', tradePage(1, 2));
    send({ type: 'page.next' });
    await fakes.resolve('loadTrades', tradePage(2, 2));

    send({ type: 'filters.clear' });
    expect(selectFilters(snapshot())).toEqual(chosenTrades());
    expect(snapshot().context.page).toBe(1);
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTrades() });
    expect(coinLoads()).toBe(1);
  });

  it('pages only where the paginator allows, to the pages it names', async () => {
    const { fakes, send, snapshot, loads } = await startHistory({ settle: false });
    expect(selectCanNext(snapshot()), 'no paginator yet').toBe(false);
    send({ type: 'page.next' });
    send({ type: 'page.previous' });
    expect(loads()).toHaveLength(1);

    await fakes.resolve('loadTrades', tradePage(1, 3));
    expect(selectCanPrevious(snapshot())).toBe(false);
    expect(selectCanNext(snapshot())).toBe(true);
    send({ type: 'page.previous' });
    expect(loads()).toHaveLength(1);
    send({ type: 'page.next' });
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenTrades() });

    await fakes.resolve('loadTrades', tradePage(2, 3));
    send({ type: 'page.next' });
    await fakes.resolve('loadTrades', tradePage(3, 3));
    expect(selectCanNext(snapshot())).toBe(false);
    expect(selectCanPrevious(snapshot())).toBe(true);
    send({ type: 'page.next' });
    expect(loads()).toHaveLength(3);
    send({ type: 'page.previous' });
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenTrades() });

    // The server decides where "next" goes: a paginator that skips is followed.
    await fakes.resolve('loadTrades', { ...tradePage(2, 3), paginator: { prev: true, next: true, previous_page: 1, next_page: 7 } });
    send({ type: 'page.next' });
    expect(loads().at(-1)).toEqual({ page: 7, filters: chosenTrades() });
  });

  it('a failed load clears the busy state without a message; a failed coins call leaves no coin choices', async () => {
    const { fakes, send, snapshot } = await startHistory({ settle: false });
    await fakes.reject('loadCoins', new Error('An unknown error occurred'));
    await fakes.reject('loadTrades', new Error('Internet server error'));
    expect(selectIsLoading(snapshot())).toBe(false);
    expect(selectCoins(snapshot())).toEqual([]);
    expect(selectHasLoaded(snapshot())).toBe(false);
    send({ type: 'filter.tradeType', value: 'buy' });
    expect(selectIsLoading(snapshot()), 'filters still work').toBe(true);
  });
});

describe('bindTradeHistory', () => {
  it('loads the coins from base/coins/ and the history through the trade service with the query', async () => {
    const market = { coins: vi.fn(async () => coins) } as unknown as MarketService;
    const history = vi.fn(async () => tradePage(1, 1));
    const actor = createActor(bindTradeHistory({ market, trades: { history } as unknown as TradeService } as FlowDeps)).start();
    await flush();
    actor.send({ type: 'filter.coin', value: '2' });
    await flush();
    expect(market.coins).toHaveBeenCalledTimes(1);
    expect(history.mock.calls).toEqual([[{ page: 1, filters: chosenTrades() }], [{ page: 1, filters: chosenTrades({ coinId: '2' }) }]]);
    expect(actor.getSnapshot().context.coins).toEqual(coins);
  });

  it('asks market/trade/ for each page with trade_type at the top and status and coin under filters, only when set', async () => {
    const sent: { how: 'read' | 'write'; path: string; body: unknown; options: unknown }[] = [];
    const respond = (how: 'read' | 'write') => async (path: string, body: unknown, _schema: unknown, options?: unknown) => {
      sent.push({ how, path, body, options });
      return tradePage(1, 2);
    };
    const api = { read: respond('read'), write: respond('write') } as unknown as Api;
    const market = { coins: vi.fn(async () => coins) } as unknown as MarketService;
    const actor = createActor(bindTradeHistory({ market, trades: createTradeService(api) } as FlowDeps)).start();
    await flush();
    actor.send({ type: 'filter.tradeType', value: 'sell' });
    actor.send({ type: 'filter.status', value: 'cancelled' });
    actor.send({ type: 'filter.coin', value: '2' });
    await flush();
    actor.send({ type: 'page.next' });
    await flush();
    actor.send({ type: 'filter.tradeType', value: '' });
    actor.send({ type: 'filters.clear' });
    await flush();
    expect(sent).toStrictEqual(
      [
        { type: 'history', page: 1, filters: {} },
        { type: 'history', page: 1, trade_type: 'sell', filters: {} },
        { type: 'history', page: 1, trade_type: 'sell', filters: { status: 'cancelled' } },
        { type: 'history', page: 1, trade_type: 'sell', filters: { status: 'cancelled', offer__coin__id: '2' } },
        { type: 'history', page: 2, trade_type: 'sell', filters: { status: 'cancelled', offer__coin__id: '2' } },
        { type: 'history', page: 1, filters: { status: 'cancelled', offer__coin__id: '2' } },
        { type: 'history', page: 1, filters: {} },
      ].map((body) => ({ how: 'read', path: 'market/trade/', body, options: undefined })),
    );
    expect(selectTrades(actor.getSnapshot())).toEqual(tradePage(1, 2).trades);
    actor.stop();
  });
});
