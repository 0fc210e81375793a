import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QRCodeSVG } from 'qrcode.react';
import { SimulatedClock, createActor } from 'xstate';
import { COIN_PRICE_CHANNEL, realtimeEvents, userChannelName, type WalletAddressEntry, type WalletItem } from '../../contracts/index.ts';
import { bindDeposit } from '../../src/machines/deposit/deposit.actors.ts';
import { Route as DepositRoute } from '../../src/routes/_app/wallets/deposit.tsx';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { bindWallets } from '../../src/machines/wallets/wallets.actors.ts';
import type { WalletService } from '../../src/services/wallets.ts';
import { Toaster, toaster } from '../../src/ui/primitives/Toaster.tsx';
import { DepositScreen } from '../../src/ui/wallets/DepositScreen.tsx';
import { WalletsScreen } from '../../src/ui/wallets/WalletsScreen.tsx';
import { fakeRealtime } from '../support/chat.ts';
import { flush } from '../support/machines.ts';
import { addressEntries, addresses, creditedList, walletList } from '../support/wallet-fixtures.ts';
import { renderWithRouter } from './render.tsx';
import { choose } from '../support/select.ts';

const DOTS = '••••••';
const ME = 'carol';
/** The trader's own channel says a balance changed (docs/api.md "Realtime"). */
const walletChanged = (realtime: ReturnType<typeof fakeRealtime>) =>
  act(async () => {
    realtime.emit(userChannelName(ME), realtimeEvents.wallet, {});
    await flush();
  });

// ---------------------------------------------------------------------------------------------------
// My Wallets
// ---------------------------------------------------------------------------------------------------

/** My Wallets bound as the route binds it, the list call and the connection faked, its timers on a simulated clock. */
async function showWallets(answers: Array<() => Promise<WalletItem[]>> = [async () => walletList]) {
  const realtime = fakeRealtime();
  const clock = new SimulatedClock();
  let call = 0;
  const list = vi.fn(() => answers[Math.min(call++, answers.length - 1)]!());
  const deps = { wallets: { list } as unknown as WalletService, realtime: realtime.service } as FlowDeps;
  const actor = createActor(bindWallets(deps), { clock, input: { username: ME } }).start();
  await renderWithRouter(() => <WalletsScreen actor={actor} />, '/wallets');
  await act(flush);
  const price = (ticker: string, value: string) => act(() => realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker, price: value }));
  return { list, price, realtime, clock };
}

const card = (name: string) => screen.getByRole('article', { name });
const totalRegion = () => screen.getByRole('region', { name: 'Total Portfolio Value' });
const totalFigure = () => within(totalRegion()).getByText(/^\$|^—$|^•+$/).parentElement!;

describe('My Wallets', () => {
  it('has the title and the Deposit, Withdraw and History buttons', async () => {
    await showWallets();
    expect(screen.getByRole('heading', { level: 1, name: 'My Wallets' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Deposit' })).toHaveAttribute('href', '/wallets/deposit');
    expect(screen.getByRole('link', { name: 'Withdraw' })).toHaveAttribute('href', '/wallets/withdraw');
    expect(screen.getByRole('link', { name: 'History' })).toHaveAttribute('href', '/wallets/transactions');
  });

  it('shows one card per coin: image, label, upper-case ticker, USD price, balance to the coin’s places, USD value', async () => {
    await showWallets();
    const bitcoin = card('Bitcoin wallet');
    expect(bitcoin.querySelector('img')).toHaveAttribute('src', '/coins/btc.svg');
    expect(within(bitcoin).getByText('Bitcoin')).toBeInTheDocument();
    expect(within(bitcoin).getByText('BTC')).toBeInTheDocument();
    expect(within(bitcoin).getByText('$60,000.00')).toBeInTheDocument();
    expect(within(bitcoin).getByText('0.50000000 BTC')).toBeInTheDocument();
    expect(within(bitcoin).getByText('≈ $30,000.00')).toBeInTheDocument();
    const ethereum = card('Ethereum wallet');
    expect(within(ethereum).getByText('2.000000000000000000 ETH')).toBeInTheDocument();
    expect(within(ethereum).getByText('≈ $6,000.20')).toBeInTheDocument();
    expect(within(card('Tether wallet')).getByText('1,500.000000 USDT')).toBeInTheDocument();
    expect(within(bitcoin).getByRole('link', { name: 'Deposit Bitcoin' })).toHaveAttribute('href', '/wallets/deposit?coin=BTC');
    expect(screen.getAllByRole('article')).toHaveLength(3);
  });

  it('shows the Total Portfolio Value in USD, 2 decimals en-US, with no arrow before a previous total', async () => {
    await showWallets();
    expect(within(totalRegion()).getByText('$37,500.20')).toBeInTheDocument();
    expect(totalFigure()).not.toHaveAttribute('data-direction');
    expect(within(totalRegion()).queryByText(/total (up|down)/)).toBeNull();
  });

  it('colours each card’s price up or down as the channel moves it, and the total with its arrow', async () => {
    const { price } = await showWallets();
    await price('BTC', '61000.004');
    const btcPrice = within(card('Bitcoin wallet')).getByLabelText('BTC price');
    expect(btcPrice).toHaveAttribute('data-direction', 'up');
    expect(within(btcPrice).getByText('$61,000.00')).toBeInTheDocument();
    expect(within(btcPrice).getByText('price up')).toBeInTheDocument();
    expect(within(card('Bitcoin wallet')).getByText('≈ $30,500.00')).toBeInTheDocument();
    expect(within(totalRegion()).getByText('$38,000.20')).toBeInTheDocument();
    expect(totalFigure()).toHaveAttribute('data-direction', 'up');
    expect(within(totalRegion()).getByText('total up')).toBeInTheDocument();

    await price('ETH', '2990');
    expect(within(card('Ethereum wallet')).getByLabelText('ETH price')).toHaveAttribute('data-direction', 'down');
    expect(within(card('Bitcoin wallet')).getByLabelText('BTC price'), 'another coin keeps its move').toHaveAttribute('data-direction', 'up');
    // 38,000.202 − 2 × 10.10 = 37,980.002: rounded only for display.
    expect(within(totalRegion()).getByText('$37,980.00')).toBeInTheDocument();
    expect(totalFigure()).toHaveAttribute('data-direction', 'down');
    expect(within(totalRegion()).getByText('total down')).toBeInTheDocument();
    expect(within(card('Tether wallet')).getByLabelText('USDT price')).not.toHaveAttribute('data-direction');
  });

  it('masks balances, USD values and the total as dots, and shows them again', async () => {
    const user = userEvent.setup();
    await showWallets();
    await user.click(screen.getByRole('button', { name: 'Hide balances' }));
    const bitcoin = card('Bitcoin wallet');
    expect(within(bitcoin).queryByText('0.50000000 BTC')).toBeNull();
    expect(within(bitcoin).queryByText('≈ $30,000.00')).toBeNull();
    expect(within(bitcoin).getAllByText(DOTS)).toHaveLength(2);
    expect(within(totalRegion()).queryByText('$37,500.20')).toBeNull();
    expect(within(totalRegion()).getByText(DOTS)).toBeInTheDocument();
    expect(within(bitcoin).getByText('$60,000.00'), 'prices are not the trader’s secret').toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show balances' }));
    expect(within(card('Bitcoin wallet')).getByText('0.50000000 BTC')).toBeInTheDocument();
    expect(within(totalRegion()).getByText('$37,500.20')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hide balances' })).toBeInTheDocument();
  });

  it('shows a credited deposit the moment the trader’s own channel tells of it, without a reload or a timer', async () => {
    const { list, realtime } = await showWallets([async () => walletList, async () => creditedList]);
    await walletChanged(realtime);
    expect(list).toHaveBeenCalledTimes(2);
    expect(within(card('Bitcoin wallet')).getByText('0.75000000 BTC')).toBeInTheDocument();
    expect(within(totalRegion()).getByText('$52,500.20')).toBeInTheDocument();
    expect(within(totalRegion()).getByText('total up')).toBeInTheDocument();
  });

  it('a list that fails clears the loading flag and shows no cards and no message of its own', async () => {
    await showWallets([async () => Promise.reject(new Error('Internet server error'))]);
    expect(screen.getByRole('heading', { level: 1, name: 'My Wallets' }).closest('section')).toHaveAttribute('aria-busy', 'false');
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.queryByText('Loading wallets…')).toBeNull();
    expect(within(totalRegion()).getByText('—')).toBeInTheDocument();
  });
});

// ---------------------------------------------------------------------------------------------------
// Deposit
// ---------------------------------------------------------------------------------------------------

/** Deposit bound as the route binds it: the addresses call and the clipboard faked, toasts on the real toaster. */
async function showDeposit(
  options: { copy?: (text: string) => Promise<void>; coin?: string; answer?: () => Promise<WalletAddressEntry[]>; later?: WalletAddressEntry[] } = {},
) {
  const copyText = vi.fn(options.copy ?? (async () => {}));
  const realtime = fakeRealtime();
  let reads = 0;
  const readAddresses = vi.fn(options.answer ?? (async () => (reads++ === 0 ? addressEntries : (options.later ?? addressEntries))));
  const deps = {
    wallets: { addresses: readAddresses } as unknown as WalletService,
    copyText,
    notify: (notice: Notice) => void toaster.create({ ...notice }),
    realtime: realtime.service,
  } as unknown as FlowDeps;
  const actor = createActor(bindDeposit(deps), { input: { coin: options.coin ?? null, username: ME } }).start();
  await renderWithRouter(
    () => (
      <>
        <DepositScreen actor={actor} onSelectCoin={(ticker) => actor.send({ type: 'coin.select', ticker })} />
        <Toaster />
      </>
    ),
    '/wallets/deposit',
  );
  await act(flush);
  return { copyText, readAddresses, realtime, user: userEvent.setup() };
}

const addressRegion = () => screen.getByRole('region', { name: 'Deposit address' });

/** The QR code's modules as qrcode.react draws them for `value` at the spec's size and level. */
function qrPathOf(value: string) {
  const { container, unmount } = render(<QRCodeSVG value={value} size={165} level="M" boostLevel={false} />);
  const path = container.querySelectorAll('path')[1]!.getAttribute('d');
  unmount();
  return path;
}

afterEach(() => act(() => void toaster.remove()));

describe('Deposit', () => {
  it('prompts "Select a cryptocurrency" before a coin is chosen, with no address or QR code', async () => {
    await showDeposit();
    expect(screen.getByRole('heading', { level: 1, name: 'Deposit' })).toBeInTheDocument();
    expect(within(addressRegion()).getByText('Select a cryptocurrency')).toBeInTheDocument();
    expect(addressRegion().querySelector('svg')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Copy Address' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Network' })).toBeNull();
  });

  it('USDT: asks for the network, then shows the QR code of the address, the network, the confirmations and the minimum', async () => {
    const { user } = await showDeposit();
    await choose(user, 'Cryptocurrency', 'Tether (USDT)');
    expect(within(addressRegion()).queryByText('Select a cryptocurrency')).toBeNull();
    expect(within(addressRegion()).getByText('Select the USDT network')).toBeInTheDocument();
    expect(addressRegion().querySelector('svg')).toBeNull();

    await choose(user, 'Network', 'Tron (TRC20)');
    const region = addressRegion();
    expect(within(region).getByText(addresses.tron)).toBeInTheDocument();
    const qr = within(region).getByTitle('QR code of your USDT deposit address').closest('svg')!;
    expect(qr).toHaveAttribute('height', '165');
    expect(qr).toHaveAttribute('width', '165');
    expect(qr.querySelectorAll('path')[1]!.getAttribute('d'), 'the QR code encodes the address, at level M').toBe(qrPathOf(addresses.tron));
    expect(qrPathOf(addresses.tron)).not.toBe(qrPathOf(addresses.ethereum));

    const networkRow = screen.getByText('Network:').parentElement!;
    expect(within(networkRow).getByText('Tron (TRC20)')).toBeInTheDocument();
    expect(networkRow.querySelector('img')).toHaveAttribute('src', '/coins/trx.svg');
    expect(screen.getByText('Confirmations: 1')).toBeInTheDocument();
    expect(screen.getByText('Min Deposit: 5 USD')).toBeInTheDocument();
    const notice = screen.getByRole('note', { name: 'Before you send' });
    expect(notice).toHaveTextContent('Send only USDT to this address');
    expect(notice).toHaveTextContent('Make sure the sender uses the Tron (TRC20) network');
    expect(notice).toHaveTextContent('Deposits may take up to 30 minutes');
    expect(notice).toHaveTextContent('Verify the address');

    await choose(user, 'Network', 'Ethereum (ERC20)');
    expect(within(addressRegion()).getByText(addresses.ethereum)).toBeInTheDocument();
    expect(addressRegion().querySelectorAll('path')[1]!.getAttribute('d')).toBe(qrPathOf(addresses.ethereum));
    // Each network says its own count: Ethereum read from a real node waits for 12.
    expect(screen.getByText('Confirmations: 12')).toBeInTheDocument();
  });

  it('a coin on one network shows its address at once, with no network selector', async () => {
    const { user } = await showDeposit();
    await choose(user, 'Cryptocurrency', 'Bitcoin (BTC)');
    expect(screen.queryByRole('combobox', { name: 'Network' })).toBeNull();
    expect(within(addressRegion()).getByText(addresses.bitcoin)).toBeInTheDocument();
    expect(screen.getByText('Network:').parentElement).toHaveTextContent('Bitcoin');
  });

  it('opens on the coin the wallet card linked to', async () => {
    await showDeposit({ coin: 'LTC' });
    expect(screen.getByRole('combobox', { name: 'Cryptocurrency' })).toHaveTextContent('Litecoin (LTC)');
    expect(within(addressRegion()).getByText(addresses.litecoin)).toBeInTheDocument();
  });

  it('Copy Address puts the address on the clipboard and toasts "Address copied to clipboard!"', async () => {
    const { user, copyText } = await showDeposit({ coin: 'BTC' });
    await user.click(screen.getByRole('button', { name: 'Copy Address' }));
    expect(copyText).toHaveBeenCalledExactlyOnceWith(addresses.bitcoin);
    expect(await screen.findByText('Address copied to clipboard!')).toBeInTheDocument();
  });

  it('when the browser refuses, the toast says to copy it by hand', async () => {
    const { user } = await showDeposit({ coin: 'BTC', copy: async () => Promise.reject(new DOMException('denied', 'NotAllowedError')) });
    await user.click(screen.getByRole('button', { name: 'Copy Address' }));
    expect(await screen.findByText('Could not copy the address')).toBeInTheDocument();
    expect(screen.getByText('Your browser did not allow it. Select the address and copy it by hand.')).toBeInTheDocument();
    expect(screen.queryByText('Address copied to clipboard!')).toBeNull();
  });

  it('shows the chosen coin’s balance, and a credited deposit the moment the trader’s own channel tells of it', async () => {
    const credited = addressEntries.map((entry) => (entry.coin.ticker === 'USDT' ? { ...entry, balance: '1750.000000' } : entry));
    const { user, readAddresses: read, realtime } = await showDeposit({ later: credited });
    expect(screen.queryByText(/balance$/)).toBeNull();
    await choose(user, 'Cryptocurrency', 'Tether (USDT)');
    await choose(user, 'Network', 'Tron (TRC20)');
    const line = screen.getByText('Your USDT balance').parentElement!;
    expect(line).toHaveTextContent('1,500.000000 USDT');
    await walletChanged(realtime);
    expect(read).toHaveBeenCalledTimes(2);
    expect(line).toHaveTextContent('1,750.000000 USDT');
    expect(within(addressRegion()).getByText(addresses.tron), 'the coin and network chosen stay').toBeInTheDocument();
  });

  it('a failed load leaves the prompt and nothing to choose', async () => {
    await showDeposit({ answer: async () => Promise.reject(new Error('Internet server error')) });
    expect(within(addressRegion()).getByText('Select a cryptocurrency')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Cryptocurrency' })).toBeDisabled();
  });
});

describe('/wallets/deposit?coin=', () => {
  const read = (search: Record<string, unknown>) => (DepositRoute.options.validateSearch as (search: Record<string, unknown>) => unknown)(search);

  it('takes a ticker in any case, upper-cased, and ignores anything else', () => {
    expect(read({ coin: 'usdt' })).toEqual({ coin: 'USDT' });
    expect(read({ coin: 'BTC' })).toEqual({ coin: 'BTC' });
    expect(read({})).toEqual({});
    expect(read({ coin: '<script>' })).toEqual({});
    expect(read({ coin: 42 })).toEqual({});
    expect(read({ coin: 'X'.repeat(11) })).toEqual({});
  });
});
