import { createActor } from 'xstate';
import { COIN_PRICE_CHANNEL, realtimeEvents, userChannelName, type Overview, type WalletItem } from '../../contracts/index.ts';
import { bindDashboard } from '../../src/machines/dashboard/dashboard.actors.ts';
import {
  liveTotalBalance,
  selectIsLoading,
  selectLivePrices,
  selectOverview,
  selectPricesUnavailable,
  selectWallets,
} from '../../src/machines/dashboard/dashboard.selectors.ts';
import { selectPrices } from '../../src/machines/livePrices/livePrices.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { AccountService } from '../../src/services/accounts.ts';
import { fakeRealtime } from '../support/chat.ts';
import { flush } from '../support/machines.ts';
import { btcWallet, ethWallet, wallets } from '../support/wallets.ts';

const overview = (total_balance: string): Overview => ({
  total_balance,
  active_offers: 1,
  completed_trades: 2,
  open_chats: 0,
  recent_trades: [],
});
/** 0.5 BTC at 60,000.00 and 2 ETH at 3,000.10: 36,000.20 available, plus 0.1 BTC (6,000.00) in escrow. */
const withEscrow = overview('42000.20');

/** The dashboard bound as the route binds it, with the two calls and the connection faked. */
async function startDashboard(answers: { overview?: () => Promise<Overview | null>; wallets?: () => Promise<WalletItem[]> } = {}) {
  const realtime = fakeRealtime();
  const accounts = {
    overview: vi.fn(answers.overview ?? (async () => withEscrow)),
    wallets: vi.fn(answers.wallets ?? (async () => wallets)),
  };
  const deps = { accounts: accounts as unknown as AccountService, realtime: realtime.service } as FlowDeps;
  const actor = createActor(bindDashboard(deps), { input: { username: 'erin' } }).start();
  await flush();
  const price = (ticker: string, value: string) => realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker, price: value });
  const total = () => {
    const snapshot = actor.getSnapshot();
    const child = selectLivePrices(snapshot);
    return liveTotalBalance(selectOverview(snapshot), selectWallets(snapshot), child && selectPrices(child.getSnapshot()));
  };
  return { actor, accounts, realtime, price, total };
}

describe('dashboard', () => {
  it('loads the overview and the wallet list, then listens on coin_price for the wallets’ coins', async () => {
    const { actor, accounts, realtime } = await startDashboard();
    expect(accounts.overview).toHaveBeenCalledOnce();
    expect(accounts.wallets).toHaveBeenCalledOnce();
    const snapshot = actor.getSnapshot();
    expect(selectIsLoading(snapshot)).toBe(false);
    expect(selectWallets(snapshot)).toEqual(wallets);
    expect(selectPrices(selectLivePrices(snapshot)!.getSnapshot())).toEqual({
      BTC: { price: '60000.00', direction: null },
      ETH: { price: '3000.10', direction: null },
    });
    expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(1);
    actor.stop();
    expect(realtime.listeners(COIN_PRICE_CHANNEL), 'leaving the dashboard ends the subscription').toBe(0);
  });

  it('a balance change told on the trader’s own channel reads the overview and the wallets again: Total Balance shows it at once', async () => {
    let answer = withEscrow;
    const { actor, accounts, realtime, total } = await startDashboard({ overview: async () => answer });
    expect(realtime.listeners(userChannelName('erin')), 'the trader’s own channel, while the dashboard is open').toBe(1);
    expect(total()).toBe('42000.2');
    // A deposit of 0.25 BTC is credited (at 60,000.00: 15,000.00 more).
    answer = overview('57000.20');
    realtime.emit(userChannelName('erin'), realtimeEvents.wallet, {});
    await flush();
    expect(accounts.overview).toHaveBeenCalledTimes(2);
    expect(accounts.wallets).toHaveBeenCalledTimes(2);
    expect(total()).toBe('57000.2');
    // Another trader's channel is not the dashboard's business.
    realtime.emit(userChannelName('frank'), realtimeEvents.wallet, {});
    await flush();
    expect(accounts.overview).toHaveBeenCalledTimes(2);
    actor.stop();
    expect(realtime.listeners(userChannelName('erin')), 'leaving the dashboard ends it').toBe(0);
  });

  it('Total Balance starts at the overview’s figure and follows the live prices of the available balances', async () => {
    const { price, total } = await startDashboard();
    expect(total()).toBe('42000.2');
    price('BTC', '61000.00');
    // 0.5 BTC gained 500.00; the escrowed 0.1 BTC stays at its starting price rather than leaving the total.
    expect(total()).toBe('42500.2');
    price('ETH', '2999.95');
    expect(total()).toBe('42499.9');
    price('DOGE', '1');
    expect(total()).toBe('42499.9');
  });

  it('without an overview, Total Balance is the sum of balance × live price, exact', async () => {
    const { price, total } = await startDashboard({ overview: async () => null });
    expect(total()).toBe('36000.2');
    price('BTC', '60000.00000001');
    expect(total()).toBe('36000.200000005');
  });

  it('a wallet list that fails leaves no live prices and Total Balance at the overview’s figure', async () => {
    const { actor, realtime, total } = await startDashboard({ wallets: async () => Promise.reject(new Error('Internet server error')) });
    expect(selectPricesUnavailable(actor.getSnapshot())).toBe(true);
    expect(selectLivePrices(actor.getSnapshot())).toBeUndefined();
    expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(0);
    expect(total()).toBe('42000.20');
  });

  it('with neither, Total Balance is unknown (the card shows 0)', async () => {
    const { total } = await startDashboard({
      overview: async () => null,
      wallets: async () => Promise.reject(new Error('Internet server error')),
    });
    expect(total()).toBeNull();
  });

  it('a refresh reloads the overview and the wallets together, so the total starts again from one moment', async () => {
    let round = 0;
    const { actor, accounts, realtime, price, total } = await startDashboard({
      overview: async () => (round === 0 ? withEscrow : overview('42500.20')),
      wallets: async () => (round === 0 ? wallets : [{ ...btcWallet, coin__price: '61000.00' }, ethWallet]),
    });
    price('BTC', '61000.00');
    expect(total()).toBe('42500.2');
    round = 1;
    actor.send({ type: 'overview.refresh' });
    await flush();
    expect(accounts.overview).toHaveBeenCalledTimes(2);
    expect(accounts.wallets).toHaveBeenCalledTimes(2);
    expect(total()).toBe('42500.2');
    expect(realtime.listeners(COIN_PRICE_CHANNEL), 'one subscription, not one per load').toBe(1);
    price('BTC', '61000.00');
    expect(total(), 'the new starting prices are the base').toBe('42500.2');
  });
});

describe('liveTotalBalance', () => {
  it('uses the wallet list’s price for a coin without a live price', () => {
    expect(liveTotalBalance(null, [btcWallet], {})).toBe('30000');
    expect(liveTotalBalance(null, [], undefined)).toBe('0');
    expect(liveTotalBalance(overview('10.00'), [], undefined)).toBe('10');
  });
});
