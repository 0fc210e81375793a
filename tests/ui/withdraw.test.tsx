import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SimulatedClock, createActor } from 'xstate';
import { WITHDRAWAL_PREVIEW_SECONDS } from '../../contracts/index.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { withdrawalLogic } from '../../src/machines/withdrawal/withdrawal.actors.ts';
import { ApiError } from '../../src/services/api.ts';
import { WithdrawScreen } from '../../src/ui/wallets/WithdrawScreen.tsx';
import { scriptedActors } from '../support/machines.ts';
import { btcPreview, btcRecipient, confirmedText, tronRecipient, usdtPreview, withdrawalCoins } from '../support/withdrawal-fixtures.ts';
import { choose } from '../support/select.ts';

const DEBOUNCE_MS = 500;

/** The Withdraw screen on a chart whose calls are faked, the coins loaded. */
async function withdrawScreen() {
  const fakes = scriptedActors(['loadWallets', 'previewWithdrawal', 'confirmWithdrawal']);
  const notices: Notice[] = [];
  const goToTransactions = vi.fn();
  const clock = new SimulatedClock();
  const actor = createActor(
    withdrawalLogic.provide({ actors: fakes.actors as never, actions: { notify: (_, notice) => void notices.push(notice), goToTransactions } }),
    { clock },
  ).start();
  render(<WithdrawScreen actor={actor} />);
  await act(() => fakes.resolve('loadWallets', withdrawalCoins));
  return {
    actor,
    fakes,
    notices,
    goToTransactions,
    clock,
    typist: userEvent.setup(),
    /** The trader stops typing for the debounce. */
    pause: () => act(() => clock.increment(DEBOUNCE_MS)),
  };
}

const amountBox = (unit: string) => screen.getByRole('textbox', { name: `Amount (${unit})` });
const recipientBox = () => screen.getByRole('textbox', { name: 'Recipient Address' });
const confirmButton = () => screen.queryByRole('button', { name: /^(Confirm Withdrawal|Processing\.\.\.)$/ });

/** 0.01 BTC to a recipient, previewed. */
async function previewed() {
  const view = await withdrawScreen();
  await choose(view.typist, 'Coin', /Bitcoin \(BTC\)/);
  await view.typist.type(recipientBox(), btcRecipient);
  await view.typist.type(amountBox('BTC'), '0.01');
  await view.pause();
  await act(() => view.fakes.resolve('previewWithdrawal', btcPreview));
  return view;
}

describe('Withdraw screen', () => {
  it('offers each coin with its available balance and USD value, the fields and the security notice; no Confirm yet', async () => {
    const { typist } = await withdrawScreen();
    expect(screen.getByRole('heading', { name: 'Withdraw', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Network' })).not.toBeInTheDocument();
    expect(recipientBox()).toHaveAttribute('name', 'recipient');
    expect(amountBox('Crypto')).toHaveAttribute('name', 'amount');
    expect(confirmButton()).not.toBeInTheDocument();

    await typist.click(screen.getByRole('combobox', { name: 'Coin' }));
    expect(await screen.findByRole('option', { name: /Bitcoin \(BTC\)/ })).toHaveTextContent('0.50000000 BTC · $30,000.00');
    expect(screen.getByRole('option', { name: /Ethereum \(ETH\)/ })).toHaveTextContent('2.000000000000000000 ETH · $6,000.20');
    expect(screen.getByRole('option', { name: /Tether \(USDT\)/ })).toHaveTextContent('250.000000 USDT · $250.00');

    const notice = within(screen.getByRole('complementary', { name: 'Security Notice' }));
    expect(notice.getByText(/Double-check the recipient address/)).toBeInTheDocument();
    expect(notice.getByText(/irreversible/)).toBeInTheDocument();
    expect(notice.getByText(/network matches/)).toBeInTheDocument();
    expect(notice.getByText(/Network fees are deducted automatically/)).toBeInTheDocument();
    expect(notice.getByText(/10-30 minutes/)).toBeInTheDocument();
    expect(notice.getByText(/Contact support/)).toBeInTheDocument();
  });

  it('names the only network of a coin, and asks for one when the coin has several', async () => {
    const { typist } = await withdrawScreen();
    await choose(typist, 'Coin', /Bitcoin \(BTC\)/);
    expect(screen.getByText('Available: 0.50000000 BTC ($30,000.00)')).toBeInTheDocument();
    expect(screen.getByText('Network:').parentElement).toHaveTextContent('Network: Bitcoin');
    expect(screen.queryByRole('combobox', { name: 'Network' })).not.toBeInTheDocument();

    await choose(typist, 'Coin', /Tether \(USDT\)/);
    await choose(typist, 'Network', 'Tron (TRC-20)');
    expect(screen.getByRole('combobox', { name: 'Network' })).toHaveTextContent('Tron (TRC-20)');
  });

  it('asks for the preview after the pause and shows the fee in USD and in crypto; Confirm is enabled', async () => {
    const view = await withdrawScreen();
    await choose(view.typist, 'Coin', /Tether \(USDT\)/);
    await choose(view.typist, 'Network', 'Tron (TRC-20)');
    await view.typist.type(recipientBox(), tronRecipient);
    await view.typist.type(amountBox('USDT'), '100');
    expect(view.fakes.calls.filter((call) => call.id === 'previewWithdrawal'), 'not while typing').toEqual([]);
    expect(screen.getByText('Calculating the network fee...')).toBeInTheDocument();
    await view.pause();
    expect(view.fakes.calls.at(-1)).toEqual({
      id: 'previewWithdrawal',
      input: { amount: '100', mode: 'crypto', recipient: tronRecipient, ticker: 'USDT', network: 'tron' },
    });
    await act(() => view.fakes.resolve('previewWithdrawal', usdtPreview));
    const preview = screen.getByLabelText('Withdrawal preview');
    expect(within(preview).getByText('Network fee (USD)').nextElementSibling).toHaveTextContent('$1.00');
    expect(within(preview).getByText('Network fee (Crypto)').nextElementSibling).toHaveTextContent('1.000000 USDT');
    expect(within(preview).getByText('Recipient receives').nextElementSibling).toHaveTextContent('99.000000 USDT');
    expect(confirmButton()).toHaveTextContent('Confirm Withdrawal');
    expect(confirmButton()).toBeEnabled();
  });

  it('shows "This amount is higher than your balance" and asks for no preview', async () => {
    const view = await withdrawScreen();
    await choose(view.typist, 'Coin', /Bitcoin \(BTC\)/);
    await view.typist.type(recipientBox(), btcRecipient);
    await view.typist.type(amountBox('BTC'), '0.6');
    expect(screen.getByText('This amount is higher than your balance')).toBeInTheDocument();
    expect(amountBox('BTC')).toHaveAttribute('aria-invalid', 'true');
    await view.pause();
    expect(view.fakes.calls.filter((call) => call.id === 'previewWithdrawal')).toEqual([]);
    expect(confirmButton()).not.toBeInTheDocument();
  });

  it('the toggle converts the typed amount: crypto to USD with 2 decimals, back with the coin’s places', async () => {
    const { typist } = await withdrawScreen();
    await choose(typist, 'Coin', /Bitcoin \(BTC\)/);
    await typist.type(amountBox('BTC'), '0.01234567');
    await typist.click(screen.getByRole('button', { name: 'Enter in USD' }));
    expect(amountBox('USD')).toHaveValue('740.74');
    await typist.click(screen.getByRole('button', { name: 'Enter in BTC' }));
    expect(amountBox('BTC')).toHaveValue(`0.01234566`);
  });

  it('with a preview shown, the toggle shows the amount the preview states and keeps the preview and Confirm', async () => {
    const view = await withdrawScreen();
    await choose(view.typist, 'Coin', /Bitcoin \(BTC\)/);
    await view.typist.type(recipientBox(), btcRecipient);
    await view.typist.click(screen.getByRole('button', { name: 'Enter in USD' }));
    await view.typist.type(amountBox('USD'), '1000');
    await view.pause();
    // The server converted at its price of the moment, not the page's 60,000.00.
    const preview = { ...btcPreview, amount_crypto: '0.01038603', amount_usd: '999.99', receive_crypto: '0.01036603' };
    await act(() => view.fakes.resolve('previewWithdrawal', preview));
    const shown = within(screen.getByLabelText('Withdrawal preview'));
    expect(shown.getByText('0.01038603 BTC ($999.99)')).toBeInTheDocument();

    await view.typist.click(screen.getByRole('button', { name: 'Enter in BTC' }));
    expect(amountBox('BTC')).toHaveValue('0.01038603');
    expect(within(screen.getByLabelText('Withdrawal preview')).getByText('0.01038603 BTC ($999.99)')).toBeInTheDocument();
    expect(confirmButton()).toBeEnabled();
    await view.typist.click(screen.getByRole('button', { name: 'Enter in USD' }));
    expect(amountBox('USD')).toHaveValue('1000');
    await view.pause();
    expect(view.fakes.calls.filter((call) => call.id === 'previewWithdrawal'), 'no new preview: only the unit changed').toHaveLength(1);
  });

  it('confirming reads "Processing..." and locks the form; success toasts the server’s sentence and goes to /wallets/transactions', async () => {
    const view = await previewed();
    await view.typist.click(confirmButton()!);
    expect(view.fakes.calls.at(-1)).toEqual({ id: 'confirmWithdrawal', input: undefined });
    expect(confirmButton()).toHaveTextContent('Processing...');
    expect(confirmButton()).toBeDisabled();
    expect(amountBox('BTC')).toBeDisabled();
    expect(recipientBox()).toBeDisabled();
    await act(() => view.fakes.resolve('confirmWithdrawal', confirmedText));
    expect(view.notices).toEqual([{ title: 'Withdrawal Submitted', description: confirmedText, type: 'success' }]);
    expect(view.goToTransactions).toHaveBeenCalledTimes(1);
  });

  it('a failed confirm clears the preview and its button', async () => {
    const view = await previewed();
    await view.typist.click(confirmButton()!);
    await act(() => view.fakes.reject('confirmWithdrawal', new ApiError('No withdrawal preview to confirm', 409)));
    expect(screen.queryByLabelText('Withdrawal preview')).not.toBeInTheDocument();
    expect(confirmButton()).not.toBeInTheDocument();
    expect(amountBox('BTC')).toBeEnabled();
  });

  it('an edit hides the preview and Confirm until the new one arrives', async () => {
    const { typist } = await previewed();
    await typist.type(amountBox('BTC'), '2');
    expect(screen.queryByLabelText('Withdrawal preview')).not.toBeInTheDocument();
    expect(confirmButton()).not.toBeInTheDocument();
  });

  it('submitting without coin, network or amount toasts "Missing Information"', async () => {
    const view = await withdrawScreen();
    fireEvent.submit(screen.getByRole('form', { name: 'Withdraw' }));
    expect(view.notices).toEqual([{ title: 'Missing Information', description: 'Please fill in all required fields.', type: 'error' }]);
  });

  it('an expired preview is dropped; "Refresh Preview" asks again', async () => {
    const view = await previewed();
    await act(() => view.clock.increment(WITHDRAWAL_PREVIEW_SECONDS * 1000));
    expect(screen.queryByLabelText('Withdrawal preview')).not.toBeInTheDocument();
    expect(confirmButton()).not.toBeInTheDocument();
    expect(screen.getByText('The fee preview expired.')).toBeInTheDocument();
    await view.typist.click(screen.getByRole('button', { name: 'Refresh Preview' }));
    expect(view.fakes.calls.filter((call) => call.id === 'previewWithdrawal')).toHaveLength(2);
    await act(() => view.fakes.resolve('previewWithdrawal', btcPreview));
    expect(confirmButton()).toBeEnabled();
  });
});
