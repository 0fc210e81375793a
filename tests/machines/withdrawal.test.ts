import { SimulatedClock, createActor } from 'xstate';
import { WITHDRAWAL_PREVIEW_SECONDS, type WalletAddressEntry, type WithdrawalMode } from '../../contracts/index.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { bindWithdrawal, withdrawalLogic } from '../../src/machines/withdrawal/withdrawal.actors.ts';
import { withdrawalMachine, type WithdrawalEvent } from '../../src/machines/withdrawal/withdrawal.machine.ts';
import { amountProblem, canPreview, convertAmount, isOverBalance } from '../../src/machines/withdrawal/withdrawal.rules.ts';
import {
  selectAmount,
  selectAmountError,
  selectCanConfirm,
  selectCanRefresh,
  selectCoinChoices,
  selectCoinUsdValue,
  selectIsBusy,
  selectIsExpired,
  selectIsPreviewing,
  selectMode,
  selectNetwork,
  selectNetworkChoices,
  selectPreview,
  selectShowsConfirm,
} from '../../src/machines/withdrawal/withdrawal.selectors.ts';
import { ApiError } from '../../src/services/api.ts';
import { flush, scriptedActors } from '../support/machines.ts';
import {
  btcEntry,
  btcPreview,
  btcRecipient,
  confirmedText,
  tronRecipient,
  usdtEntry,
  usdtPreview,
  withdrawalCoins,
} from '../support/withdrawal-fixtures.ts';

const DEBOUNCE_MS = 500;
const BALANCE_ERROR = 'This amount is higher than your balance';

/**
 * The oracle for conversions, on integers: `numerator / denominator` cut toward zero to `places`, written
 * with exactly that many decimals. BigInt, so it shares nothing with decimal.js.
 */
function truncatedQuotient(numerator: string, denominator: string, places: number): string {
  const scaleOf = (value: string) => value.split('.')[1]?.length ?? 0;
  const digits = (value: string) => BigInt(value.replace('.', ''));
  const n = digits(numerator) * 10n ** BigInt(scaleOf(denominator) + places);
  const d = digits(denominator) * 10n ** BigInt(scaleOf(numerator));
  const whole = (n / d).toString().padStart(places + 1, '0');
  return places === 0 ? whole : `${whole.slice(0, -places)}.${whole.slice(-places)}`;
}

/** The Withdraw chart with its calls faked and its delays on a simulated clock, the coins loaded. */
async function startWithdrawal(coins: WalletAddressEntry[] = withdrawalCoins) {
  const fakes = scriptedActors(['loadWallets', 'previewWithdrawal', 'confirmWithdrawal']);
  const notices: Notice[] = [];
  const goToTransactions = vi.fn();
  const clock = new SimulatedClock();
  const actor = createActor(
    withdrawalLogic.provide({
      actors: fakes.actors as never,
      actions: { notify: (_, notice) => void notices.push(notice), goToTransactions },
    }),
    { clock },
  ).start();
  await fakes.resolve('loadWallets', coins);
  const send = (event: WithdrawalEvent) => actor.send(event);
  const snapshot = () => actor.getSnapshot();
  const previews = () => fakes.calls.filter((call) => call.id === 'previewWithdrawal').map((call) => call.input);
  const confirms = () => fakes.calls.filter((call) => call.id === 'confirmWithdrawal');
  /** Picks the coin (and the network when it has several), types recipient and amount. */
  const fill = (fields: { ticker: string; network?: string; recipient: string; amount: string }) => {
    send({ type: 'coin.change', value: fields.ticker });
    if (fields.network) send({ type: 'network.change', value: fields.network });
    send({ type: 'recipient.change', value: fields.recipient });
    send({ type: 'amount.change', value: fields.amount });
  };
  return { actor, fakes, notices, goToTransactions, clock, send, snapshot, previews, confirms, fill };
}

/** A form whose 0.01 BTC preview has arrived: "Confirm Withdrawal" is enabled. */
async function readyForm() {
  const form = await startWithdrawal();
  form.fill({ ticker: 'BTC', recipient: btcRecipient, amount: '0.01' });
  form.clock.increment(DEBOUNCE_MS);
  await form.fakes.resolve('previewWithdrawal', btcPreview);
  expect(form.snapshot().matches({ form: 'ready' })).toBe(true);
  return form;
}

const fieldsOf = (overrides: Partial<{ ticker: string; amount: string; mode: WithdrawalMode }>) => ({
  coins: withdrawalCoins,
  ticker: 'BTC',
  network: 'bitcoin',
  recipient: btcRecipient,
  amount: '0.01',
  mode: 'crypto' as WithdrawalMode,
  ...overrides,
});

describe('the amount rules (withdrawal.rules.ts)', () => {
  it.each([
    ['', 'crypto', 'BTC', undefined],
    ['0.01', 'crypto', 'BTC', undefined],
    [' 0.5 ', 'crypto', 'BTC', undefined],
    ['0.12345678', 'crypto', 'BTC', undefined],
    ['0.123456789', 'crypto', 'BTC', 'Amount has too many decimal places (at most 8)'],
    ['100.12', 'usd', 'BTC', undefined],
    ['100.123', 'usd', 'BTC', 'Amount has too many decimal places (at most 2)'],
    ['0.000000000000000001', 'crypto', 'ETH', undefined],
    ['abc', 'crypto', 'BTC', 'Amount must be a number'],
    ['-1', 'crypto', 'BTC', 'Amount must be a number'],
    ['1e3', 'usd', 'BTC', 'Amount must be a number'],
    ['0', 'crypto', 'BTC', 'Amount must be greater than 0'],
    ['0.00', 'usd', 'BTC', 'Amount must be greater than 0'],
  ] as const)('"%s" in %s of %s: %s', (amount, mode, ticker, message) => {
    expect(amountProblem(fieldsOf({ amount, mode, ticker }))).toBe(message);
  });

  it.each([
    ['exactly the balance', '0.5', 'crypto', false],
    ['one satoshi more', '0.50000001', 'crypto', true],
    ['the whole balance in USD', '30000.00', 'usd', false],
    ['a cent more in USD: 0.50000016 BTC', '30000.01', 'usd', true],
    ['a lot more', '7', 'crypto', true],
    ['not a number', 'abc', 'crypto', false],
    ['too many places (the format message shows instead)', '0.500000001', 'crypto', false],
  ] as const)('over the 0.5 BTC balance? %s', (_, amount, mode, over) => {
    expect(isOverBalance(fieldsOf({ amount, mode }))).toBe(over);
  });

  it('knows no balance before a coin is chosen', () => {
    expect(isOverBalance(fieldsOf({ ticker: '', amount: '1000' }))).toBe(false);
  });

  it.each([
    ['everything filled', {}, true],
    ['no coin', { ticker: '' }, false],
    ['no network', { network: '' }, false],
    ["a network the coin doesn't have", { network: 'tron' }, false],
    ['no recipient', { recipient: '  ' }, false],
    ['no amount', { amount: '' }, false],
    ['a malformed amount', { amount: '0.01.2' }, false],
    ['above the balance', { amount: '0.6' }, false],
  ] as const)('a preview may be asked for with %s: %s', (_, overrides, expected) => {
    expect(canPreview({ ...fieldsOf({}), ...overrides })).toBe(expected);
  });

  it.each([
    // crypto → USD: amount × price, cut to cents
    ['0.01234567 BTC', 'BTC', 'crypto', '0.01234567', '740.74'],
    ['0.5 BTC', 'BTC', 'crypto', '0.5', '30000.00'],
    ['1 ETH at 3000.10', 'ETH', 'crypto', '1', '3000.10'],
    ['0.333333333333333333 ETH', 'ETH', 'crypto', '0.333333333333333333', '1000.03'],
    // USD → crypto: amount ÷ price, cut to the coin's places
    ['600 USD in BTC', 'BTC', 'usd', '600', '0.01000000'],
    ['100 USD in ETH', 'ETH', 'usd', '100', truncatedQuotient('100', '3000.10', 18)],
    ['0.01 USD in BTC', 'BTC', 'usd', '0.01', truncatedQuotient('0.01', '60000.00', 8)],
    ['33.33 USD in USDT', 'USDT', 'usd', '33.33', '33.330000'],
  ] as const)('toggle converts %s exactly', (_, ticker, mode, amount, expected) => {
    expect(convertAmount(fieldsOf({ ticker, mode, amount }))).toBe(expected);
  });

  it('the oracle agrees with a hand computation', () => {
    expect(truncatedQuotient('100', '3000.10', 18)).toBe('0.033332222259258024');
    expect(truncatedQuotient('0.01', '60000.00', 8)).toBe('0.00000016');
  });

  it('leaves what cannot convert as typed', () => {
    expect(convertAmount(fieldsOf({ amount: 'abc' }))).toBe('abc');
    expect(convertAmount(fieldsOf({ amount: '' }))).toBe('');
    expect(convertAmount(fieldsOf({ ticker: '', amount: '12' }))).toBe('12');
    const free = { ...btcEntry, coin: { ...btcEntry.coin, price: '0' } };
    expect(convertAmount({ coins: [free], ticker: 'BTC', amount: '12', mode: 'usd' })).toBe('12');
  });
});

describe('withdrawal chart', () => {
  it('loads the coins, then waits for the form', async () => {
    const { snapshot, previews } = await startWithdrawal();
    expect(snapshot().matches({ form: 'editing' })).toBe(true);
    expect(selectCoinChoices(snapshot()).map(({ entry, usdValue }) => [entry.coin.ticker, usdValue])).toEqual([
      ['BTC', '30000'],
      ['ETH', '6000.2'],
      ['USDT', '250'],
    ]);
    expect(previews()).toEqual([]);
  });

  it('a failed load leaves the form with no coin to choose and no message of its own', async () => {
    const fakes = scriptedActors(['loadWallets', 'previewWithdrawal', 'confirmWithdrawal']);
    const notices: Notice[] = [];
    const actor = createActor(withdrawalLogic.provide({ actors: fakes.actors as never, actions: { notify: (_, n) => void notices.push(n) } })).start();
    await fakes.reject('loadWallets', new ApiError('Internet server error', 500));
    expect(actor.getSnapshot().matches({ form: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.coins).toEqual([]);
    expect(notices).toEqual([]);
  });

  it('chooses the network of a coin that has one, and asks for it when there are several', async () => {
    const { send, snapshot } = await startWithdrawal();
    send({ type: 'coin.change', value: 'BTC' });
    expect(selectNetwork(snapshot())).toBe('bitcoin');
    expect(selectNetworkChoices(snapshot())).toEqual([]);
    expect(selectCoinUsdValue(snapshot())).toBe('30000');
    send({ type: 'coin.change', value: 'USDT' });
    expect(selectNetwork(snapshot())).toBe('');
    expect(selectNetworkChoices(snapshot()).map((network) => network.key)).toEqual(['ethereum', 'tron']);
    send({ type: 'network.change', value: 'tron' });
    send({ type: 'coin.change', value: 'ETH' });
    expect(selectNetwork(snapshot())).toBe('ethereum');
  });

  it('asks for a preview only once every field is filled, after a 500 ms pause', async () => {
    const { send, clock, snapshot, previews } = await startWithdrawal();
    send({ type: 'coin.change', value: 'USDT' });
    send({ type: 'recipient.change', value: tronRecipient });
    send({ type: 'amount.change', value: '100' });
    clock.increment(DEBOUNCE_MS * 10);
    expect(previews(), 'no network yet').toEqual([]);
    send({ type: 'network.change', value: 'tron' });
    clock.increment(DEBOUNCE_MS - 1);
    expect(previews()).toEqual([]);
    expect(selectIsPreviewing(snapshot()), 'the fee is being worked out').toBe(true);
    clock.increment(1);
    expect(previews()).toEqual([{ amount: '100', mode: 'crypto', recipient: tronRecipient, ticker: 'USDT', network: 'tron' }]);
  });

  it('restarts the pause on every keystroke and asks once, for the last value, trimmed', async () => {
    const { send, clock, previews } = await startWithdrawal();
    send({ type: 'coin.change', value: 'BTC' });
    send({ type: 'recipient.change', value: ` ${btcRecipient} ` });
    for (const value of ['0', '0.', '0.0', '0.01']) {
      send({ type: 'amount.change', value });
      clock.increment(DEBOUNCE_MS - 100);
    }
    expect(previews()).toEqual([]);
    clock.increment(100);
    expect(previews()).toEqual([{ amount: '0.01', mode: 'crypto', recipient: btcRecipient, ticker: 'BTC', network: 'bitcoin' }]);
  });

  it('shows the balance error and makes no preview while the amount is above the balance', async () => {
    const { send, clock, snapshot, previews } = await startWithdrawal();
    send({ type: 'coin.change', value: 'BTC' });
    send({ type: 'amount.change', value: '0.6' });
    expect(selectAmountError(snapshot()), 'shown before the other fields are filled').toBe(BALANCE_ERROR);
    send({ type: 'recipient.change', value: btcRecipient });
    clock.increment(DEBOUNCE_MS * 10);
    expect(snapshot().matches({ form: 'overBalance' })).toBe(true);
    expect(selectAmountError(snapshot())).toBe(BALANCE_ERROR);
    expect(previews()).toEqual([]);
    expect(selectCanConfirm(snapshot())).toBe(false);

    send({ type: 'amount.change', value: '0.5' });
    expect(selectAmountError(snapshot())).toBeUndefined();
    clock.increment(DEBOUNCE_MS);
    expect(previews()).toHaveLength(1);
  });

  it('judges a USD amount by its crypto value at the current price', async () => {
    const { send, clock, snapshot, previews } = await startWithdrawal();
    send({ type: 'coin.change', value: 'BTC' });
    send({ type: 'recipient.change', value: btcRecipient });
    send({ type: 'mode.toggle' });
    send({ type: 'amount.change', value: '30000.01' });
    expect(selectAmountError(snapshot())).toBe(BALANCE_ERROR);
    send({ type: 'amount.change', value: '30000.00' });
    clock.increment(DEBOUNCE_MS);
    expect(previews()).toEqual([{ amount: '30000.00', mode: 'usd', recipient: btcRecipient, ticker: 'BTC', network: 'bitcoin' }]);
  });

  it('a malformed amount shows why and makes no preview', async () => {
    const { send, clock, snapshot, previews } = await startWithdrawal();
    send({ type: 'coin.change', value: 'BTC' });
    send({ type: 'recipient.change', value: btcRecipient });
    send({ type: 'amount.change', value: '0.000000001' });
    clock.increment(DEBOUNCE_MS);
    expect(selectAmountError(snapshot())).toBe('Amount has too many decimal places (at most 8)');
    expect(previews()).toEqual([]);
  });

  it('the toggle converts the typed amount both ways, exactly, and previews in the new unit', async () => {
    const { send, clock, snapshot, previews } = await startWithdrawal();
    send({ type: 'coin.change', value: 'ETH' });
    send({ type: 'recipient.change', value: '0x52908400098527886E0F7030069857D2E4169EE7' });
    send({ type: 'amount.change', value: '0.333333333333333333' });
    send({ type: 'mode.toggle' });
    expect([selectMode(snapshot()), selectAmount(snapshot())]).toEqual(['usd', '1000.03']);
    send({ type: 'mode.toggle' });
    expect([selectMode(snapshot()), selectAmount(snapshot())]).toEqual(['crypto', truncatedQuotient('1000.03', '3000.10', 18)]);
    send({ type: 'mode.toggle' });
    send({ type: 'amount.change', value: '100' });
    send({ type: 'mode.toggle' });
    expect(selectAmount(snapshot())).toBe('0.033332222259258024');
    clock.increment(DEBOUNCE_MS);
    expect(previews().at(-1)).toMatchObject({ amount: '0.033332222259258024', mode: 'crypto' });
  });

  it('a toggle cancels a pending preview and previews in the new unit', async () => {
    const { send, fill, clock, snapshot, previews, fakes } = await startWithdrawal();
    fill({ ticker: 'BTC', recipient: btcRecipient, amount: '0.01' });
    clock.increment(DEBOUNCE_MS - 1);
    send({ type: 'mode.toggle' });
    expect(selectAmount(snapshot())).toBe('600.00');
    clock.increment(1);
    expect(previews(), 'the pause started over').toEqual([]);
    clock.increment(DEBOUNCE_MS);
    expect(previews()).toEqual([{ amount: '600.00', mode: 'usd', recipient: btcRecipient, ticker: 'BTC', network: 'bitcoin' }]);
    expect(fakes.isRunning('previewWithdrawal')).toBe(true);
  });

  it('with a preview shown, the toggle shows the preview’s own crypto amount and confirms exactly that, whatever the page’s price', async () => {
    // $1000 of Bitcoin: the page read 60,000.00 (0.01666666 BTC); the server's price of the moment made it
    // 0.01038603 BTC, worth 999.99 USD at that price. The trader switches to BTC to see what leaves.
    const preview = { ...btcPreview, amount_crypto: '0.01038603', amount_usd: '999.99', receive_crypto: '0.01036603' };
    const { send, fill, clock, snapshot, previews, confirms, fakes } = await startWithdrawal();
    send({ type: 'coin.change', value: 'BTC' });
    send({ type: 'mode.toggle' });
    fill({ ticker: 'BTC', recipient: btcRecipient, amount: '1000' });
    clock.increment(DEBOUNCE_MS);
    expect(previews()).toEqual([{ amount: '1000', mode: 'usd', recipient: btcRecipient, ticker: 'BTC', network: 'bitcoin' }]);
    await fakes.resolve('previewWithdrawal', preview);

    send({ type: 'mode.toggle' });
    expect([selectMode(snapshot()), selectAmount(snapshot())], 'the preview’s crypto amount, exactly').toEqual(['crypto', '0.01038603']);
    expect(selectPreview(snapshot()), 'the preview stays: it is the same withdrawal').toEqual(preview);
    expect(selectCanConfirm(snapshot())).toBe(true);
    send({ type: 'mode.toggle' });
    expect([selectMode(snapshot()), selectAmount(snapshot())], 'back in USD: what was typed').toEqual(['usd', '1000']);
    send({ type: 'mode.toggle' });
    expect(selectAmount(snapshot())).toBe('0.01038603');
    clock.increment(DEBOUNCE_MS * 4);
    expect(previews(), 'no other preview is asked for: nothing changed but the unit').toHaveLength(1);

    send({ type: 'form.submit' });
    expect(confirms(), 'confirm executes the kept preview: 0.01038603 BTC').toHaveLength(1);
  });

  it('with a preview asked in the coin, the toggle shows its USD value at the server’s price, and the typed amount back', async () => {
    const { send, snapshot } = await readyForm();
    send({ type: 'mode.toggle' });
    expect([selectMode(snapshot()), selectAmount(snapshot())]).toEqual(['usd', btcPreview.amount_usd]);
    expect(selectPreview(snapshot())).toEqual(btcPreview);
    send({ type: 'mode.toggle' });
    expect([selectMode(snapshot()), selectAmount(snapshot())]).toEqual(['crypto', '0.01']);
  });

  it('a toggle keeps the preview’s expiry: the preview is dropped when the server would drop it', async () => {
    const { send, clock, snapshot } = await readyForm();
    const expiry = (WITHDRAWAL_PREVIEW_SECONDS - 5) * 1000;
    clock.increment(expiry - 1000);
    send({ type: 'mode.toggle' });
    clock.increment(999);
    expect(selectPreview(snapshot())).toEqual(btcPreview);
    clock.increment(1);
    expect(selectIsExpired(snapshot())).toBe(true);
    expect(selectPreview(snapshot())).toBeNull();
  });

  it('an edit after a toggle drops the preview and asks again in the unit shown', async () => {
    const { send, clock, snapshot, previews } = await readyForm();
    send({ type: 'mode.toggle' });
    send({ type: 'amount.change', value: '700' });
    expect(selectPreview(snapshot())).toBeNull();
    clock.increment(DEBOUNCE_MS);
    expect(previews().at(-1)).toEqual({ amount: '700', mode: 'usd', recipient: btcRecipient, ticker: 'BTC', network: 'bitcoin' });
  });

  it('a submit without coin, network or amount shows "Missing Information" and sends nothing', async () => {
    const { send, snapshot, notices, confirms } = await startWithdrawal();
    const missing: Notice = { title: 'Missing Information', description: 'Please fill in all required fields.', type: 'error' };
    send({ type: 'form.submit' });
    expect(notices).toEqual([missing]);
    send({ type: 'coin.change', value: 'USDT' });
    send({ type: 'amount.change', value: '10' });
    send({ type: 'form.submit' });
    expect(notices, 'the network is missing').toEqual([missing, missing]);
    send({ type: 'network.change', value: 'tron' });
    send({ type: 'amount.change', value: ' ' });
    send({ type: 'form.submit' });
    expect(notices, 'the amount is blank').toHaveLength(3);
    send({ type: 'amount.change', value: '10' });
    send({ type: 'form.submit' });
    expect(notices, 'only the recipient is missing: no toast, no preview to confirm').toHaveLength(3);
    expect(confirms()).toEqual([]);
    expect(snapshot().matches({ form: 'editing' })).toBe(true);
  });

  it('confirms the preview, shows the server’s sentence and goes to /wallets/transactions', async () => {
    const { send, snapshot, fakes, notices, goToTransactions, confirms } = await readyForm();
    expect(selectShowsConfirm(snapshot())).toBe(true);
    expect(selectCanConfirm(snapshot())).toBe(true);
    send({ type: 'form.submit' });
    expect(selectIsBusy(snapshot())).toBe(true);
    expect(selectCanConfirm(snapshot()), 'no second submission while one runs').toBe(false);
    expect(selectShowsConfirm(snapshot()), 'the button stays, reading "Processing..."').toBe(true);
    send({ type: 'form.submit' });
    expect(confirms()).toHaveLength(1);
    await fakes.resolve('confirmWithdrawal', confirmedText);
    expect(notices).toEqual([{ title: 'Withdrawal Submitted', description: confirmedText, type: 'success' }]);
    expect(goToTransactions).toHaveBeenCalledTimes(1);
    expect(snapshot().status).toBe('done');
    expect(selectPreview(snapshot()), 'executed: nothing left to confirm').toBeNull();
  });

  it('locks the form while the confirmation runs', async () => {
    const { send, snapshot } = await readyForm();
    send({ type: 'form.submit' });
    send({ type: 'amount.change', value: '0.02' });
    send({ type: 'coin.change', value: 'ETH' });
    send({ type: 'recipient.change', value: 'someone else' });
    send({ type: 'mode.toggle' });
    expect(snapshot().context).toMatchObject({ ticker: 'BTC', amount: '0.01', recipient: btcRecipient, mode: 'crypto', preview: btcPreview });
    expect(snapshot().matches({ form: 'confirming' })).toBe(true);
  });

  it('a failed preview clears it, and the next edit previews again', async () => {
    const { send, clock, snapshot, fakes, previews } = await startWithdrawal();
    send({ type: 'coin.change', value: 'BTC' });
    send({ type: 'recipient.change', value: 'not-an-address' });
    send({ type: 'amount.change', value: '0.01' });
    clock.increment(DEBOUNCE_MS);
    await fakes.reject('previewWithdrawal', new ApiError('This is not a valid Bitcoin address', 400));
    expect(snapshot().matches({ form: 'editing' })).toBe(true);
    expect(selectPreview(snapshot())).toBeNull();
    expect(selectShowsConfirm(snapshot())).toBe(false);
    send({ type: 'recipient.change', value: btcRecipient });
    clock.increment(DEBOUNCE_MS);
    expect(previews()).toHaveLength(2);
  });

  it('a failed confirm clears the preview and does not navigate', async () => {
    const { send, snapshot, fakes, goToTransactions, notices } = await readyForm();
    send({ type: 'form.submit' });
    await fakes.reject('confirmWithdrawal', new ApiError('No withdrawal preview to confirm', 409));
    expect(snapshot().matches({ form: 'editing' })).toBe(true);
    expect(selectPreview(snapshot())).toBeNull();
    expect(selectShowsConfirm(snapshot())).toBe(false);
    expect(goToTransactions).not.toHaveBeenCalled();
    expect(notices, 'the shared toast words the refusal').toEqual([]);
  });

  it('an edit cancels a running preview; its late answer is ignored', async () => {
    const { send, clock, snapshot, fakes, previews } = await startWithdrawal();
    send({ type: 'coin.change', value: 'BTC' });
    send({ type: 'recipient.change', value: btcRecipient });
    send({ type: 'amount.change', value: '0.01' });
    clock.increment(DEBOUNCE_MS);
    expect(fakes.isRunning('previewWithdrawal')).toBe(true);
    send({ type: 'amount.change', value: '0.02' });
    expect(fakes.isRunning('previewWithdrawal'), 'the first call is stopped').toBe(false);
    await fakes.resolveCall(0, btcPreview);
    expect(selectPreview(snapshot()), 'the stale answer changes nothing').toBeNull();
    expect(snapshot().matches({ form: 'waiting' })).toBe(true);
    clock.increment(DEBOUNCE_MS);
    expect(previews().map((ask) => (ask as { amount: string }).amount)).toEqual(['0.01', '0.02']);
    const second = { ...btcPreview, amount_crypto: '0.02000000', amount_usd: '1200.00', receive_crypto: '0.01998000' };
    await fakes.resolve('previewWithdrawal', second);
    expect(selectPreview(snapshot())).toEqual(second);
    await fakes.rejectCall(0, new Error('late failure'));
    expect(selectPreview(snapshot()), 'nor does a stale failure').toEqual(second);
  });

  it('an edit during the pause cancels the pending preview', async () => {
    const { send, clock, previews } = await startWithdrawal();
    send({ type: 'coin.change', value: 'BTC' });
    send({ type: 'recipient.change', value: btcRecipient });
    send({ type: 'amount.change', value: '0.01' });
    clock.increment(DEBOUNCE_MS - 1);
    send({ type: 'recipient.change', value: '' });
    clock.increment(DEBOUNCE_MS * 10);
    expect(previews()).toEqual([]);
  });

  it('drops the preview when the server would no longer keep it, and previews again on request', async () => {
    const { send, clock, snapshot, fakes, previews } = await readyForm();
    const expiry = (WITHDRAWAL_PREVIEW_SECONDS - 5) * 1000;
    clock.increment(expiry - 1);
    expect(selectPreview(snapshot())).toEqual(btcPreview);
    clock.increment(1);
    expect(selectPreview(snapshot())).toBeNull();
    expect(selectIsExpired(snapshot())).toBe(true);
    expect(selectShowsConfirm(snapshot())).toBe(false);
    send({ type: 'form.submit' });
    expect(snapshot().matches({ form: 'expired' }), 'nothing to confirm').toBe(true);
    expect(selectCanRefresh(snapshot())).toBe(true);
    send({ type: 'preview.refresh' });
    expect(previews()).toHaveLength(2);
    expect(previews()[1]).toEqual(previews()[0]);
    await fakes.resolve('previewWithdrawal', btcPreview);
    expect(selectCanConfirm(snapshot())).toBe(true);
  });

  it('drops the preview before the server does: its kept preview lasts WITHDRAWAL_PREVIEW_SECONDS', () => {
    const delays = withdrawalLogic.implementations.delays as Record<string, number>;
    expect(delays.previewDebounce).toBe(500);
    expect(delays.previewExpiry).toBeLessThan(WITHDRAWAL_PREVIEW_SECONDS * 1000);
    expect(delays.previewExpiry).toBeGreaterThan(WITHDRAWAL_PREVIEW_SECONDS * 1000 * 0.9);
  });

  it('the bare chart cannot decide the rules: every use starts from withdrawalLogic', async () => {
    const fakes = scriptedActors(['loadWallets']);
    const errors: unknown[] = [];
    const bare = createActor(withdrawalMachine.provide({ actors: fakes.actors as never }));
    bare.subscribe({ error: (error) => void errors.push(error) });
    bare.start();
    await fakes.resolve('loadWallets', withdrawalCoins);
    bare.send({ type: 'amount.change', value: '1' });
    expect(String(errors[0])).toMatch(/isOverBalance is bound with the chart/);
  });
});

describe('bindWithdrawal', () => {
  it('calls the wallet service and leaves through navigate', async () => {
    const addresses = vi.fn(async () => [btcEntry, usdtEntry]);
    const previewWithdrawal = vi.fn(async () => usdtPreview);
    const confirmWithdrawal = vi.fn(async () => confirmedText);
    const notify = vi.fn();
    const navigate = vi.fn();
    const deps = { wallets: { addresses, previewWithdrawal, confirmWithdrawal }, notify, navigate } as unknown as FlowDeps;
    const clock = new SimulatedClock();
    const actor = createActor(bindWithdrawal(deps), { clock }).start();
    await flush();
    actor.send({ type: 'coin.change', value: 'USDT' });
    actor.send({ type: 'network.change', value: 'tron' });
    actor.send({ type: 'recipient.change', value: tronRecipient });
    actor.send({ type: 'amount.change', value: '100' });
    clock.increment(DEBOUNCE_MS);
    await flush();
    expect(previewWithdrawal).toHaveBeenCalledWith({ amount: '100', mode: 'crypto', recipient: tronRecipient, ticker: 'USDT', network: 'tron' });
    expect(actor.getSnapshot().context.preview).toEqual(usdtPreview);
    actor.send({ type: 'form.submit' });
    await flush();
    expect(confirmWithdrawal).toHaveBeenCalledWith();
    expect(notify).toHaveBeenCalledWith({ title: 'Withdrawal Submitted', description: confirmedText, type: 'success' });
    expect(navigate).toHaveBeenCalledWith('/wallets/transactions');
  });
});
