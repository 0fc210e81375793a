import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SimulatedClock, createActor } from 'xstate';
import { realtimeEvents, userChannelName } from '../../contracts/index.ts';
import { walletChanges, watchingConnection } from '../../src/machines/shared/channels.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { walletHistoryMachine } from '../../src/machines/walletHistory/walletHistory.machine.ts';
import { Toaster, toaster } from '../../src/ui/primitives/Toaster.tsx';
import { TransactionsScreen } from '../../src/ui/wallets/TransactionsScreen.tsx';
import { fakeRealtime } from '../support/chat.ts';
import { scriptedActors } from '../support/machines.ts';
import { paginator } from '../support/offers.ts';
import {
  btcTxid,
  chosenTransactions,
  coins,
  noTransactions,
  pendingPage,
  transactionPage,
  transactionRow,
} from '../support/transaction-fixtures.ts';
import { renderWithRouter } from './render.tsx';
import { choose } from '../support/select.ts';

const ME = 'carol';

/** The screen on its chart with the calls faked, the trader's own channel on a live fake connection, and the real toaster. */
async function transactions() {
  const fakes = scriptedActors(['loadCoins', 'loadTransactions', 'copyText']);
  const clock = new SimulatedClock();
  const realtime = fakeRealtime('connected');
  const notify = (_: unknown, notice: Notice) => void toaster.create({ ...notice });
  const actors = { ...fakes.actors, userChannel: walletChanges(realtime.service), watchConnection: watchingConnection(realtime.service) };
  const actor = createActor(walletHistoryMachine.provide({ actors: actors as never, actions: { notify } }), { clock, input: { username: ME } }).start();
  await renderWithRouter(
    () => (
      <>
        <TransactionsScreen actor={actor} />
        <Toaster />
      </>
    ),
    '/wallets/transactions',
  );
  const loads = () => fakes.calls.filter((call) => call.id === 'loadTransactions').map((call) => call.input);
  return {
    actor,
    fakes,
    clock,
    realtime,
    loads,
    answerCoins: () => act(() => fakes.resolve('loadCoins', coins)),
    answer: (history: Parameters<typeof fakes.resolve>[1]) => act(() => fakes.resolve('loadTransactions', history)),
    typist: userEvent.setup(),
  };
}

/** Settles a call whose answer toasts: the toaster renders its new toast on a later tick. */
const settleToast = (settle: () => Promise<void>) =>
  act(async () => {
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

const rows = () => screen.getAllByRole('row').slice(1);
const cellsOf = (index: number) => within(rows()[index]!).getAllByRole('cell');

// The toaster is one store for the whole file: each test starts without the last one's toasts.
afterEach(() => act(() => void toaster.remove()));

describe('Recent Transactions screen', () => {
  it('has the heading and the ten columns, in order', async () => {
    await transactions();
    expect(screen.getByRole('heading', { level: 1, name: 'Recent Transactions' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Date & Time',
      'Type',
      'Coin',
      'Amount (Crypto)',
      'Amount (USD)',
      'Fee (USD)',
      'Fee (Crypto)',
      'TXID',
      'Scope',
      'Status',
    ]);
  });

  it('shows a row per transaction: the date like "Nov 21 2026 05:22 PM", type, coin, amounts, fees, txid, scope, status', async () => {
    const { answer } = await transactions();
    await answer({
      transactions: [
        transactionRow(1, {
          trans_type: 'withdrawal',
          coin__ticker: 'usdt',
          coin__decimal_places: 6,
          network: 'tron',
          amount_crypto: '1250.5',
          amount_usd: '1250.5',
          fee_crypto: '1',
          fee_usd: '1.004',
          txid: 'a7c3e9f14b2d6e8a0c1f3b5d7e9a2c4e6f8b0d1a3c5e7f9b2d4f6a8c0e2b4d91',
          status: 'pending',
        }),
        transactionRow(2, { created: '2026-01-05T09:03:00.000', amount_usd: '32500', scope: 'external' }),
      ],
      paginator: paginator(1, 1),
    });
    expect(cellsOf(0).map((cell) => cell.textContent)).toEqual([
      'Nov 21 2026 05:22 PM',
      'Withdrawal',
      'USDT tron',
      '1,250.500000 USDT',
      '$1,250.50',
      '$1.00',
      '1.000000 USDT',
      'a7c3e9…4d91',
      'External',
      'pending',
    ]);
    expect(cellsOf(1).map((cell) => cell.textContent)).toEqual([
      'Jan 05 2026 09:03 AM',
      'Deposit',
      'BTC bitcoin',
      '0.50000000 BTC',
      '$32,500.00',
      '$0.00',
      '0.00000000 BTC',
      '3f9a1c…7d2e',
      'External',
      'completed',
    ]);
  });

  it('an internal transfer reads "Internal"; a row without a txid shows a dash and no copy button', async () => {
    const { answer } = await transactions();
    await answer({
      transactions: [transactionRow(1, { trans_type: 'withdrawal', scope: 'internal', txid: null }), transactionRow(2)],
      paginator: paginator(1, 1),
    });
    const [, , , , , , , txid, scope] = cellsOf(0);
    expect(scope).toHaveTextContent('Internal');
    expect(txid).toHaveTextContent('—');
    expect(within(txid!).getByText('No transaction ID'), 'what a screen reader says instead of the dash').toBeInTheDocument();
    expect(within(txid!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(cellsOf(1)[7]!).getByRole('button', { name: 'Copy transaction ID' })).toBeInTheDocument();
  });

  it('the shortened txid shows the whole of it in a tooltip', async () => {
    const { answer, typist } = await transactions();
    await answer(transactionPage(1, 1));
    expect(screen.queryByRole('tooltip'), 'not before the pointer is on it').not.toBeInTheDocument();
    await typist.hover(screen.getByText('3f9a1c…7d2e'));
    expect(await screen.findByRole('tooltip', {}, { timeout: 2000 })).toHaveTextContent(btcTxid);
  });

  it('"Copy transaction ID" copies the whole txid and toasts "Transaction ID copied to clipboard!"', async () => {
    const { answer, fakes, typist } = await transactions();
    await answer(transactionPage(1, 1));
    await typist.click(screen.getByRole('button', { name: 'Copy transaction ID' }));
    expect(fakes.calls.at(-1)).toEqual({ id: 'copyTxid', input: { text: btcTxid } });
    await settleToast(() => fakes.resolve('copyTxid', undefined));
    expect(screen.getByText('Transaction ID copied to clipboard!')).toBeInTheDocument();
  });

  it('a refused clipboard toasts a sentence saying so', async () => {
    const { answer, fakes, typist } = await transactions();
    await answer(transactionPage(1, 1));
    await typist.click(screen.getByRole('button', { name: 'Copy transaction ID' }));
    await settleToast(() => fakes.reject('copyTxid', new DOMException('Write permission denied.', 'NotAllowedError')));
    expect(screen.getByText('Could not copy the transaction ID')).toBeInTheDocument();
    expect(screen.queryByText('Transaction ID copied to clipboard!')).not.toBeInTheDocument();
  });

  it('badges completed, pending and cancelled in their own styles', async () => {
    const { answer } = await transactions();
    const statuses = ['completed', 'pending', 'cancelled'] as const;
    await answer({ transactions: statuses.map((status, index) => transactionRow(index + 1, { status })), paginator: paginator(1, 1) });
    for (const [index, status] of statuses.entries()) {
      const badge = cellsOf(index).at(-1)!.firstElementChild;
      expect(badge).toHaveTextContent(status);
      expect(badge).toHaveAttribute('data-status', status);
    }
  });

  it('shows a withdrawal waiting for an operator as "Waiting for review", and does not keep asking for the page', async () => {
    const { answer } = await transactions();
    await answer({ transactions: [transactionRow(1, { trans_type: 'withdrawal', status: 'review' })], paginator: paginator(1, 1) });
    const badge = cellsOf(0).at(-1)!.firstElementChild;
    expect(badge).toHaveTextContent(/^Waiting for review$/);
    expect(badge).toHaveAttribute('data-status', 'review');
    // A decision may take hours: the trader is notified of it rather than the page polling until then.
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('offers "Waiting for review" among the statuses, after Pending, and filters on it', async () => {
    const { answer, loads, typist } = await transactions();
    await answer(transactionPage(1, 1));
    await typist.click(screen.getByRole('combobox', { name: 'Status' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'All statuses',
      'Pending',
      'Waiting for review',
      'Completed',
      'Cancelled',
    ]);
    await typist.click(screen.getByRole('option', { name: 'Waiting for review' }));
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTransactions({ status: 'review' }) });
  });

  it('says "No transactions found matching your criteria." only once an empty answer arrived', async () => {
    const { answer } = await transactions();
    expect(screen.queryByText('No transactions found matching your criteria.')).not.toBeInTheDocument();
    await answer(noTransactions);
    expect(screen.getByText('No transactions found matching your criteria.')).toBeInTheDocument();
  });

  it('filters by type, status and coin, and "Clear All" reloads without them', async () => {
    const { answer, answerCoins, loads, typist } = await transactions();
    await answerCoins();
    await answer(transactionPage(1, 1));
    await choose(typist, 'Type', 'Withdrawal');
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTransactions({ transType: 'withdrawal' }) });
    await choose(typist, 'Status', 'Cancelled');
    await choose(typist, 'Coin', 'Ethereum');
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTransactions({ transType: 'withdrawal', status: 'cancelled', coinId: '2' }) });
    await answer(noTransactions);

    await typist.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTransactions() });
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveTextContent('All types');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveTextContent('All statuses');
    expect(screen.getByRole('combobox', { name: 'Coin' })).toHaveTextContent('All coins');
  });

  it('Previous and Next are disabled as the paginator says, and move by its pages', async () => {
    const { answer, loads, typist } = await transactions();
    const pages = within(screen.getByRole('navigation', { name: 'Pages' }));
    expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();

    await answer(transactionPage(1, 2));
    expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(pages.getByRole('button', { name: 'Next' })).toBeEnabled();
    await typist.click(pages.getByRole('button', { name: 'Next' }));
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenTransactions() });

    await answer(transactionPage(2, 2));
    expect(pages.getByRole('button', { name: 'Previous' })).toBeEnabled();
    expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();
    await typist.click(pages.getByRole('button', { name: 'Previous' }));
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTransactions() });
  });

  it('a pending deposit turns completed without a reload: the page is read again the moment the trader’s own channel tells of it', async () => {
    const { answer, fakes, realtime } = await transactions();
    await answer(pendingPage(1, 1));
    expect(cellsOf(0).at(-1)).toHaveTextContent('pending');
    expect(screen.getByRole('status')).toHaveTextContent('Pending transactions update automatically.');

    act(() => realtime.emit(userChannelName(ME), realtimeEvents.wallet, {}));
    expect(fakes.calls.at(-1)).toEqual({ id: 'refreshTransactions', input: { page: 1, filters: chosenTransactions() } });
    expect(screen.getByRole('table').closest('section'), 'no busy flag for a background refresh').toHaveAttribute('aria-busy', 'false');
    await act(() => fakes.resolve('refreshTransactions', transactionPage(1, 1)));
    expect(cellsOf(0).at(-1)).toHaveTextContent('completed');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('is busy while a page loads', async () => {
    const { answer } = await transactions();
    const section = screen.getByRole('table').closest('section');
    expect(section).toHaveAttribute('aria-busy', 'true');
    await answer(noTransactions);
    expect(section).toHaveAttribute('aria-busy', 'false');
  });
});
