import { createActor } from 'xstate';
import { COIN_PRICE_CHANNEL } from '../../contracts/index.ts';
import { bindLivePrices, livePricesLogic, priceRules, readPriceEvent } from '../../src/machines/livePrices/livePrices.actors.ts';
import { livePricesMachine, type PriceQuote } from '../../src/machines/livePrices/livePrices.machine.ts';
import { selectIsLive, selectPrices } from '../../src/machines/livePrices/livePrices.selectors.ts';
import { fakeRealtime } from '../support/chat.ts';
import { flush } from '../support/machines.ts';

const starting: PriceQuote[] = [
  { ticker: 'BTC', price: '60000.00' },
  { ticker: 'ETH', price: '3000.10' },
];

/** The live prices chart bound to a realtime connection the test speaks for. */
function startPrices(prices: PriceQuote[] = starting) {
  const realtime = fakeRealtime();
  const actor = createActor(bindLivePrices(realtime.service), { input: { prices } }).start();
  const price = (ticker: string, value: unknown) => realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker, price: value });
  return { realtime, actor, price, prices: () => selectPrices(actor.getSnapshot()) };
}

describe('live prices', () => {
  it('starts from the prices the screen loaded, with no move yet, and listens on coin_price while it runs', () => {
    const { realtime, actor, prices } = startPrices();
    expect(prices()).toEqual({
      BTC: { price: '60000.00', direction: null },
      ETH: { price: '3000.10', direction: null },
    });
    expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(1);
    actor.stop();
    expect(realtime.listeners(COIN_PRICE_CHANNEL), 'stopping the chart ends the subscription').toBe(0);
  });

  it('marks each price up or down against its previous value, coin by coin', () => {
    const { price, prices } = startPrices();
    price('BTC', '60100.5');
    expect(prices().BTC).toEqual({ price: '60100.5', direction: 'up' });
    expect(prices().ETH, 'another coin is untouched').toEqual({ price: '3000.10', direction: null });
    price('BTC', '59999.99');
    expect(prices().BTC).toEqual({ price: '59999.99', direction: 'down' });
    price('ETH', '3000.11');
    expect(prices().ETH).toEqual({ price: '3000.11', direction: 'up' });
    expect(prices().BTC).toEqual({ price: '59999.99', direction: 'down' });
  });

  it('compares exactly, never as floats; an unchanged price keeps its last move', () => {
    const { price, prices } = startPrices([{ ticker: 'BTC', price: '0.3' }]);
    // As floats these are equal.
    price('BTC', '0.30000000000000001');
    expect(prices().BTC).toEqual({ price: '0.30000000000000001', direction: 'up' });
    price('BTC', '0.300000000000000010');
    expect(prices().BTC, 'the same value written differently is no move').toEqual({ price: '0.30000000000000001', direction: 'up' });
    price('BTC', '0.3');
    expect(prices().BTC).toEqual({ price: '0.3', direction: 'down' });
    price('BTC', '0.30');
    expect(prices().BTC).toEqual({ price: '0.3', direction: 'down' });
  });

  it('ignores coins the screen does not show', () => {
    const { price, prices } = startPrices();
    const before = prices();
    price('DOGE', '0.12');
    expect(prices()).toBe(before);
    expect(prices()).not.toHaveProperty('DOGE');
  });

  it.each([
    ['no price', { ticker: 'BTC' }],
    ['no ticker', { price: '61000' }],
    ['a price as a number', { ticker: 'BTC', price: 61000 }],
    ['a price that is not a decimal', { ticker: 'BTC', price: 'NaN' }],
    ['a negative price', { ticker: 'BTC', price: '-61000' }],
    ['exponent notation', { ticker: 'BTC', price: '6.1e4' }],
    ['grouping', { ticker: 'BTC', price: '61,000' }],
    ['a ticker that is not a string', { ticker: 7, price: '61000' }],
    ['a string instead of an object', '{"ticker":"BTC","price":"61000"}'],
    ['null', null],
  ])('ignores a malformed price event: %s', (_, payload) => {
    const { realtime, prices } = startPrices();
    realtime.emit(COIN_PRICE_CHANNEL, 'price', payload);
    expect(prices().BTC).toEqual({ price: '60000.00', direction: null });
  });

  it('ignores other events on the channel', () => {
    const { realtime, prices } = startPrices();
    realtime.emit(COIN_PRICE_CHANNEL, 'prices', { ticker: 'BTC', price: '61000' });
    expect(prices().BTC).toEqual({ price: '60000.00', direction: null });
  });

  it('reads a price with spaces around it as the decimal it is', () => {
    expect(readPriceEvent({ ticker: 'BTC', price: ' 61000.5 ' })).toEqual({ ticker: 'BTC', price: '61000.5' });
    expect(readPriceEvent({ ticker: 'BTC', price: '61000.5', extra: true })).toEqual({ ticker: 'BTC', price: '61000.5' });
  });

  it('is live once the server accepts the subscription, connecting again while the connection is down', async () => {
    const { realtime, actor, price, prices } = startPrices();
    expect(selectIsLive(actor.getSnapshot())).toBe(false);
    realtime.setState('connected');
    realtime.accept(COIN_PRICE_CHANNEL);
    expect(selectIsLive(actor.getSnapshot())).toBe(true);

    realtime.setState('connecting');
    expect(selectIsLive(actor.getSnapshot())).toBe(false);
    expect(prices().BTC, 'the last prices stay shown').toEqual({ price: '60000.00', direction: null });

    realtime.reconnect();
    await flush();
    expect(selectIsLive(actor.getSnapshot())).toBe(true);
    price('BTC', '60001');
    expect(prices().BTC).toEqual({ price: '60001', direction: 'up' });

    realtime.setState('offline');
    expect(selectIsLive(actor.getSnapshot())).toBe(false);
  });

  it('a connection already up does not make it live before the subscription is accepted', () => {
    const realtime = fakeRealtime('connected');
    const actor = createActor(bindLivePrices(realtime.service), { input: { prices: starting } }).start();
    expect(selectIsLive(actor.getSnapshot())).toBe(false);
    realtime.accept(COIN_PRICE_CHANNEL);
    expect(selectIsLive(actor.getSnapshot())).toBe(true);
  });

  it('stops watching the connection when it stops', () => {
    const realtime = fakeRealtime();
    const unwatch = vi.fn();
    const watchConnection = vi.spyOn(realtime.service, 'watchConnection').mockImplementation(() => unwatch);
    const actor = createActor(bindLivePrices(realtime.service), { input: { prices: starting } }).start();
    expect(watchConnection).toHaveBeenCalledOnce();
    actor.stop();
    expect(unwatch).toHaveBeenCalledOnce();
  });

  it('the unbound chart loads on its own (as in the visualizer); comparisons and feed are bound with it', () => {
    const actor = createActor(livePricesMachine, { input: { prices: starting } });
    expect(actor.getSnapshot().value).toBe('connecting');
    expect(selectPrices(actor.getSnapshot()).BTC).toEqual({ price: '60000.00', direction: null });
    const unbound = livePricesMachine.implementations.guards.isHigher as (args: unknown, params: unknown) => boolean;
    expect(() => unbound({}, { price: '1', previous: '0' })).toThrow(/bound with the chart/);
    expect(livePricesLogic.implementations.guards.isHigher).toBe(priceRules.isHigher);
    expect(priceRules.isHigher({}, { price: '1', previous: '0' })).toBe(true);
    expect(priceRules.isLower({}, { price: '1', previous: null }), 'no previous price: no move').toBe(false);
  });
});
