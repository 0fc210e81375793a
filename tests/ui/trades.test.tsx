import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SimulatedClock, createActor } from 'xstate';
import type { OfferListItem } from '../../contracts/index.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { tradeDialogLogic } from '../../src/machines/tradeDialog/tradeDialog.actors.ts';
import { tradeHistoryMachine } from '../../src/machines/tradeHistory/tradeHistory.machine.ts';
import { ApiError } from '../../src/services/api.ts';
import { TradeDialog } from '../../src/ui/trades/TradeDialog.tsx';
import { TradesScreen } from '../../src/ui/trades/TradesScreen.tsx';
import { scriptedActors } from '../support/machines.ts';
import { paginator } from '../support/offers.ts';
import { buyOffer, chosenTrades, coins, noTrades, opened, openedText, preview100, sellOffer, tradePage, tradeRow } from '../support/trades.ts';
import { renderWithRouter } from './render.tsx';
import { choose } from '../support/select.ts';

const DEBOUNCE_MS = 400;

async function dialog(offer: OfferListItem = sellOffer) {
  const fakes = scriptedActors(['previewTrade', 'openTrade']);
  const notices: Notice[] = [];
  const goToChat = vi.fn();
  const clock = new SimulatedClock();
  const actor = createActor(
    tradeDialogLogic.provide({ actors: fakes.actors as never, actions: { notify: (_, notice) => void notices.push(notice), goToChat } }),
    { clock },
  ).start();
  render(<TradeDialog actor={actor} />);
  await act(async () => actor.send({ type: 'dialog.open', offer }));
  await screen.findByRole('dialog');
  return {
    actor,
    fakes,
    notices,
    goToChat,
    typist: userEvent.setup(),
    /** The trader stops typing for the debounce. */
    pause: () => act(() => clock.increment(DEBOUNCE_MS)),
  };
}

const amountBox = (currency = 'EUR') => screen.getByRole('textbox', { name: `Amount (${currency})` });
const confirmButton = () => screen.getByRole('button', { name: /^(Confirm (Buy|Sell) Order|Please wait\.\.\.)$/ });

/** The dialog with 100 EUR by SEPA typed, chosen and previewed. */
async function previewed() {
  const view = await dialog();
  await view.typist.type(amountBox(), '100');
  await choose(view.typist, 'Payment method', 'SEPA');
  await view.pause();
  await act(() => view.fakes.resolve('previewTrade', preview100));
  return view;
}

describe('Trade Preview dialog', () => {
  it('shows the title, the description, the range hint, the method select and a disabled "Confirm Buy Order" for a sell offer', async () => {
    await dialog(sellOffer);
    const modal = within(screen.getByRole('dialog'));
    expect(modal.getByRole('heading', { name: 'Trade Preview' })).toBeInTheDocument();
    expect(modal.getByText('Review the trade details before confirming your order')).toBeInTheDocument();
    expect(modal.getByText('Amount must be between 50 - 1000 EUR')).toBeInTheDocument();
    expect(modal.getByRole('combobox', { name: 'Payment method' })).toBeInTheDocument();
    expect(confirmButton()).toHaveTextContent('Confirm Buy Order');
    expect(confirmButton()).toBeDisabled();
    expect(modal.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('reads "Confirm Sell Order" for a buy offer, with its own currency in the hint', async () => {
    await dialog(buyOffer);
    expect(confirmButton()).toHaveTextContent('Confirm Sell Order');
    expect(screen.getByText('Amount must be between 1500.00 - 250000 NGN')).toBeInTheDocument();
    expect(amountBox('NGN')).toBeInTheDocument();
  });

  it('shows "Amount can not be less than {min}", "… greater than {max}" and "Please select a payment method"', async () => {
    const { typist } = await dialog();
    await typist.type(amountBox(), '49.99');
    expect(screen.getByText('Amount can not be less than 50')).toBeInTheDocument();
    expect(screen.queryByText(/Amount must be between/)).not.toBeInTheDocument();
    expect(screen.getByText('Please select a payment method')).toBeInTheDocument();

    await typist.clear(amountBox());
    await typist.type(amountBox(), '1000.01');
    expect(screen.getByText('Amount can not be greater than 1000')).toBeInTheDocument();

    await typist.clear(amountBox());
    expect(screen.getByText('Amount must be between 50 - 1000 EUR')).toBeInTheDocument();
    expect(screen.queryByText(/Amount can not be/)).not.toBeInTheDocument();
    expect(screen.queryByText('Please select a payment method')).not.toBeInTheDocument();
  });

  it('asks for the preview after the pause and shows its six values; "Confirm Buy Order" is enabled', async () => {
    const view = await dialog();
    await view.typist.type(amountBox(), '100');
    await choose(view.typist, 'Payment method', 'SEPA');
    expect(view.fakes.calls, 'not while typing').toEqual([]);
    await view.pause();
    expect(view.fakes.calls).toEqual([{ id: 'previewTrade', input: { offer: 7, amount: '100', payment_method: 'SEPA' } }]);
    expect(screen.queryByLabelText('Trade calculation')).not.toBeInTheDocument();
    expect(confirmButton()).toBeDisabled();

    await act(() => view.fakes.resolve('previewTrade', { ...preview100, trading_amount: '1234.5', fee_local: '12.35', amount_local: '1222.15' }));
    const calculation = screen.getByLabelText('Trade calculation');
    expect(calculation).toHaveTextContent('1,234.50 EUR'); // trading_amount
    expect(calculation).toHaveTextContent('0.00105263 BTC'); // trading_amount_crypto
    expect(calculation).toHaveTextContent('12.35 EUR'); // fee_local
    expect(calculation).toHaveTextContent('0.00001052 BTC'); // fee_crypto
    expect(calculation).toHaveTextContent('0.00104211 BTC'); // amount_crypto
    expect(calculation).toHaveTextContent('1,222.15 EUR'); // amount_local
    expect(confirmButton()).toHaveTextContent('Confirm Buy Order');
    expect(confirmButton()).toBeEnabled();
  });

  it('a new amount hides the preview and disables Confirm again', async () => {
    const { typist } = await previewed();
    await typist.type(amountBox(), '0');
    expect(screen.queryByLabelText('Trade calculation')).not.toBeInTheDocument();
    expect(confirmButton()).toBeDisabled();
  });

  it('while opening it reads "Please wait...", hides Cancel and locks the form; success toasts and goes to /chat', async () => {
    const view = await previewed();
    await view.typist.click(confirmButton());
    expect(view.fakes.calls.at(-1)).toEqual({ id: 'openTrade', input: { offer: 7, amount: '100', payment_method: 'SEPA', rate: '0.95' } });
    expect(confirmButton()).toHaveTextContent('Please wait...');
    expect(confirmButton()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(amountBox()).toBeDisabled();

    await view.typist.keyboard('{Escape}');
    expect(screen.getByRole('dialog'), 'Escape is refused while busy').toHaveAttribute('data-state', 'open');
    expect(view.actor.getSnapshot().hasTag('open')).toBe(true);

    await act(() => view.fakes.resolve('openTrade', opened));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(view.notices).toEqual([{ title: 'Trade Opened!', description: openedText, type: 'success' }]);
    expect(view.goToChat).toHaveBeenCalledTimes(1);
  });

  it('a refused open brings Cancel and "Confirm Buy Order" back with everything kept', async () => {
    const view = await previewed();
    await view.typist.click(confirmButton());
    await act(() => view.fakes.reject('openTrade', new ApiError('Insufficient balance for this trade', 409)));
    expect(confirmButton()).toHaveTextContent('Confirm Buy Order');
    expect(confirmButton()).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(amountBox()).toHaveValue('100');
    expect(screen.getByLabelText('Trade calculation')).toBeInTheDocument();
    expect(view.notices).toEqual([]);
  });

  it('Escape closes the dialog while not busy', async () => {
    const view = await previewed();
    await view.typist.keyboard('{Escape}');
    expect(view.actor.getSnapshot().hasTag('open')).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('Cancel closes the dialog; opening it again starts blank with the hint', async () => {
    const view = await previewed();
    await view.typist.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await act(async () => view.actor.send({ type: 'dialog.open', offer: sellOffer }));
    await screen.findByRole('dialog');
    expect(amountBox()).toHaveValue('');
    expect(screen.getByText('Amount must be between 50 - 1000 EUR')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Payment method' })).toHaveTextContent('Select a payment method');
    expect(screen.queryByLabelText('Trade calculation')).not.toBeInTheDocument();
  });
});

async function trades() {
  const fakes = scriptedActors(['loadCoins', 'loadTrades']);
  const actor = createActor(tradeHistoryMachine.provide({ actors: fakes.actors as never })).start();
  await renderWithRouter(() => <TradesScreen actor={actor} />, '/trades');
  const loads = () => fakes.calls.filter((call) => call.id === 'loadTrades').map((call) => call.input);
  return {
    fakes,
    loads,
    answerCoins: () => act(() => fakes.resolve('loadCoins', coins)),
    answer: (history: Parameters<typeof fakes.resolve>[1]) => act(() => fakes.resolve('loadTrades', history)),
    typist: userEvent.setup(),
  };
}

const rows = () => screen.getAllByRole('row').slice(1);

describe('Recent Trades screen', () => {
  it('has the heading and the ten columns, in order', async () => {
    await trades();
    expect(screen.getByRole('heading', { level: 1, name: 'Recent Trades' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Date & Time',
      'Type',
      'Partner',
      'Coin',
      'Amount (Crypto)',
      'Amount (USD)',
      'Fee (Crypto)',
      'Fee (USD)',
      'Payment Method',
      'Status',
    ]);
  });

  it('shows a row per trade: the date like "Nov 21 2026 05:22 PM", type, partner, coin, amounts, fees, method', async () => {
    const { answer } = await trades();
    await answer({
      trades: [
        tradeRow(1, { created: '2026-11-21T17:22:00.000', trade_type: 'sell', partner: 'carol', amount_usd: '1234.5', fee_usd: '12.345' }),
        tradeRow(2, { created: '2026-01-05T09:03:00.000' }),
      ],
      paginator: paginator(1, 1),
    });
    const cells = within(rows()[0]!).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual([
      'Nov 21 2026 05:22 PM',
      'sell',
      'carol',
      'BTC',
      '0.00104211 BTC',
      '$1,234.50',
      '0.00001052 BTC',
      '$12.35',
      'SEPA',
      'pending',
    ]);
    expect(within(rows()[1]!).getAllByRole('cell')[0]).toHaveTextContent('Jan 05 2026 09:03 AM');
  });

  it('badges completed, pending and cancelled in their own styles, and anything else not at all', async () => {
    const { answer } = await trades();
    await answer({
      trades: ['completed', 'pending', 'cancelled', 'disputed'].map((status, index) => tradeRow(index + 1, { status })),
      paginator: paginator(1, 1),
    });
    const statusCell = (index: number) => within(rows()[index]!).getAllByRole('cell').at(-1)!;
    for (const [index, status] of ['completed', 'pending', 'cancelled'].entries()) {
      const badge = statusCell(index).firstElementChild;
      expect(badge).toHaveTextContent(status);
      expect(badge).toHaveAttribute('data-status', status);
    }
    expect(statusCell(3)).toBeEmptyDOMElement();
  });

  it('says "No trades found matching your criteria." only once an empty answer arrived', async () => {
    const { answer } = await trades();
    expect(screen.queryByText('No trades found matching your criteria.')).not.toBeInTheDocument();
    await answer(noTrades);
    expect(screen.getByText('No trades found matching your criteria.')).toBeInTheDocument();
  });

  it('filters by type, status and coin, and "Clear All" reloads without them', async () => {
    const { answer, answerCoins, loads, typist } = await trades();
    await answerCoins();
    await answer(tradePage(1, 1));
    await choose(typist, 'Type', 'Sell');
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTrades({ tradeType: 'sell' }) });
    await choose(typist, 'Status', 'Completed');
    await choose(typist, 'Coin', 'Ethereum');
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTrades({ tradeType: 'sell', status: 'completed', coinId: '2' }) });
    // A trade never waits for review: that status is the wallet history's only.
    await typist.click(screen.getByRole('combobox', { name: 'Status' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['All statuses', 'Pending', 'Completed', 'Cancelled']);
    await typist.keyboard('{Escape}');
    await answer(noTrades);

    await typist.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTrades() });
    expect(screen.getByRole('combobox', { name: 'Coin' })).toHaveTextContent('All coins');
  });

  it('Previous and Next are disabled as the paginator says, and move by its pages', async () => {
    const { answer, loads, typist } = await trades();
    const pages = within(screen.getByRole('navigation', { name: 'Pages' }));
    expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();

    await answer(tradePage(1, 2));
    expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(pages.getByRole('button', { name: 'Next' })).toBeEnabled();
    await typist.click(pages.getByRole('button', { name: 'Next' }));
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenTrades() });

    await answer(tradePage(2, 2));
    expect(pages.getByRole('button', { name: 'Previous' })).toBeEnabled();
    expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();
    await typist.click(pages.getByRole('button', { name: 'Previous' }));
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenTrades() });
  });
});
