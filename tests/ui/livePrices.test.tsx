import { act, screen, within } from '@testing-library/react';
import { createActor, fromPromise } from 'xstate';
import { COIN_PRICE_CHANNEL, type Overview, type WalletItem } from '../../contracts/index.ts';
import { dashboardMachine } from '../../src/machines/dashboard/dashboard.machine.ts';
import { bindLivePrices } from '../../src/machines/livePrices/livePrices.actors.ts';
import type { PriceQuote } from '../../src/machines/livePrices/livePrices.machine.ts';
import { offerBrowserLogic } from '../../src/machines/offerBrowser/offerBrowser.actors.ts';
import { DashboardScreen } from '../../src/ui/dashboard/DashboardScreen.tsx';
import { OffersScreen } from '../../src/ui/offers/OffersScreen.tsx';
import { fakeRealtime } from '../support/chat.ts';
import { scriptedActors } from '../support/machines.ts';
import { components, offerItem, paginator } from '../support/offers.ts';
import { wallets } from '../support/wallets.ts';
import { renderWithRouter } from './render.tsx';

const overview: Overview = { total_balance: '42000.20', active_offers: 1, completed_trades: 2, open_chats: 0, recent_trades: [] };

async function showDashboard(answers: { wallets?: () => Promise<WalletItem[]> } = {}) {
  const realtime = fakeRealtime();
  const actor = createActor(
    dashboardMachine.provide({
      actors: {
        loadOverview: fromPromise<Overview | null>(async () => overview),
        loadWallets: fromPromise<WalletItem[]>(answers.wallets ?? (async () => wallets)),
        livePrices: bindLivePrices(realtime.service),
      },
    }),
    { input: { username: 'erin' } },
  ).start();
  await renderWithRouter(() => <DashboardScreen actor={actor} username="erin" />);
  const price = (ticker: string, value: string) => act(() => realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker, price: value }));
  return { realtime, price };
}

const panel = () => screen.getByRole('region', { name: 'Live prices' });
const row = (name: string) => within(panel()).getByRole('listitem', { name });
const totalBalance = () => screen.getByText('Total Balance').parentElement!.parentElement!;

describe('Dashboard: live prices', () => {
  it('lists each coin with its image, label, upper-case ticker and USD price (2 decimals, en-US)', async () => {
    await showDashboard();
    const bitcoin = await within(await screen.findByRole('region', { name: 'Live prices' })).findByRole('listitem', {
      name: 'Bitcoin BTC',
    });
    expect(within(bitcoin).getByText('Bitcoin')).toBeInTheDocument();
    expect(within(bitcoin).getByText('BTC')).toBeInTheDocument();
    expect(within(bitcoin).getByText('$60,000.00')).toBeInTheDocument();
    expect(bitcoin.querySelector('img')).toHaveAttribute('src', '/coins/btc.svg');
    expect(within(row('Ethereum ETH')).getByText('$3,000.10')).toBeInTheDocument();
    expect(within(bitcoin).queryByText(/price (up|down)/)).toBeNull();
    expect(bitcoin.querySelector('[data-direction]'), 'no move before the first price').toBeNull();
  });

  it('moves each price as the server publishes it: up or down in colour, with an arrow and words', async () => {
    const { price } = await showDashboard();
    await screen.findByRole('listitem', { name: 'Bitcoin BTC' });
    await price('BTC', '60500.456');
    const bitcoin = row('Bitcoin BTC');
    expect(within(bitcoin).getByText('$60,500.46')).toBeInTheDocument();
    expect(within(bitcoin).getByText('price up')).toBeInTheDocument();
    expect(bitcoin.querySelector('[data-direction]')).toHaveAttribute('data-direction', 'up');
    expect(bitcoin.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');

    await price('BTC', '59999.994');
    expect(within(row('Bitcoin BTC')).getByText('$59,999.99')).toBeInTheDocument();
    expect(within(row('Bitcoin BTC')).getByText('price down')).toBeInTheDocument();
    expect(row('Bitcoin BTC').querySelector('[data-direction]')).toHaveAttribute('data-direction', 'down');
    expect(row('Ethereum ETH').querySelector('[data-direction]'), 'another coin does not move').toBeNull();
  });

  it('Total Balance follows the live prices', async () => {
    const { price } = await showDashboard();
    await screen.findByRole('listitem', { name: 'Bitcoin BTC' });
    expect(within(totalBalance()).getByText('$42,000.20')).toBeInTheDocument();
    await price('BTC', '61000');
    expect(within(totalBalance()).getByText('$42,500.20')).toBeInTheDocument();
    await price('ETH', '2999.999');
    // 42,500.20 − 2 × 0.101 = 42,499.998: rounded only for display.
    expect(within(totalBalance()).getByText('$42,500.00')).toBeInTheDocument();
  });

  it('shows "Live" only while the server has the subscription', async () => {
    const { realtime } = await showDashboard();
    await screen.findByRole('listitem', { name: 'Bitcoin BTC' });
    expect(within(panel()).queryByText('Live')).toBeNull();
    act(() => {
      realtime.setState('connected');
      realtime.accept(COIN_PRICE_CHANNEL);
    });
    expect(within(panel()).getByText('Live')).toBeInTheDocument();
    act(() => realtime.setState('connecting'));
    expect(within(panel()).queryByText('Live')).toBeNull();
  });

  it('says so when the wallet list could not load', async () => {
    await showDashboard({ wallets: async () => Promise.reject(new Error('Internet server error')) });
    expect(await within(panel()).findByText('Prices are unavailable right now.')).toBeInTheDocument();
    expect(within(totalBalance()).getByText('$42,000.20')).toBeInTheDocument();
  });
});

describe('Browse Offers: each card’s live coin price', () => {
  const eurOffer = offerItem(1, { coin__ticker: 'btc', currency__code: 'EUR', rate: '0.95', user__username: 'bob' });
  const ngnOffer = offerItem(2, {
    offer_type: 'buy',
    coin__ticker: 'eth',
    coin__label: 'Ethereum',
    currency__code: 'NGN',
    rate: '1530.5',
    user__username: 'carol',
  });
  const starting: PriceQuote[] = [
    { ticker: 'btc', price: '60000.00' },
    { ticker: 'eth', price: '3000.10' },
  ];

  async function browse(prices: () => Promise<PriceQuote[]> = async () => starting) {
    const fakes = scriptedActors(['loadComponents', 'loadOffers']);
    const realtime = fakeRealtime();
    const actor = createActor(
      offerBrowserLogic.provide({
        actors: { ...fakes.actors, loadPrices: fromPromise(prices), livePrices: bindLivePrices(realtime.service) } as never,
      }),
    ).start();
    await renderWithRouter(() => <OffersScreen actor={actor} username="alice" />, '/offers');
    await act(() => fakes.resolve('loadComponents', components));
    await act(() => fakes.resolve('loadOffers', { offers: [eurOffer, ngnOffer], paginator: paginator(1, 1) }));
    const price = (ticker: string, value: string) => act(() => realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker, price: value }));
    return { price };
  }

  const card = (name: string) => screen.getByRole('article', { name });

  it('shows one coin in the offer’s currency: rate × USD price, 2 decimals en-US, beside the spec’s rate line', async () => {
    await browse();
    const bobs = card('sell offer by bob');
    expect(await within(bobs).findByText('1 BTC ≈ 57,000.00 EUR')).toBeInTheDocument();
    expect(within(bobs).getByText('Rate: 1.00 USD = 0.95 EUR')).toBeInTheDocument();
    // 1530.5 × 3000.10 = 4,591,653.05
    expect(within(card('buy offer by carol')).getByText('1 ETH ≈ 4,591,653.05 NGN')).toBeInTheDocument();
  });

  it('updates as the price moves, marked up or down', async () => {
    const { price } = await browse();
    await within(card('sell offer by bob')).findByText('1 BTC ≈ 57,000.00 EUR');
    await price('btc', '60100.123');
    const line = within(card('sell offer by bob')).getByText('1 BTC ≈ 57,095.12 EUR');
    expect(line.parentElement).toHaveAttribute('data-direction', 'up');
    expect(within(card('sell offer by bob')).getByText('price up')).toBeInTheDocument();
    await price('btc', '59000');
    expect(within(card('sell offer by bob')).getByText('1 BTC ≈ 56,050.00 EUR').parentElement).toHaveAttribute('data-direction', 'down');
    expect(within(card('buy offer by carol')).getByText('1 ETH ≈ 4,591,653.05 NGN').parentElement).not.toHaveAttribute('data-direction');
  });

  it('shows no price line when the prices could not load', async () => {
    await browse(async () => Promise.reject(new Error('Internet server error')));
    expect(within(card('sell offer by bob')).getByText('Rate: 1.00 USD = 0.95 EUR')).toBeInTheDocument();
    expect(within(card('sell offer by bob')).queryByText(/≈/)).toBeNull();
  });
});
