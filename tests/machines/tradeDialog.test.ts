import { SimulatedClock, createActor } from 'xstate';
import type { OfferListItem } from '../../contracts/index.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { formRules } from '../../src/machines/shared/rules.ts';
import { amountError } from '../../src/machines/shared/validation.ts';
import { bindTradeDialog, tradeDialogLogic } from '../../src/machines/tradeDialog/tradeDialog.actors.ts';
import { tradeDialogMachine, type TradeDialogEvent } from '../../src/machines/tradeDialog/tradeDialog.machine.ts';
import {
  selectAmountError,
  selectCanConfirm,
  selectConfirmLabel,
  selectHint,
  selectIsBusy,
  selectIsOpen,
  selectMethodError,
  selectPreview,
} from '../../src/machines/tradeDialog/tradeDialog.selectors.ts';
import type { Api } from '../../src/services/api.ts';
import { ApiError } from '../../src/services/api.ts';
import { createTradeService } from '../../src/services/trades.ts';
import { flush, scriptedActors } from '../support/machines.ts';
import { offerItem } from '../support/offers.ts';
import { buyOffer, opened, openedChannel, openedText, preview100, sellOffer } from '../support/trades.ts';

const DEBOUNCE_MS = 400;

/** The dialog with both calls faked and the debounce on a simulated clock; opened on `offer` unless null. */
function startDialog(offer: OfferListItem | null = sellOffer) {
  const fakes = scriptedActors(['previewTrade', 'openTrade']);
  const notices: Notice[] = [];
  const goToChat = vi.fn();
  const clock = new SimulatedClock();
  const actor = createActor(
    tradeDialogLogic.provide({
      actors: fakes.actors as never,
      actions: { notify: (_, notice) => void notices.push(notice), goToChat },
    }),
    { clock },
  ).start();
  const send = (event: TradeDialogEvent) => actor.send(event);
  const snapshot = () => actor.getSnapshot();
  const previews = () => fakes.calls.filter((call) => call.id === 'previewTrade').map((call) => call.input);
  const opens = () => fakes.calls.filter((call) => call.id === 'openTrade').map((call) => call.input);
  /** Types the amount and picks the method, then lets the debounce run out. */
  const fill = (amount: string, method: string) => {
    send({ type: 'amount.change', value: amount });
    send({ type: 'method.change', value: method });
    clock.increment(DEBOUNCE_MS);
  };
  if (offer) send({ type: 'dialog.open', offer });
  return { actor, fakes, notices, goToChat, clock, send, snapshot, previews, opens, fill };
}

/** A dialog whose preview has arrived: "Confirm" is enabled. */
async function readyDialog() {
  const dialog = startDialog();
  dialog.fill('100', 'SEPA');
  await dialog.fakes.resolve('previewTrade', preview100);
  expect(dialog.snapshot().matches({ open: 'ready' })).toBe(true);
  return dialog;
}

describe('amountError (the range texts of docs/rules.md "Trades")', () => {
  const offer = offerItem(1, { min_amount: '1500.00', max_amount: '250000', currency__code: 'NGN' });
  it.each([
    ['', undefined],
    ['   ', undefined],
    ['1500', undefined],
    ['1500.00', undefined],
    [' 2000 ', undefined],
    ['250000', undefined],
    ['250000.00', undefined],
    ['1499.99', 'Amount can not be less than 1500.00'],
    ['0', 'Amount can not be less than 1500.00'],
    ['-5000', 'Amount can not be less than 1500.00'],
    ['abc', 'Amount can not be less than 1500.00'],
    ['250000.01', 'Amount can not be greater than 250000'],
    ['1000000', 'Amount can not be greater than 250000'],
    ['1500.555', 'Amount can have at most 2 decimal places'],
  ])('"%s" on a 1500.00 - 250000 offer: %s', (amount, message) => {
    expect(amountError(amount, offer)).toBe(message);
  });

  it('"99.999" is below a minimum of 100, not rounded up to it', () => {
    expect(amountError('99.999', offerItem(1, { min_amount: '100', max_amount: '200' }))).toBe('Amount can not be less than 100');
  });

  it('needs only the range of the offer', () => {
    expect(amountError('1499', { min_amount: '1500.00', max_amount: '250000' })).toBe('Amount can not be less than 1500.00');
    expect(amountError('2000', { min_amount: '1500.00', max_amount: '250000' })).toBeUndefined();
  });
});

describe('the preview rule the dialog is bound with (canPreview)', () => {
  const offer = offerItem(1, { min_amount: '50', max_amount: '1000', payment_methods: ['SEPA', 'Cash'] });
  it.each([
    ['an amount in range and one of the offer\'s methods', offer, '100', 'SEPA', true],
    ['the minimum and the other method', offer, '50', 'Cash', true],
    ['the maximum with cents', offer, '1000.00', 'SEPA', true],
    ['an amount with spaces around it', offer, ' 100 ', 'SEPA', true],
    ['no offer', null, '100', 'SEPA', false],
    ['an empty amount', offer, '', 'SEPA', false],
    ['an amount of spaces', offer, '   ', 'SEPA', false],
    ['an amount below the minimum', offer, '49.99', 'SEPA', false],
    ['an amount above the maximum', offer, '1000.01', 'SEPA', false],
    ['an amount with three decimals', offer, '100.555', 'SEPA', false],
    ['no method', offer, '100', '', false],
    ["a method not the offer's", offer, '100', 'PayPal', false],
  ])('%s: %s', (_, offer, amount, paymentMethod, expected) => {
    expect(formRules.canPreview(undefined, { offer, amount, paymentMethod })).toBe(expected);
  });

  it('the bare chart cannot decide it: every use starts from tradeDialogLogic', () => {
    const bare = createActor(tradeDialogMachine, { clock: new SimulatedClock() });
    const errors: unknown[] = [];
    bare.subscribe({ error: (error) => void errors.push(error) });
    bare.start();
    bare.send({ type: 'dialog.open', offer: sellOffer });
    bare.send({ type: 'amount.change', value: '100' });
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/canPreview is bound/);
  });
});

describe('Trade Preview dialog chart', () => {
  it('starts closed and opens on the offer with a blank form, the range hint and no messages', () => {
    const { snapshot, send } = startDialog(null);
    expect(selectIsOpen(snapshot())).toBe(false);
    expect(selectAmountError(snapshot()), 'no offer, no amount message').toBeUndefined();
    send({ type: 'dialog.open', offer: sellOffer });
    expect(selectIsOpen(snapshot())).toBe(true);
    expect(snapshot().context).toEqual({ offer: sellOffer, amount: '', paymentMethod: '', preview: null });
    expect(selectHint(snapshot())).toBe('Amount must be between 50 - 1000 EUR');
    expect(selectAmountError(snapshot())).toBeUndefined();
    expect(selectMethodError(snapshot())).toBeUndefined();
    expect(selectCanConfirm(snapshot())).toBe(false);
  });

  it('"Confirm Buy Order" on a sell offer, "Confirm Sell Order" on a buy offer', () => {
    expect(selectConfirmLabel(startDialog(sellOffer).snapshot())).toBe('Confirm Buy Order');
    expect(selectConfirmLabel(startDialog(buyOffer).snapshot())).toBe('Confirm Sell Order');
  });

  it('closing resets amount, method and preview, and opening again starts blank with the default hint', async () => {
    const { snapshot, send } = await readyDialog();
    expect(selectPreview(snapshot())).toEqual(preview100);
    send({ type: 'dialog.close' });
    expect(selectIsOpen(snapshot())).toBe(false);
    expect(snapshot().context).toEqual({ offer: null, amount: '', paymentMethod: '', preview: null });

    send({ type: 'dialog.open', offer: buyOffer });
    expect(snapshot().context).toEqual({ offer: buyOffer, amount: '', paymentMethod: '', preview: null });
    expect(selectHint(snapshot())).toBe('Amount must be between 1500.00 - 250000 NGN');
  });

  it('the hint shows only while the amount is empty; a typed amount without a method asks for one', () => {
    const { snapshot, send } = startDialog();
    send({ type: 'amount.change', value: '100' });
    expect(selectHint(snapshot())).toBeUndefined();
    expect(selectMethodError(snapshot())).toBe('Please select a payment method');
    send({ type: 'method.change', value: 'SEPA' });
    expect(selectMethodError(snapshot())).toBeUndefined();
    send({ type: 'amount.change', value: '' });
    expect(selectHint(snapshot())).toBe('Amount must be between 50 - 1000 EUR');
  });

  it.each([
    ['the amount is empty', '', 'SEPA'],
    ['the amount is only spaces', '   ', 'SEPA'],
    ['the amount is below the minimum', '49.99', 'SEPA'],
    ['the amount is above the maximum', '1000.01', 'SEPA'],
    ['the amount is not a number', '1e3', 'SEPA'],
    ['no method is chosen', '100', ''],
    ["the method is not one of the offer's", '100', 'PayPal'],
  ])('asks for no preview while %s', (_, amount, method) => {
    const { snapshot, clock, fill, previews } = startDialog();
    fill(amount, method);
    clock.increment(10 * DEBOUNCE_MS);
    expect(previews()).toEqual([]);
    expect(snapshot().matches({ open: 'editing' })).toBe(true);
  });

  it('asks for the preview with {offer, amount, payment_method} once the trader pauses for the debounce', () => {
    const { send, clock, previews, snapshot } = startDialog(buyOffer);
    send({ type: 'method.change', value: 'Bank Transfer' });
    send({ type: 'amount.change', value: '15' });
    clock.increment(DEBOUNCE_MS - 1);
    send({ type: 'amount.change', value: '1500' });
    clock.increment(DEBOUNCE_MS - 1);
    expect(previews(), 'the pause restarts with each keystroke').toEqual([]);
    clock.increment(1);
    expect(previews()).toEqual([{ offer: buyOffer.id, amount: '1500', payment_method: 'Bank Transfer' }]);
    expect(snapshot().hasTag('previewing')).toBe(true);
  });

  it('sends the amount trimmed', () => {
    const { fill, previews } = startDialog();
    fill(' 100 ', 'SEPA');
    expect(previews()).toEqual([{ offer: sellOffer.id, amount: '100', payment_method: 'SEPA' }]);
  });

  it('a change while the preview is on its way drops that preview; the new one is asked for after the pause', async () => {
    const { fakes, send, clock, previews, snapshot } = startDialog();
    send({ type: 'method.change', value: 'SEPA' });
    send({ type: 'amount.change', value: '100' });
    clock.increment(DEBOUNCE_MS);
    expect(fakes.isRunning('previewTrade')).toBe(true);

    send({ type: 'amount.change', value: '200' });
    expect(fakes.isRunning('previewTrade'), 'the stale call is stopped').toBe(false);
    await fakes.resolveCall(0, preview100);
    expect(selectPreview(snapshot()), 'its late answer is ignored').toBeNull();
    expect(selectCanConfirm(snapshot())).toBe(false);

    clock.increment(DEBOUNCE_MS);
    expect(previews().at(-1)).toEqual({ offer: sellOffer.id, amount: '200', payment_method: 'SEPA' });
    const fresh = { ...preview100, trading_amount: '200.00' };
    await fakes.resolve('previewTrade', fresh);
    expect(selectPreview(snapshot())).toEqual(fresh);
  });

  it('any change after the preview clears it and disables Confirm until the next one arrives', async () => {
    const { send, snapshot } = await readyDialog();
    send({ type: 'method.change', value: 'Cash' });
    expect(selectPreview(snapshot())).toBeNull();
    expect(selectCanConfirm(snapshot())).toBe(false);
  });

  it('a failed preview shows nothing and leaves Confirm disabled', async () => {
    const { fakes, fill, snapshot, notices } = startDialog();
    fill('100', 'SEPA');
    await fakes.reject('previewTrade', new Error('Internet server error'));
    expect(snapshot().matches({ open: 'editing' })).toBe(true);
    expect(selectPreview(snapshot())).toBeNull();
    expect(selectCanConfirm(snapshot())).toBe(false);
    expect(notices).toEqual([]);
  });

  it('Confirm is disabled, and ignored, until amount, method and a preview all exist', () => {
    const { send, snapshot, clock, opens } = startDialog();
    const confirmRefused = () => {
      expect(selectCanConfirm(snapshot())).toBe(false);
      send({ type: 'order.confirm' });
      expect(opens()).toEqual([]);
    };
    confirmRefused();
    send({ type: 'amount.change', value: '100' });
    confirmRefused();
    send({ type: 'method.change', value: 'SEPA' });
    confirmRefused(); // waiting for the pause
    clock.increment(DEBOUNCE_MS);
    confirmRefused(); // the preview is on its way
  });

  it('opening: "busy", Cancel and changes refused; success closes, says "Trade Opened!" with the server\'s text and goes to /chat', async () => {
    const { fakes, send, snapshot, opens, notices, goToChat } = await readyDialog();
    send({ type: 'order.confirm' });
    expect(selectIsBusy(snapshot())).toBe(true);
    expect(opens()).toEqual([{ offer: sellOffer.id, amount: '100', payment_method: 'SEPA', rate: sellOffer.rate }]);

    const before = snapshot().context;
    send({ type: 'dialog.close' });
    send({ type: 'amount.change', value: '500' });
    send({ type: 'method.change', value: 'Cash' });
    send({ type: 'order.confirm' });
    expect(selectIsOpen(snapshot())).toBe(true);
    expect(selectIsBusy(snapshot())).toBe(true);
    expect(snapshot().context).toEqual(before);
    expect(opens()).toHaveLength(1);
    expect(goToChat).not.toHaveBeenCalled();

    await fakes.resolve('openTrade', opened);
    expect(notices).toEqual([{ title: 'Trade Opened!', description: openedText, type: 'success' }]);
    expect(goToChat).toHaveBeenCalledTimes(1);
    expect(goToChat.mock.calls[0]![1], 'the chat opens on the new trade').toEqual({ channel: openedChannel });
    expect(selectIsOpen(snapshot())).toBe(false);
    expect(snapshot().context).toEqual({ offer: null, amount: '', paymentMethod: '', preview: null });
  });

  it('a refused open clears the busy state silently and keeps everything, ready to confirm again', async () => {
    const { fakes, send, snapshot, notices, goToChat, opens } = await readyDialog();
    send({ type: 'order.confirm' });
    await fakes.reject('openTrade', new ApiError('Insufficient balance for this trade', 409));
    expect(selectIsBusy(snapshot())).toBe(false);
    expect(selectIsOpen(snapshot())).toBe(true);
    expect(snapshot().context).toEqual({ offer: sellOffer, amount: '100', paymentMethod: 'SEPA', preview: preview100 });
    expect(selectCanConfirm(snapshot())).toBe(true);
    expect(notices).toEqual([]);
    expect(goToChat).not.toHaveBeenCalled();
    send({ type: 'order.confirm' });
    expect(opens()).toHaveLength(2);
  });
});

describe('bindTradeDialog', () => {
  /** An Api answering the preview and the open (its X-Trade-Channel header `channel`), recording what was sent. */
  function tradeApi(channel: string | null) {
    const sent: { how: 'read' | 'write'; body: unknown; options: unknown; header?: string }[] = [];
    const api = {
      read: async (path: string, body: unknown, _schema: unknown, options?: unknown) => {
        expect(path).toBe('market/trade/');
        sent.push({ how: 'read', body, options });
        return preview100;
      },
      writeWithHeader: async (path: string, body: unknown, _schema: unknown, header: string, options?: unknown) => {
        expect(path).toBe('market/trade/');
        sent.push({ how: 'write', body, options, header });
        return { info: openedText, header: channel };
      },
    } as unknown as Api;
    return { api, sent };
  }

  async function openThrough(api: Api) {
    const notify = vi.fn();
    const navigate = vi.fn();
    const actor = createActor(bindTradeDialog({ trades: createTradeService(api), notify, navigate } as unknown as FlowDeps)).start();
    actor.send({ type: 'dialog.open', offer: sellOffer });
    actor.send({ type: 'amount.change', value: '100' });
    actor.send({ type: 'method.change', value: 'SEPA' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ open: 'ready' })).toBe(true));
    actor.send({ type: 'order.confirm' });
    await vi.waitFor(() => expect(navigate).toHaveBeenCalled());
    await flush();
    return { notify, navigate };
  }

  it('previews (without a toast) and opens through market/trade/, toasts through notify and opens the new trade in /chat', async () => {
    const { api, sent } = tradeApi(openedChannel);
    const { notify, navigate } = await openThrough(api);
    expect(sent).toEqual([
      { how: 'read', body: { type: 'preview', offer: 7, amount: '100', payment_method: 'SEPA' }, options: { noToast: true } },
      {
        how: 'write',
        body: { type: 'open', offer: 7, amount: '100', payment_method: 'SEPA', rate: '0.95' },
        options: undefined,
        header: 'X-Trade-Channel',
      },
    ]);
    expect(notify).toHaveBeenCalledWith({ title: 'Trade Opened!', description: openedText, type: 'success' });
    expect(navigate.mock.calls).toEqual([['/chat', { channel: openedChannel }]]);
  });

  it('goes to /chat itself when the answer names no channel', async () => {
    const { navigate } = await openThrough(tradeApi(null).api);
    expect(navigate.mock.calls).toEqual([['/chat', undefined]]);
  });
});
