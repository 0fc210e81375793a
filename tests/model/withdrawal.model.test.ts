import { SimulatedClock, createActor, type AnyMachineSnapshot } from 'xstate';
import type { WalletAddressEntry, WithdrawalAsk, WithdrawalMode, WithdrawalPreview } from '../../contracts/index.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { withdrawalLogic } from '../../src/machines/withdrawal/withdrawal.actors.ts';
import {
  selectAmount,
  selectAmountError,
  selectCanConfirm,
  selectCanRefresh,
  selectCoin,
  selectIsBusy,
  selectIsExpired,
  selectIsLoading,
  selectIsPreviewing,
  selectMode,
  selectNetwork,
  selectNetworkChoices,
  selectPreview,
  selectRecipient,
  selectShowsConfirm,
} from '../../src/machines/withdrawal/withdrawal.selectors.ts';
import { ApiError } from '../../src/services/api.ts';
import {
  Coverage,
  afterEvent,
  describePath,
  replay,
  scriptedActors,
  walk,
  type ActorCall,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';
import { btcEntry, btcPreview, btcRecipient, btcUsdPreview, confirmedText, tronRecipient, usdtEntry, usdtPreview } from '../support/withdrawal-fixtures.ts';

// ---------------------------------------------------------------------------------------------------
// The oracle: the rules (docs/rules.md "Wallets", docs/web-app.md "Failures") written out on integers
// ---------------------------------------------------------------------------------------------------

const coins = [btcEntry, usdtEntry];
const BALANCE_ERROR = 'This amount is higher than your balance';
const MISSING: Notice = { title: 'Missing Information', description: 'Please fill in all required fields.', type: 'error' };

const scaleOf = (value: string) => value.split('.')[1]?.length ?? 0;
/** A decimal as an integer count of 10^-places units, and back (`places` at least the value's own). */
const units = (value: string, places: number) => BigInt(value.replace('.', '')) * 10n ** BigInt(places - scaleOf(value));
const written = (count: bigint, places: number) => {
  const digits = count.toString().padStart(places + 1, '0');
  return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
};
const WIDE = 30;
/** Cut toward zero to `places`, as the spec's conversions and the server do. */
const cryptoToUsd = (amount: string, price: string) => written((units(amount, WIDE) * units(price, WIDE)) / 10n ** BigInt(2 * WIDE - 2), 2);
const usdToCrypto = (amount: string, price: string, places: number) => written((units(amount, WIDE) * 10n ** BigInt(places)) / units(price, WIDE), places);

const isNumber = (value: string) => /^\d+(\.\d+)?$/.test(value.trim());
function formatProblem(amount: string, mode: WithdrawalMode, coin: WalletAddressEntry | undefined): string | undefined {
  if (amount.trim() === '') return undefined;
  if (!isNumber(amount)) return 'Amount must be a number';
  if (units(amount.trim(), WIDE) === 0n) return 'Amount must be greater than 0';
  const places = mode === 'usd' ? 2 : (coin?.coin.decimal_places ?? 18);
  if (scaleOf(amount.trim()) > places) return `Amount has too many decimal places (at most ${places})`;
  return undefined;
}
function isOver(amount: string, mode: WithdrawalMode, coin: WalletAddressEntry | undefined): boolean {
  if (!coin || amount.trim() === '' || formatProblem(amount, mode, coin)) return false;
  const crypto = mode === 'crypto' ? amount.trim() : usdToCrypto(amount.trim(), coin.coin.price, coin.coin.decimal_places);
  return units(crypto, WIDE) > units(coin.balance, WIDE);
}
function toggled(amount: string, mode: WithdrawalMode, coin: WalletAddressEntry | undefined): string {
  if (!coin || !isNumber(amount)) return amount;
  return mode === 'crypto' ? cryptoToUsd(amount.trim(), coin.coin.price) : usdToCrypto(amount.trim(), coin.coin.price, coin.coin.decimal_places);
}

// ---------------------------------------------------------------------------------------------------
// What the trader (and the server) can do
// ---------------------------------------------------------------------------------------------------

const debounced = afterEvent('previewDebounce', 'withdrawal.form.waiting');
const expired = afterEvent('previewExpiry', 'withdrawal.form.ready');
const recipientFor = (ticker: string) => (ticker === 'USDT' ? tronRecipient : btcRecipient);
/** Bitcoin asked in USD is converted at the server's price of the moment, not the page's (btcUsdPreview). */
const previewFor = (ticker: string, mode: WithdrawalMode): WithdrawalPreview =>
  ticker === 'USDT' ? usdtPreview : mode === 'usd' ? btcUsdPreview : btcPreview;

/**
 * Amounts typed per unit: in Bitcoin one within the 0.5 BTC balance and one above it, in USD the same two
 * (600 USD = 0.01 BTC, 36,000 USD = 0.6 BTC); with Tether, whose USD price is 1, 100 in either unit (within
 * its 250) and 600 USD (above it). Toggling converts them onward, which the oracle follows.
 */
function typedAmounts(ticker: string, mode: WithdrawalMode): string[] {
  if (ticker === 'USDT') return mode === 'crypto' ? ['', '100'] : ['', '600'];
  return mode === 'crypto' ? ['', '0.01', '0.6'] : ['', '600', '36000'];
}

/**
 * What can happen: the load answers or fails; on the form the trader picks a coin first (Bitcoin, with
 * its one network, or Tether, with two), then Tether's Tron network, types or clears the recipient, types an
 * amount of the unit shown, toggles the unit and submits — in every state, confirming included, where
 * the chart must refuse the edits; the debounce and the preview's lifetime run out; the calls answer or
 * fail. After a failed load, with no coin to pick, only submit and the toggle remain.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  if (snapshot.matches('loading')) {
    return [
      { type: 'xstate.done.actor.loadWallets', output: coins },
      { type: 'xstate.error.actor.loadWallets', error: new ApiError('Internet server error', 500) },
    ];
  }
  if (snapshot.status === 'done') return [];
  const { ticker, network, recipient, amount, mode, coins: known } = snapshot.context as {
    ticker: string;
    network: string;
    recipient: string;
    amount: string;
    mode: WithdrawalMode;
    coins: WalletAddressEntry[];
  };
  const list: ModelEvent[] = [{ type: 'form.submit' }, { type: 'mode.toggle' }];
  if (known.length === 0) return list;
  // The coin comes first: typing before it is the actor tests' case, and here would only multiply the graph.
  if (ticker === '') return [...list, { type: 'coin.change', value: 'BTC' }, { type: 'coin.change', value: 'USDT' }];
  if (snapshot.matches({ form: 'confirming' })) {
    // Every kind of edit, to see the chart refuse each while the confirmation runs.
    list.push({ type: 'coin.change', value: ticker === 'BTC' ? 'USDT' : 'BTC' }, { type: 'network.change', value: 'ethereum' });
  } else if (ticker === 'USDT' && network === '') list.push({ type: 'network.change', value: 'tron' });
  list.push({ type: 'recipient.change', value: recipient === '' ? recipientFor(ticker) : '' });
  for (const value of typedAmounts(ticker, mode)) if (value !== amount) list.push({ type: 'amount.change', value });
  if (snapshot.matches({ form: 'waiting' })) list.push(debounced);
  if (snapshot.matches({ form: 'previewing' })) {
    list.push(
      { type: 'xstate.done.actor.previewWithdrawal', output: previewFor(ticker, mode) },
      { type: 'xstate.error.actor.previewWithdrawal', error: new ApiError('This is not a valid address on this network', 400) },
    );
  }
  if (snapshot.matches({ form: 'ready' })) list.push(expired);
  if (snapshot.matches({ form: 'expired' })) list.push({ type: 'preview.refresh' });
  if (snapshot.matches({ form: 'confirming' })) {
    list.push(
      { type: 'xstate.done.actor.confirmWithdrawal', output: confirmedText },
      { type: 'xstate.error.actor.confirmWithdrawal', error: new ApiError('No withdrawal preview to confirm', 409) },
    );
  }
  return list;
}

const model = walk(withdrawalLogic, { events });

// ---------------------------------------------------------------------------------------------------
// Replaying a path on a real actor against the oracle
// ---------------------------------------------------------------------------------------------------

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadWallets', 'previewWithdrawal', 'confirmWithdrawal']);
  const notices: Notice[] = [];
  let departures = 0;
  const clock = new SimulatedClock();
  const machine = withdrawalLogic.provide({
    actors: fakes.actors as never,
    actions: { notify: (_, notice) => void notices.push(notice), goToTransactions: () => void (departures += 1) },
  });
  const actor = createActor(machine, { clock, inspect: coverage?.inspect }).start();

  type Phase = 'loading' | 'editing' | 'overBalance' | 'waiting' | 'previewing' | 'ready' | 'expired' | 'confirming' | 'done';
  let phase: Phase = 'loading';
  let loaded: WalletAddressEntry[] = [];
  let ticker = '';
  let network = '';
  let recipient = '';
  let amount = '';
  let mode: WithdrawalMode = 'crypto';
  let preview: WithdrawalPreview | null = null;
  /** What was typed, and in which unit, for the preview shown. */
  let asked: { amount: string; mode: WithdrawalMode } | null = null;
  const expectedCalls: ActorCall[] = [{ id: 'loadWallets', input: undefined }];
  const expectedNotices: Notice[] = [];
  let expectedDepartures = 0;
  const coin = () => loaded.find((entry) => entry.coin.ticker === ticker);
  const ask = (): WithdrawalAsk => ({ amount: amount.trim(), mode, recipient: recipient.trim(), ticker, network });
  const previewAgain = () => {
    phase = 'previewing';
    expectedCalls.push({ id: 'previewWithdrawal', input: ask() });
  };
  const edit = (change: () => void) => {
    if (phase === 'confirming') return; // the form is locked while the confirmation runs
    change();
    preview = null;
    asked = null;
    const complete = coin() !== undefined && network !== '' && recipient.trim() !== '' && amount.trim() !== '';
    if (isOver(amount, mode, coin())) phase = 'overBalance';
    else if (complete && formatProblem(amount, mode, coin()) === undefined) phase = 'waiting';
    else phase = 'editing';
  };

  await replay(
    actor,
    path,
    fakes,
    (snapshot, step) => {
      const event = step.event as ModelEvent & { value: string; output: unknown };
      switch (event.type) {
        case 'xstate.done.actor.loadWallets':
          loaded = event.output as WalletAddressEntry[];
          phase = 'editing';
          break;
        case 'xstate.error.actor.loadWallets':
          phase = 'editing';
          break;
        case 'coin.change':
          edit(() => {
            ticker = event.value;
            const networks = coin()?.networks ?? [];
            network = networks.length === 1 ? networks[0]!.key : '';
          });
          break;
        case 'network.change':
          edit(() => (network = event.value));
          break;
        case 'recipient.change':
          edit(() => (recipient = event.value));
          break;
        case 'amount.change':
          edit(() => (amount = event.value));
          break;
        case 'mode.toggle':
          if (phase === 'ready') {
            // A preview shown: only the unit changes, to the preview's own figure in it (what was typed, back in the
            // unit it was asked in); the preview stays, so confirm sends the crypto amount it showed.
            mode = mode === 'crypto' ? 'usd' : 'crypto';
            amount = mode === asked!.mode ? asked!.amount : mode === 'crypto' ? preview!.amount_crypto : preview!.amount_usd;
            break;
          }
          edit(() => {
            amount = toggled(amount, mode, coin());
            mode = mode === 'crypto' ? 'usd' : 'crypto';
          });
          break;
        case debounced.type:
          previewAgain();
          break;
        case 'xstate.done.actor.previewWithdrawal':
          preview = event.output as WithdrawalPreview;
          asked = { amount, mode };
          phase = 'ready';
          break;
        case 'xstate.error.actor.previewWithdrawal':
          phase = 'editing';
          break;
        case expired.type:
          preview = null;
          asked = null;
          phase = 'expired';
          break;
        case 'preview.refresh':
          if (phase === 'expired') previewAgain();
          break;
        case 'form.submit':
          if (ticker === '' || network === '' || amount.trim() === '') expectedNotices.push(MISSING);
          else if (phase === 'ready') {
            phase = 'confirming';
            expectedCalls.push({ id: 'confirmWithdrawal', input: undefined });
          }
          break;
        case 'xstate.done.actor.confirmWithdrawal':
          expectedNotices.push({ title: 'Withdrawal Submitted', description: confirmedText, type: 'success' });
          expectedDepartures += 1;
          preview = null;
          phase = 'done';
          break;
        case 'xstate.error.actor.confirmWithdrawal':
          preview = null;
          phase = 'editing';
          break;
      }

      const s = snapshot as never;
      const shown = coin();
      expect(selectIsLoading(s), 'loading').toBe(phase === 'loading');
      expect(selectIsBusy(s), 'busy: "Processing..."').toBe(phase === 'confirming');
      expect(selectCoin(s)).toEqual(shown);
      expect(selectNetwork(s)).toBe(network);
      expect(selectNetworkChoices(s).map((choice) => choice.key)).toEqual(
        shown && shown.networks.length > 1 ? shown.networks.map((choice) => choice.key) : [],
      );
      expect(selectRecipient(s)).toBe(recipient);
      expect(selectAmount(s)).toBe(amount);
      expect(selectMode(s)).toBe(mode);
      expect(selectPreview(s)).toEqual(preview);
      expect(selectAmountError(s), 'the amount’s message').toBe(
        phase === 'overBalance' ? BALANCE_ERROR : formatProblem(amount, mode, shown),
      );
      expect(phase === 'overBalance', 'the balance error is the state').toBe(snapshot.matches({ form: 'overBalance' }));
      expect(selectIsPreviewing(s), 'working out the fee').toBe(phase === 'waiting' || phase === 'previewing');
      expect(selectIsExpired(s)).toBe(phase === 'expired');
      expect(selectCanRefresh(s)).toBe(phase === 'expired');
      expect(selectShowsConfirm(s), '"Confirm Withdrawal" shows').toBe(phase === 'ready' || phase === 'confirming');
      expect(selectCanConfirm(s), '"Confirm Withdrawal" enabled').toBe(phase === 'ready');
      if (phase === 'ready') {
        // Enabled only with every field filled and within the balance (spec section 5).
        expect(shown && network !== '' && recipient.trim() !== '' && amount.trim() !== '' && !isOver(amount, mode, shown)).toBe(true);
      }
      expect(fakes.isRunning('previewWithdrawal'), 'a preview call runs').toBe(phase === 'previewing');
      expect(fakes.isRunning('confirmWithdrawal'), 'a confirm call runs').toBe(phase === 'confirming');
      expect(snapshot.status === 'done').toBe(phase === 'done');
    },
    { clock },
  );

  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  expect(departures).toBe(expectedDepartures);
  actor.stop();
}

describe('withdrawal: every path through the chart', () => {
  it('the oracle converts as the spec says', () => {
    expect(cryptoToUsd('0.01', '60000.00')).toBe('600.00');
    expect(cryptoToUsd('0.01234567', '60000.00')).toBe('740.74');
    expect(usdToCrypto('600', '60000.00', 8)).toBe('0.01000000');
    expect(usdToCrypto('0.01', '60000.00', 8)).toBe('0.00000016');
    expect(usdToCrypto('100', '3000.10', 18)).toBe('0.033332222259258024');
  });

  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(40);
    expect(model.paths.length).toBeGreaterThan(model.states);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(withdrawalLogic);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.allTransitions).toEqual(
      expect.arrayContaining([
        'withdrawal.form.checking —always#0→ withdrawal.form.overBalance',
        'withdrawal.form.checking —always#1→ withdrawal.form.waiting',
        'withdrawal.form.checking —always#2→ withdrawal.form.editing',
        'withdrawal.form.ready —xstate.after.previewExpiry.withdrawal.form.ready#0→ withdrawal.form.expired',
        'withdrawal.form.confirming —amount.change#0→ (stays)',
      ]),
    );
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(withdrawalLogic);
    const leftOut = (path: ModelPath) => path.steps.some(({ event }) => event.type === expired.type || event.type === 'mode.toggle');
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['withdrawal.form.expired']);
    expect(coverage.missingTransitions()).toEqual([
      'withdrawal.form —mode.toggle#0→ withdrawal.form.checking',
      'withdrawal.form.ready —mode.toggle#0→ (stays)',
      'withdrawal.form.ready —xstate.after.previewExpiry.withdrawal.form.ready#0→ withdrawal.form.expired',
      'withdrawal.form.expired —preview.refresh#0→ withdrawal.form.previewing',
      'withdrawal.form.confirming —mode.toggle#0→ (stays)',
    ]);
  });
});
