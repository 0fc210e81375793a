import { createActor } from 'xstate';
import { COIN_PRICE_CHANNEL, realtimeEvents, userChannelName, type WalletItem } from '../../contracts/index.ts';
import { selectPrices } from '../../src/machines/livePrices/livePrices.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import { bindWallets } from '../../src/machines/wallets/wallets.actors.ts';
import {
  holdingValue,
  portfolioTotal,
  recomputedTotal,
  selectIsLoading,
  selectIsMasked,
  selectLivePrices,
  selectTotal,
  selectTotalDirection,
  selectWallets,
} from '../../src/machines/wallets/wallets.selectors.ts';
import type { WalletService } from '../../src/services/wallets.ts';
import { fakeRealtime } from '../support/chat.ts';
import { flush } from '../support/machines.ts';
import { creditedList, usdtWallet, walletList, walletListTotal } from '../support/wallet-fixtures.ts';
import { btcWallet, ethWallet } from '../support/wallets.ts';

const REFRESH_MS = 15_000;
const failure = () => Promise.reject(new Error('Internet server error'));
const ME = 'carol';
const OWN_CHANNEL = userChannelName(ME);

/** My Wallets bound as the route binds it, with the list call and the connection faked, on a fake clock. */
async function openWallets(answers: Array<() => Promise<WalletItem[]>> = [async () => walletList]) {
  const realtime = fakeRealtime();
  let call = 0;
  const list = vi.fn((_options?: { noToast?: boolean }) => (answers[Math.min(call++, answers.length - 1)] ?? failure)());
  const deps = { wallets: { list } as unknown as WalletService, realtime: realtime.service } as FlowDeps;
  const actor = createActor(bindWallets(deps), { input: { username: ME } }).start();
  await flush();
  const price = (ticker: string, value: string) => realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker, price: value });
  const shown = () => {
    const snapshot = actor.getSnapshot();
    return { total: selectTotal(snapshot), direction: selectTotalDirection(snapshot) };
  };
  return { actor, list, realtime, price, shown };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('wallets: balances and live prices', () => {
  it('loads the list, values it at the list’s prices, and listens on coin_price for those coins', async () => {
    const { actor, list, realtime, shown } = await openWallets();
    const snapshot = actor.getSnapshot();
    expect(list).toHaveBeenCalledOnce();
    expect(selectIsLoading(snapshot)).toBe(false);
    expect(selectWallets(snapshot)).toEqual(walletList);
    expect(shown()).toEqual({ total: walletListTotal, direction: null });
    expect(selectPrices(selectLivePrices(snapshot)!.getSnapshot())).toEqual({
      BTC: { price: '60000.00', direction: null },
      ETH: { price: '3000.10', direction: null },
      USDT: { price: '1.00', direction: null },
    });
    expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(1);
    actor.stop();
    expect(realtime.listeners(COIN_PRICE_CHANNEL), 'leaving the screen ends the subscription').toBe(0);
  });

  it('is busy until the first answer', async () => {
    let answer!: (wallets: WalletItem[]) => void;
    const { actor } = await openWallets([() => new Promise((resolve) => (answer = resolve))]);
    expect(selectIsLoading(actor.getSnapshot())).toBe(true);
    expect(selectWallets(actor.getSnapshot())).toBeNull();
    expect(selectTotal(actor.getSnapshot())).toBeNull();
    answer(walletList);
    await flush();
    expect(selectIsLoading(actor.getSnapshot())).toBe(false);
  });

  it('marks the total up or down against the total before it on every price, exactly', async () => {
    const { price, shown } = await openWallets();
    price('BTC', '61000.00');
    // 0.5 BTC gained 500.00.
    expect(shown()).toEqual({ total: '38000.2', direction: 'up' });
    price('ETH', '2999.95');
    // 2 ETH lost 0.30.
    expect(shown()).toEqual({ total: '37999.9', direction: 'down' });
    price('USDT', '1.00');
    expect(shown(), 'an unchanged total keeps its last move').toEqual({ total: '37999.9', direction: 'down' });
    price('DOGE', '1');
    expect(shown(), 'a coin the trader does not hold changes nothing').toEqual({ total: '37999.9', direction: 'down' });
    price('ETH', '2999.950000000000000001');
    // 2 × 0.000000000000000001 more: a rise no float would see.
    expect(shown()).toEqual({ total: '37999.900000000000000002', direction: 'up' });
  });

  it('drops a price event that is not a decimal price', async () => {
    const { realtime, shown } = await openWallets();
    realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker: 'BTC', price: 61000 });
    realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker: 'BTC', price: 'NaN' });
    expect(shown()).toEqual({ total: walletListTotal, direction: null });
  });
});

describe('wallets: reading the balances again', () => {
  /** The socket connected and the trader's own channel joined, as the bell's channel usually already is. */
  const live = async (realtime: ReturnType<typeof fakeRealtime>) => {
    realtime.setState('connected');
    realtime.accept(OWN_CHANNEL);
    await flush();
  };
  const told = async (realtime: ReturnType<typeof fakeRealtime>) => {
    realtime.emit(OWN_CHANNEL, realtimeEvents.wallet, {});
    await flush();
  };

  it('reads the list the moment the trader’s own channel says `wallet`, so a credited deposit raises the total at once', async () => {
    const { actor, list, realtime, shown } = await openWallets([async () => walletList, async () => walletList, async () => creditedList]);
    expect(realtime.listeners(OWN_CHANNEL), 'the trader’s own channel is listened to').toBe(1);
    await live(realtime);
    expect(list, 'joined: read once more, in case a change was told before the join').toHaveBeenCalledTimes(2);
    await told(realtime);
    expect(list).toHaveBeenCalledTimes(3);
    expect(list.mock.calls, 'the first read may toast its failure; a background re-read must not').toEqual([[{}], [{ noToast: true }], [{ noToast: true }]]);
    expect(selectWallets(actor.getSnapshot())).toEqual(creditedList);
    // 0.25 BTC more at 60,000.00.
    expect(shown()).toEqual({ total: '52500.2', direction: 'up' });
    expect(selectIsLoading(actor.getSnapshot()), 'no loading flag for a refresh').toBe(false);
    expect(realtime.listeners(COIN_PRICE_CHANNEL), 'the prices’ subscription stays open across refreshes').toBe(1);
    actor.stop();
    expect(realtime.listeners(OWN_CHANNEL), 'leaving the screen ends the subscription').toBe(0);
  });

  it('reads nothing on a timer while the channel is live', async () => {
    const { list, realtime } = await openWallets();
    await live(realtime);
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 4);
    expect(list).toHaveBeenCalledTimes(2);
  });

  it('a change told while a read is on its way starts it over: that read may have read before the change', async () => {
    let answer!: (wallets: WalletItem[]) => void;
    const { actor, list, realtime, shown } = await openWallets([
      async () => walletList,
      () => new Promise((resolve) => (answer = resolve)),
      async () => creditedList,
    ]);
    await told(realtime);
    expect(list).toHaveBeenCalledTimes(2);
    await told(realtime);
    expect(list).toHaveBeenCalledTimes(3);
    expect(shown()).toEqual({ total: '52500.2', direction: 'up' });
    answer(walletList);
    await flush();
    expect(selectWallets(actor.getSnapshot()), 'the read started over is the one kept').toEqual(creditedList);
  });

  it('while the channel cannot reach the page, reads the list every 15 s instead, and stops when it is back', async () => {
    const { list, realtime, shown } = await openWallets([async () => walletList, async () => creditedList]);
    realtime.setState('offline');
    await vi.advanceTimersByTimeAsync(REFRESH_MS - 1);
    expect(list).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(1);
    expect(list).toHaveBeenCalledTimes(2);
    expect(shown()).toEqual({ total: '52500.2', direction: 'up' });
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(list).toHaveBeenCalledTimes(3);
    realtime.setState('connected');
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 3);
    expect(list, 'live again: no more timer').toHaveBeenCalledTimes(3);
  });

  it('values refreshed balances at the live prices, not at the older prices the list was read with', async () => {
    const { actor, realtime, price, shown } = await openWallets([async () => walletList, async () => creditedList]);
    price('BTC', '62000.00');
    expect(shown()).toEqual({ total: '38500.2', direction: 'up' });
    await told(realtime);
    // 0.75 BTC at the live 62,000.00 (46,500.00; the list still says 60,000.00), 6,000.20 ETH, 1,500.00 USDT.
    expect(shown()).toEqual({ total: '54000.2', direction: 'up' });
    const btc = selectPrices(selectLivePrices(actor.getSnapshot())!.getSnapshot()).BTC;
    expect(btc).toEqual({ price: '62000.00', direction: 'up' });
  });

  it('a refresh that fails keeps the last balances; the next change told reads them again', async () => {
    const { actor, list, realtime, shown } = await openWallets([async () => walletList, failure, async () => creditedList]);
    await told(realtime);
    expect(list).toHaveBeenCalledTimes(2);
    expect(selectWallets(actor.getSnapshot())).toEqual(walletList);
    expect(shown()).toEqual({ total: walletListTotal, direction: null });
    await told(realtime);
    expect(list).toHaveBeenCalledTimes(3);
    expect(shown()).toEqual({ total: '52500.2', direction: 'up' });
  });

  it('a first load that fails clears the loading flag, shows nothing, and is tried again after 15 s or at a change told', async () => {
    const { actor, list, realtime, shown } = await openWallets([failure, async () => walletList]);
    expect(selectIsLoading(actor.getSnapshot())).toBe(false);
    expect(selectWallets(actor.getSnapshot())).toBeNull();
    expect(shown()).toEqual({ total: null, direction: null });
    expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(0);
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(list).toHaveBeenCalledTimes(2);
    expect(selectWallets(actor.getSnapshot())).toEqual(walletList);
    expect(shown(), 'the first total has nothing to compare with').toEqual({ total: walletListTotal, direction: null });
    expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(1);
  });

  it('a first load that failed is tried again at once when the channel tells of a change', async () => {
    const { actor, list, realtime } = await openWallets([failure, async () => walletList]);
    await told(realtime);
    expect(list).toHaveBeenCalledTimes(2);
    expect(selectWallets(actor.getSnapshot())).toEqual(walletList);
  });

  it('drops a `wallet` event that is not what the contract says', async () => {
    const { list, realtime } = await openWallets();
    realtime.emit(OWN_CHANNEL, realtimeEvents.wallet, 'credited');
    await flush();
    expect(list).toHaveBeenCalledOnce();
  });
});

describe('wallets: the show/hide toggle', () => {
  it('masks and unmasks, whatever the balances are doing', async () => {
    const { actor } = await openWallets([failure]);
    expect(selectIsMasked(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'balances.toggle' });
    expect(selectIsMasked(actor.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(selectIsMasked(actor.getSnapshot()), 'a reload does not unmask').toBe(true);
    actor.send({ type: 'balances.toggle' });
    expect(selectIsMasked(actor.getSnapshot())).toBe(false);
  });
});

describe('the total’s arithmetic', () => {
  it('sums balance × price exactly, at the list’s price where no other is known', () => {
    expect(portfolioTotal(walletList, {})).toBe(walletListTotal);
    expect(portfolioTotal([usdtWallet], { USDT: '0.99999' })).toBe('1499.985');
    expect(portfolioTotal([], {})).toBe('0');
    expect(holdingValue({ ...btcWallet, balance: '0.1' }, '0.2')).toBe('0.02');
  });

  it('moves against the total before it; none before there is one', () => {
    const context = { username: ME, wallets: [ethWallet], prices: {}, total: null, totalDirection: null };
    expect(recomputedTotal(context)).toEqual({ total: '6000.2', totalDirection: null });
    expect(recomputedTotal({ ...context, total: '6000.20' }), 'equal, written otherwise').toEqual({ total: '6000.2', totalDirection: null });
    expect(recomputedTotal({ ...context, total: '6000.3', totalDirection: 'up' })).toEqual({ total: '6000.2', totalDirection: 'down' });
    expect(recomputedTotal({ ...context, total: '6000.2', totalDirection: 'down' })).toEqual({ total: '6000.2', totalDirection: 'down' });
    expect(recomputedTotal({ ...context, wallets: null })).toEqual({ total: null, totalDirection: null });
  });
});
