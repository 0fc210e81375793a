import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WITHDRAWAL_PREVIEW_SECONDS, type NetworkKey, type WithdrawalPreview } from '../../contracts/wallet.ts';
import { checkLedger, formatLedgerReport } from '../../server/src/ledger/check.ts';
import { balanceOf, postEntry, type UserAccountKind } from '../../server/src/ledger/ledger.ts';
import { Money } from '../../server/src/ledger/money.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { codeAt, lastCodeFor, login, signUpWithTwoFactor } from '../support/server-flows.ts';
import { mine, outsider } from '../support/server-chain.ts';
import { coinByTicker, deposit, expectLedgerClean } from '../support/server-money.ts';
import { open, sellOffer, trader, type Trader } from '../support/server-trades.ts';

/**
 * POST /api/user/wallet/ `preview_withdrawal` and `confirm_withdrawal` (docs/rules.md "Wallets"): the figures
 * and every refusal, the kept preview, exactly-once confirms, internal transfers, the lock after a
 * credentials change, and the ledger audit's wallets section.
 */

const HOUR = 60 * MINUTE;
const PRICES = { BTC: '97000', ETH: '3400', USDT: '1', LTC: '95' } as const;

const TEXT = {
  aboveBalance: 'This amount is higher than your balance',
  unknownCoin: 'The selected cryptocurrency does not exist.',
  noWithdrawal: 'There is no withdrawal to confirm. Preview it again.',
  submitted: 'Withdrawal submitted. It will be sent within 30 minutes.',
  internal: 'Sent to another Peerex wallet.',
  ownAddress: 'This is your own deposit address.',
  tooFast: 'You are previewing withdrawals too fast. Please wait a moment.',
};

/** The same text with its last character changed: what a typo does to a checksum. */
const typo = (address: string) => address.slice(0, -1) + (address.endsWith('q') ? 'p' : 'q');

const wallet = <T = string>(t: TestApp, who: { token: string }, body: Record<string, unknown>) =>
  t.post<T>('/api/user/wallet/', body, { token: who.token });

const previewBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'preview_withdrawal',
  amount: '0.01',
  mode: 'crypto',
  recipient: outsider('bitcoin'),
  ticker: 'BTC',
  network: 'bitcoin',
  ...overrides,
});

const preview = (t: TestApp, who: { token: string }, overrides: Record<string, unknown> = {}) =>
  wallet<WithdrawalPreview>(t, who, previewBody(overrides));
const confirm = (t: TestApp, who: { token: string }) => wallet(t, who, { type: 'confirm_withdrawal' });

const refused = (status: number, info: string) => ({ status, body: { success: false, info } });

/** A balance as a plain decimal ("0.99", not "0.99000000"), so expectations read as amounts. */
async function held(t: TestApp, who: { id: string }, ticker: string, kind: UserAccountKind): Promise<string> {
  const coin = await coinByTicker(t.app.db, ticker);
  return new Money(await balanceOf(t.app.db, { kind, userId: who.id, coinId: coin.id })).toFixed();
}

let nextIndex = 700_000;
/** Hands `who` a deposit address on `network`, as the `addresses` call would (a child of the network's key). */
async function giveDepositAddress(t: TestApp, who: { id: string }, network: NetworkKey): Promise<string> {
  nextIndex += 1;
  const address = t.app.walletKeys.addressAt(network, nextIndex);
  await t.app.db.query(
    'INSERT INTO deposit_addresses (user_id, network, derivation_index, address, created_at) VALUES ($1, $2, $3, $4, $5)',
    [who.id, network, nextIndex, address, t.clock.now()],
  );
  return address;
}

interface TransactionRow {
  id: string;
  user_id: string;
  trans_type: string;
  status: string;
  scope: string;
  network: string;
  amount_crypto: string;
  amount_usd: string;
  fee_crypto: string;
  fee_usd: string;
  address: string | null;
  txid: string | null;
  credit_reference: string | null;
}

const transactionsOf = (t: TestApp, who: { id: string }) =>
  t.app.db.query<TransactionRow>(
    `SELECT id::text AS id, user_id::text AS user_id, trans_type, status, scope, network, amount_crypto::text AS amount_crypto,
            amount_usd::text AS amount_usd, fee_crypto::text AS fee_crypto, fee_usd::text AS fee_usd, address, txid, credit_reference
     FROM wallet_transactions WHERE user_id = $1 ORDER BY id`,
    [who.id],
  );

const entries = async (t: TestApp, pattern: string) =>
  (await t.app.db.query<{ reference: string }>('SELECT reference FROM ledger_entries WHERE reference LIKE $1 ORDER BY id', [pattern])).map(
    (row) => row.reference,
  );

const keptPreview = (t: TestApp, who: { id: string }) =>
  t.app.db.maybe<{ amount_crypto: string; recipient: string; expires_at: Date }>(
    'SELECT amount_crypto::text AS amount_crypto, recipient, expires_at FROM withdrawal_previews WHERE user_id = $1',
    [who.id],
  );

/** The refusal's "from" time, worked out here on its own: 24 hours on, rounded up to the minute, in UTC. */
function lockedUntil(changedAt: Date): string {
  const end = Math.ceil((changedAt.getTime() + 24 * HOUR) / MINUTE) * MINUTE;
  const text = new Date(end).toISOString();
  return `Withdrawals are paused for 24 hours after a password reset or a two-factor change. You can withdraw again from ${text.slice(0, 10)} ${text.slice(11, 16)} UTC.`;
}

const credentialsChangedAt = async (t: TestApp, who: { id: string }) =>
  (await t.app.db.one<{ at: Date | null }>('SELECT credentials_changed_at AS at FROM users WHERE id = $1', [who.id])).at;

async function setPrices(t: TestApp) {
  for (const [ticker, price] of Object.entries(PRICES)) {
    await t.app.db.query('UPDATE coins SET usd_price = $2 WHERE ticker = $1', [ticker, price]);
  }
}

describe.each(dbTargets)('POST /api/user/wallet/ withdrawals on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
    await setPrices(t);
  });
  afterAll(() => t.close());

  describe('preview_withdrawal', () => {
    it('answers the fee, the amounts and the expiry, and keeps the preview for 2 minutes', async () => {
      const who = await trader(t, { BTC: '1' });
      const recipient = outsider('bitcoin');
      const answer = await preview(t, who, { amount: '0.01', recipient });
      expect(answer).toEqual({
        status: 200,
        body: {
          success: true,
          info: {
            fee_crypto: '0.00005000',
            fee_usd: '4.85',
            amount_crypto: '0.01000000',
            amount_usd: '970.00',
            receive_crypto: '0.00995000',
            scope: 'external',
            expires: new Date(t.clock.now().getTime() + WITHDRAWAL_PREVIEW_SECONDS * 1000).toISOString(),
          },
        },
      });
      expect(await keptPreview(t, who)).toEqual({
        amount_crypto: '0.01000000',
        recipient,
        expires_at: new Date(t.clock.now().getTime() + 2 * MINUTE),
      });
      // A preview moves nothing.
      expect(await held(t, who, 'BTC', 'available')).toBe('1');
      expect(await transactionsOf(t, who)).toEqual([]);
      await expectLedgerClean(t.app.db);
    });

    it('keeps one preview per trader: a new one replaces the old', async () => {
      const who = await trader(t, { BTC: '1' });
      expect((await preview(t, who, { amount: '0.01' })).status).toBe(200);
      expect((await preview(t, who, { amount: '0.02' })).status).toBe(200);
      expect((await keptPreview(t, who))?.amount_crypto).toBe('0.02000000');
      expect((await t.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM withdrawal_previews WHERE user_id = $1', [who.id])).n).toBe(1);
    });

    it.each([
      ['BTC', 'bitcoin', '0.1', '0.00005000', '4.85', '0.09995000'],
      ['ETH', 'ethereum', '1', '0.00080000', '2.72', '0.99920000'],
      ['USDT', 'ethereum', '100', '3.000000', '3.00', '97.000000'],
      ['USDT', 'tron', '100', '1.000000', '1.00', '99.000000'],
      ['LTC', 'litecoin', '2', '0.00100000', '0.10', '1.99900000'],
    ] as const)('charges %s on %s its own network fee', async (ticker, network, amount, feeCrypto, feeUsd, receive) => {
      const who = await trader(t, { [ticker]: '1000' });
      const answer = await preview(t, who, { ticker, network, amount, recipient: outsider(network) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.info).toMatchObject({ fee_crypto: feeCrypto, fee_usd: feeUsd, receive_crypto: receive, scope: 'external' });
    });

    it('converts a USD amount at the current price, rounded down to the coin\'s places', async () => {
      const who = await trader(t, { BTC: '1', USDT: '500' });
      // 100 / 97000 = 0.0010309278…: rounded down, not to the nearer 0.00103093.
      const btc = await preview(t, who, { mode: 'usd', amount: '100' });
      expect(btc.body.info).toMatchObject({ amount_crypto: '0.00103092', amount_usd: '100.00', receive_crypto: '0.00098092' });
      const usdt = await preview(t, who, { mode: 'usd', amount: '12.34', ticker: 'USDT', network: 'tron', recipient: outsider('tron') });
      expect(usdt.body.info).toMatchObject({ amount_crypto: '12.340000', amount_usd: '12.34', fee_crypto: '1.000000' });
      // The price of the moment: a new price, a new conversion.
      await t.app.db.query(`UPDATE coins SET usd_price = '50000' WHERE ticker = 'BTC'`);
      try {
        expect((await preview(t, who, { mode: 'usd', amount: '100' })).body.info).toMatchObject({ amount_crypto: '0.00200000', fee_usd: '2.50' });
      } finally {
        await setPrices(t);
      }
    });

    it('refuses an amount above the available balance, in either mode, with the screen\'s own words', async () => {
      const who = await trader(t, { BTC: '0.5' });
      expect(await preview(t, who, { amount: '0.50000001' })).toEqual(refused(400, TEXT.aboveBalance));
      // 48,500.01 USD is 0.50000010 BTC at 97,000.
      expect(await preview(t, who, { mode: 'usd', amount: '48500.01' })).toEqual(refused(400, TEXT.aboveBalance));
      // The whole balance is fine.
      expect((await preview(t, who, { amount: '0.5' })).status).toBe(200);
      // Coins in escrow are not available.
      const coin = await coinByTicker(t.app.db, 'BTC');
      await postEntry(t.app.db, {
        reference: `test:escrow-${who.id}`,
        at: t.clock.now(),
        postings: [
          { account: { kind: 'available', userId: who.id, coinId: coin.id }, amount: '-0.1' },
          { account: { kind: 'escrow', userId: who.id, coinId: coin.id }, amount: '0.1' },
        ],
      });
      expect(await preview(t, who, { amount: '0.5' })).toEqual(refused(400, TEXT.aboveBalance));
      await expectLedgerClean(t.app.db);
    });

    it('refuses an amount that does not cover the network fee', async () => {
      const who = await trader(t, { BTC: '1', USDT: '10' });
      expect(await preview(t, who, { amount: '0.00005' })).toEqual(
        refused(400, 'The amount must be more than the network fee (0.00005000 BTC).'),
      );
      expect(await preview(t, who, { amount: '0.00001' })).toEqual(
        refused(400, 'The amount must be more than the network fee (0.00005000 BTC).'),
      );
      expect(await preview(t, who, { amount: '1', ticker: 'USDT', network: 'tron', recipient: outsider('tron') })).toEqual(
        refused(400, 'The amount must be more than the network fee (1.000000 USDT).'),
      );
      expect((await preview(t, who, { amount: '0.00005001' })).status).toBe(200);
    });

    it('refuses an unknown coin, or a network the coin does not travel on', async () => {
      const who = await trader(t, { BTC: '1', USDT: '10' });
      expect(await preview(t, who, { ticker: 'DOGE' })).toEqual(refused(400, TEXT.unknownCoin));
      expect(await preview(t, who, { network: 'tron', recipient: outsider('tron') })).toEqual(
        refused(400, 'BTC cannot be withdrawn on this network. Choose Bitcoin.'),
      );
      expect(await preview(t, who, { ticker: 'USDT', network: 'solana' })).toEqual(
        refused(400, 'USDT cannot be withdrawn on this network. Choose one of Ethereum (ERC20), Tron (TRC20).'),
      );
      // The ticker in any case is the coin; the network key is matched without case too.
      expect((await preview(t, who, { ticker: 'btc', network: 'Bitcoin' })).status).toBe(200);
    });

    it('refuses a recipient that is not a valid address of the network, checksum included, naming the network', async () => {
      const who = await trader(t, { BTC: '1', ETH: '1', USDT: '10', LTC: '1' });
      const cases: [Record<string, unknown>, string][] = [
        [{ recipient: typo(outsider('bitcoin')) }, 'This is not a valid Bitcoin address.'],
        [{ recipient: outsider('litecoin') }, 'This is not a valid Bitcoin address.'],
        [{ recipient: 'not an address' }, 'This is not a valid Bitcoin address.'],
        [{ ticker: 'LTC', network: 'litecoin', recipient: outsider('bitcoin') }, 'This is not a valid Litecoin address.'],
        [{ ticker: 'USDT', network: 'tron', amount: '5', recipient: typo(outsider('tron')) }, 'This is not a valid Tron (TRC20) address.'],
        [{ ticker: 'USDT', network: 'tron', amount: '5', recipient: outsider('ethereum') }, 'This is not a valid Tron (TRC20) address.'],
      ];
      // EIP-55: mixed case must be the checksum; flipping the case of one letter breaks it.
      const eth = outsider('ethereum');
      const letter = eth.slice(2).search(/[a-fA-F]/) + 2;
      const flipped = eth.slice(0, letter) + (eth[letter] === eth[letter]?.toUpperCase() ? eth[letter]?.toLowerCase() : eth[letter]?.toUpperCase()) + eth.slice(letter + 1);
      cases.push([{ ticker: 'ETH', network: 'ethereum', recipient: flipped }, 'This is not a valid Ethereum (ERC20) address.']);
      for (const [overrides, sentence] of cases) {
        expect(await preview(t, who, overrides), JSON.stringify(overrides)).toEqual(refused(400, sentence));
      }
      // All lower case carries no checksum and is accepted, kept as the network writes it.
      expect((await preview(t, who, { ticker: 'ETH', network: 'ethereum', recipient: eth.toLowerCase() })).status).toBe(200);
      expect((await keptPreview(t, who))?.recipient).toBe(eth);
    });

    it('refuses more places than the coin (crypto) or than cents (USD) has', async () => {
      const who = await trader(t, { BTC: '1', USDT: '10' });
      expect(await preview(t, who, { amount: '0.000100001' })).toEqual(refused(400, 'BTC amounts have at most 8 decimal places.'));
      expect(await preview(t, who, { amount: '5.0000001', ticker: 'USDT', network: 'tron', recipient: outsider('tron') })).toEqual(
        refused(400, 'USDT amounts have at most 6 decimal places.'),
      );
      expect(await preview(t, who, { mode: 'usd', amount: '10.001' })).toEqual(refused(400, 'USD amounts have at most 2 decimal places.'));
      // Trailing zeros are not places.
      expect((await preview(t, who, { mode: 'usd', amount: '10.0000' })).status).toBe(200);
    });

    it('refuses a USD amount worth less than the coin\'s smallest unit', async () => {
      const who = await trader(t, { BTC: '1' });
      await t.app.db.query(`UPDATE coins SET usd_price = '2000000000' WHERE ticker = 'BTC'`);
      try {
        expect(await preview(t, who, { mode: 'usd', amount: '0.01' })).toEqual(refused(400, 'This amount is too small to withdraw.'));
      } finally {
        await setPrices(t);
      }
    });

    it('refuses the trader\'s own deposit address', async () => {
      const who = await trader(t, { BTC: '1' });
      const own = await giveDepositAddress(t, who, 'bitcoin');
      expect(await preview(t, who, { recipient: own })).toEqual(refused(400, TEXT.ownAddress));
      // Written in upper case (bech32 allows it) it is still the same address.
      expect(await preview(t, who, { recipient: own.toUpperCase() })).toEqual(refused(400, TEXT.ownAddress));
    });

    it('forgets the kept preview when a later one is refused, so confirm never runs figures the screen cleared', async () => {
      const who = await trader(t, { BTC: '1' });
      expect((await preview(t, who, { amount: '0.1' })).status).toBe(200);
      expect((await preview(t, who, { amount: '2' })).status).toBe(400);
      expect(await keptPreview(t, who)).toBeUndefined();
      expect(await confirm(t, who)).toEqual(refused(409, TEXT.noWithdrawal));
      expect(await held(t, who, 'BTC', 'available')).toBe('1');
    });

    it('forgets the kept preview when a later one breaks the schema (a float amount, an empty recipient)', async () => {
      const who = await trader(t, { BTC: '1' });
      for (const broken of [{ amount: 0.1 }, { recipient: '' }]) {
        expect((await preview(t, who, { amount: '0.1' })).status).toBe(200);
        expect((await preview(t, who, broken)).status).toBe(400);
        expect(await keptPreview(t, who)).toBeUndefined();
      }
      expect(await confirm(t, who)).toEqual(refused(409, TEXT.noWithdrawal));
    });

    it('refuses bodies that break the schema with 400 and a sentence naming the field', async () => {
      const who = await trader(t, { BTC: '1' });
      const bad: [Record<string, unknown>, RegExp][] = [
        [{ amount: 0.01 }, /amount must be a decimal number in a string/],
        [{ amount: '0' }, /amount must be greater than 0/],
        [{ amount: '-1' }, /amount must be a number/],
        [{ amount: '1e-3' }, /amount must be a number/],
        [{ amount: undefined }, /amount is required/],
        [{ recipient: undefined }, /recipient is required/],
        [{ recipient: '   ' }, /recipient is required/],
        [{ ticker: undefined }, /ticker is required/],
        [{ network: undefined }, /network is required/],
        [{ mode: 'eur' }, /mode/],
        [{ mode: undefined }, /mode/],
      ];
      for (const [overrides, sentence] of bad) {
        const answer = await wallet(t, who, previewBody(overrides));
        expect(answer.status, JSON.stringify(overrides)).toBe(400);
        expect(answer.body.success).toBe(false);
        expect(answer.body.info, JSON.stringify(overrides)).toMatch(sentence);
      }
      expect(await keptPreview(t, who)).toBeUndefined();
    });

    it('answers 401 without a session, for preview and confirm alike', async () => {
      const expired = refused(401, 'Session expired');
      expect(await t.post('/api/user/wallet/', previewBody())).toEqual(expired);
      expect(await t.post('/api/user/wallet/', { type: 'confirm_withdrawal' })).toEqual(expired);
      expect(await t.post('/api/user/wallet/', { type: 'confirm_withdrawal' }, { token: 'not-a-session' })).toEqual(expired);
    });
  });

  describe('confirm_withdrawal', () => {
    it('takes an external withdrawal out of the available balance at once, into withdrawing, pending its broadcast', async () => {
      const who = await trader(t, { BTC: '1' });
      const recipient = outsider('bitcoin', 'cold storage');
      const kick = vi.spyOn(t.app.chain, 'kick');
      try {
        // 9,700 USD: below WITHDRAWAL_REVIEW_USD, so it goes to the chain without review (withdrawal-review.test.ts).
        expect((await preview(t, who, { amount: '0.1', recipient })).status).toBe(200);
        expect(await confirm(t, who)).toEqual({ status: 200, body: { success: true, info: TEXT.submitted } });
        expect(kick).toHaveBeenCalledTimes(1);
      } finally {
        kick.mockRestore();
      }
      expect(await held(t, who, 'BTC', 'available')).toBe('0.9');
      expect(await held(t, who, 'BTC', 'withdrawing')).toBe('0.1');
      const [row, ...others] = await transactionsOf(t, who);
      expect(others).toEqual([]);
      expect(row).toMatchObject({
        trans_type: 'withdrawal',
        status: 'pending',
        scope: 'external',
        network: 'bitcoin',
        address: recipient,
        txid: null,
        credit_reference: null,
      });
      expect(new Money(row?.amount_crypto ?? '').toFixed()).toBe('0.1');
      expect(new Money(row?.fee_crypto ?? '').toFixed()).toBe('0.00005');
      expect(new Money(row?.amount_usd ?? '').toFixed(2)).toBe('9700.00');
      expect(new Money(row?.fee_usd ?? '').toFixed(2)).toBe('4.85');
      expect(await entries(t, `withdrawal:${row?.id}:%`)).toEqual([`withdrawal:${row?.id}:hold`]);
      // Executed exactly once: the preview is gone.
      expect(await keptPreview(t, who)).toBeUndefined();
      expect(await confirm(t, who)).toEqual(refused(409, TEXT.noWithdrawal));
      expect(await held(t, who, 'BTC', 'available')).toBe('0.9');
      await expectLedgerClean(t.app.db);
    });

    it('is sent by the chain watcher and completed once mined: the amount reaches the platform, amount − fee the recipient', async () => {
      const who = await trader(t, { LTC: '3' });
      const recipient = outsider('litecoin', 'exchange');
      expect((await preview(t, who, { ticker: 'LTC', network: 'litecoin', amount: '1.5', recipient })).status).toBe(200);
      expect((await confirm(t, who)).body.info).toBe(TEXT.submitted);
      const [pending] = await transactionsOf(t, who);
      await mine(t);
      const [done] = await transactionsOf(t, who);
      expect(done).toMatchObject({ id: pending?.id, status: 'completed', txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
      const onChain = await t.app.db.query<{ address: string; amount: string }>(
        'SELECT address, amount::text AS amount FROM simulated_chain_transfers WHERE reference = $1',
        [`withdrawal:${pending?.id}`],
      );
      expect(onChain.map((transfer) => ({ ...transfer, amount: new Money(transfer.amount).toFixed() }))).toEqual([{ address: recipient, amount: '1.499' }]);
      expect(await entries(t, `withdrawal:${pending?.id}:%`)).toEqual([`withdrawal:${pending?.id}:hold`, `withdrawal:${pending?.id}:sent`]);
      expect(await held(t, who, 'LTC', 'available')).toBe('1.5');
      expect(await held(t, who, 'LTC', 'withdrawing')).toBe('0');
      await expectLedgerClean(t.app.db);
    });

    it('answers 409 without a preview', async () => {
      const who = await trader(t, { BTC: '1' });
      expect(await confirm(t, who)).toEqual(refused(409, TEXT.noWithdrawal));
      expect(await transactionsOf(t, who)).toEqual([]);
    });

    it('executes a preview up to its 2 minutes, and an expired one never (it is deleted)', async () => {
      const early = await trader(t, { BTC: '1' });
      const late = await trader(t, { BTC: '1' });
      expect((await preview(t, early, { amount: '0.1' })).status).toBe(200);
      expect((await preview(t, late, { amount: '0.1' })).status).toBe(200);
      t.clock.advance(WITHDRAWAL_PREVIEW_SECONDS * 1000 - 1000);
      expect((await confirm(t, early)).status).toBe(200);
      t.clock.advance(1000);
      expect(await confirm(t, late)).toEqual(refused(409, TEXT.noWithdrawal));
      expect(await keptPreview(t, late)).toBeUndefined();
      expect(await transactionsOf(t, late)).toEqual([]);
      expect(await held(t, late, 'BTC', 'available')).toBe('1');
      await expectLedgerClean(t.app.db);
    });

    it('executes only the caller\'s own preview', async () => {
      const owner = await trader(t, { BTC: '1' });
      const other = await trader(t, { BTC: '1' });
      expect((await preview(t, owner, { amount: '0.3' })).status).toBe(200);
      expect(await confirm(t, other)).toEqual(refused(409, TEXT.noWithdrawal));
      expect(await transactionsOf(t, other)).toEqual([]);
      expect(await held(t, other, 'BTC', 'available')).toBe('1');
      expect((await keptPreview(t, owner))?.amount_crypto).toBe('0.30000000');
      expect((await confirm(t, owner)).status).toBe(200);
      expect(await held(t, owner, 'BTC', 'available')).toBe('0.7');
      expect(await held(t, other, 'BTC', 'available')).toBe('1');
      await expectLedgerClean(t.app.db);
    });

    it('executes a preview once when two confirms race: one 200, one 409, one hold', async () => {
      const who = await trader(t, { BTC: '1' });
      expect((await preview(t, who, { amount: '0.4' })).status).toBe(200);
      const answers = await Promise.all([confirm(t, who), confirm(t, who)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const rows = await transactionsOf(t, who);
      expect(rows).toHaveLength(1);
      expect(await entries(t, `withdrawal:${rows[0]?.id}:%`)).toEqual([`withdrawal:${rows[0]?.id}:hold`]);
      expect(await held(t, who, 'BTC', 'available')).toBe('0.6');
      expect(await held(t, who, 'BTC', 'withdrawing')).toBe('0.4');
      await expectLedgerClean(t.app.db);
    });

    it('refuses when the balance was spent after the preview, writes nothing and drops the preview', async () => {
      const who = await trader(t, { BTC: '1' });
      expect((await preview(t, who, { amount: '0.9' })).status).toBe(200);
      const coin = await coinByTicker(t.app.db, 'BTC');
      await postEntry(t.app.db, {
        reference: `test:spent-${who.id}`,
        at: t.clock.now(),
        postings: [
          { account: { kind: 'available', userId: who.id, coinId: coin.id }, amount: '-0.5' },
          { account: { kind: 'escrow', userId: who.id, coinId: coin.id }, amount: '0.5' },
        ],
      });
      expect(await confirm(t, who)).toEqual(refused(400, TEXT.aboveBalance));
      expect(await transactionsOf(t, who)).toEqual([]);
      expect(await keptPreview(t, who)).toBeUndefined();
      expect(await held(t, who, 'BTC', 'available')).toBe('0.5');
      expect(await held(t, who, 'BTC', 'withdrawing')).toBe('0');
      await expectLedgerClean(t.app.db);
    });

    it('never spends a coin twice when a confirm races a trade opened against the same balance', async () => {
      const seller = await trader(t, { BTC: '0.01' });
      const buyer = await trader(t);
      // At rate 1 EUR per USD and 97,000 USD per BTC, 970 EUR is the seller's whole 0.01 BTC.
      const offer = await sellOffer(t, seller);
      expect((await preview(t, seller, { amount: '0.01' })).status).toBe(200);
      const [confirmed, opened] = await Promise.all([confirm(t, seller), open(t, buyer, offer, '970', 'SEPA')]);
      expect([confirmed.status, opened.status].filter((status) => status === 200)).toHaveLength(1);
      if (confirmed.status !== 200) expect(confirmed).toEqual(refused(400, TEXT.aboveBalance));
      expect(await held(t, seller, 'BTC', 'available')).toBe('0');
      expect(new Money(await held(t, seller, 'BTC', 'withdrawing')).plus(await held(t, seller, 'BTC', 'escrow')).toFixed()).toBe('0.01');
      await expectLedgerClean(t.app.db);
    });

    it('lets a transfer into a wallet and a withdrawal out of it race, each moving only its own amount', async () => {
      // A pays B while B withdraws everything it had before: B's withdrawal takes its own 0.1, A's 0.3 stays with B.
      const a = await trader(t, { BTC: '1' });
      const b = await trader(t, { BTC: '0.1' });
      const bAddress = await giveDepositAddress(t, b, 'bitcoin');
      expect((await preview(t, a, { amount: '0.3', recipient: bAddress })).status).toBe(200);
      expect((await preview(t, b, { amount: '0.1' })).status).toBe(200);
      const answers = await Promise.all([confirm(t, a), confirm(t, b)]);
      expect(answers.map((answer) => answer.body.info)).toEqual([TEXT.internal, TEXT.submitted]);
      expect(await held(t, a, 'BTC', 'available')).toBe('0.7');
      expect(await held(t, b, 'BTC', 'available')).toBe('0.3');
      expect(await held(t, b, 'BTC', 'withdrawing')).toBe('0.1');
      await expectLedgerClean(t.app.db);
    });
  });

  describe('internal transfers', () => {
    it('sends to another trader\'s deposit address without a network fee, at once, with a row in both histories', async () => {
      const sender = await trader(t, { BTC: '1' });
      const recipient = await trader(t);
      const address = await giveDepositAddress(t, recipient, 'bitcoin');
      const kick = vi.spyOn(t.app.chain, 'kick');
      try {
        const previewed = await preview(t, sender, { amount: '0.2', recipient: address });
        expect(previewed.body.info).toMatchObject({
          scope: 'internal',
          fee_crypto: '0.00000000',
          fee_usd: '0.00',
          amount_crypto: '0.20000000',
          amount_usd: '19400.00',
          receive_crypto: '0.20000000',
        });
        expect(await confirm(t, sender)).toEqual({ status: 200, body: { success: true, info: TEXT.internal } });
        // Nothing for the chain to do.
        expect(kick).not.toHaveBeenCalled();
      } finally {
        kick.mockRestore();
      }
      expect(await held(t, sender, 'BTC', 'available')).toBe('0.8');
      expect(await held(t, sender, 'BTC', 'withdrawing')).toBe('0');
      expect(await held(t, recipient, 'BTC', 'available')).toBe('0.2');

      const [sent] = await transactionsOf(t, sender);
      const [received] = await transactionsOf(t, recipient);
      expect(sent).toMatchObject({ trans_type: 'withdrawal', status: 'completed', scope: 'internal', address, txid: null, credit_reference: null });
      expect(new Money(sent?.fee_crypto ?? '').isZero()).toBe(true);
      expect(received).toMatchObject({
        trans_type: 'deposit',
        status: 'completed',
        scope: 'internal',
        network: 'bitcoin',
        address,
        txid: null,
        credit_reference: `transfer:${sent?.id}`,
      });
      expect(new Money(received?.amount_crypto ?? '').toFixed()).toBe('0.2');
      expect(await entries(t, `transfer:${sent?.id}`)).toEqual([`transfer:${sent?.id}`]);
      expect(await entries(t, `withdrawal:${sent?.id}:%`)).toEqual([]);
      await expectLedgerClean(t.app.db);
    });

    it('sends USDT to the Ethereum address the recipient shares between ETH and USDT, without the network fee', async () => {
      const sender = await trader(t, { USDT: '10' });
      const recipient = await trader(t);
      const address = await giveDepositAddress(t, recipient, 'ethereum');
      // Written in lower case; an external withdrawal on Ethereum would cost 3 USDT.
      const previewed = await preview(t, sender, { ticker: 'USDT', network: 'ethereum', amount: '6.5', recipient: address.toLowerCase() });
      expect(previewed.body.info).toMatchObject({ scope: 'internal', fee_crypto: '0.000000', receive_crypto: '6.500000' });
      expect((await confirm(t, sender)).body.info).toBe(TEXT.internal);
      expect(await held(t, recipient, 'USDT', 'available')).toBe('6.5');
      expect(await held(t, sender, 'USDT', 'available')).toBe('3.5');
      await expectLedgerClean(t.app.db);
    });

    it('refuses a transfer worth less than the 5 USD deposit minimum, so nobody can fill a trader\'s history with dust', async () => {
      const sender = await trader(t, { USDT: '10' });
      const recipient = await trader(t);
      const address = await giveDepositAddress(t, recipient, 'tron');
      const refused = await preview(t, sender, { ticker: 'USDT', network: 'tron', amount: '4.99', recipient: address });
      expect(refused).toEqual({ status: 400, body: { success: false, info: 'A transfer to another Peerex wallet must be worth at least 5 USD.' } });
      expect((await confirm(t, sender)).status).toBe(409);
      expect(await held(t, recipient, 'USDT', 'available')).toBe('0');
    });
  });

  describe('the 24-hour lock after a credentials change', () => {
    const idOf = async (username: string) => (await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [username])).id;

    it('holds withdrawals for 24 hours after a password reset, and lifts itself', async () => {
      const who = await trader(t, { BTC: '1' });
      const { email } = await t.app.db.one<{ email: string }>('SELECT email FROM users WHERE id = $1', [who.id]);
      await t.post('/api/security/reset_password/', { type: 'request', email });
      await t.app.mailer.settled();
      const password = 'a-brand-new-password';
      const reset = await t.post('/api/security/reset_password/', {
        type: 'reset',
        email,
        code: lastCodeFor(t, email),
        password,
        confirmPassword: password,
      });
      expect(reset.status, JSON.stringify(reset.body)).toBe(200);
      const changedAt = await credentialsChangedAt(t, who);
      expect(changedAt).toEqual(t.clock.now());
      const session = await login(t, who.username, password);
      const token = (session.body.info as { token: string }).token;

      expect(await preview(t, { token }, { amount: '0.1' })).toEqual(refused(409, lockedUntil(changedAt as Date)));
      t.clock.advance(24 * HOUR - 1000);
      expect(await preview(t, { token }, { amount: '0.1' })).toEqual(refused(409, lockedUntil(changedAt as Date)));
      t.clock.advance(1000);
      expect((await preview(t, { token }, { amount: '0.1' })).status).toBe(200);
      expect((await confirm(t, { token })).body.info).toBe(TEXT.submitted);
      await expectLedgerClean(t.app.db);
    });

    it('holds them after two-factor is turned on and again after it is turned off, but not after a recovery-code sign-in', async () => {
      const session = await signUpWithTwoFactor(t);
      const who = { id: await idOf(session.username), token: session.token };
      const coin = await coinByTicker(t.app.db, 'BTC');
      await deposit(t.app.db, who.id, coin.id, '1');
      const enabledAt = await credentialsChangedAt(t, who);
      expect(enabledAt).not.toBeNull();
      expect(await preview(t, who, { amount: '0.1' })).toEqual(refused(409, lockedUntil(enabledAt as Date)));
      t.clock.advance(24 * HOUR);
      expect((await preview(t, who, { amount: '0.1' })).status).toBe(200);

      // A recovery code spent to sign in changes nothing the owner set: no lock.
      const interim = await login(t, session.username, session.password);
      const signedIn = await t.post<{ token: string }>('/api/security/two_factor_login/', {
        token: (interim.body.info as { token: string }).token,
        recovery_code: session.recoveryCodes[0],
        device: 'vitest',
      });
      expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
      expect(await credentialsChangedAt(t, who)).toEqual(enabledAt);
      expect((await preview(t, who, { amount: '0.1' })).status).toBe(200);

      const disabled = await t.post(
        '/api/security/two_factor/',
        { type: 'disable', code: await codeAt(t, session.secret), password: session.password },
        { token: who.token },
      );
      expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
      const disabledAt = await credentialsChangedAt(t, who);
      expect(disabledAt).toEqual(t.clock.now());
      expect(await preview(t, who, { amount: '0.1' })).toEqual(refused(409, lockedUntil(disabledAt as Date)));
      t.clock.advance(24 * HOUR);
      expect((await preview(t, who, { amount: '0.1' })).status).toBe(200);
      expect((await confirm(t, who)).body.info).toBe(TEXT.submitted);
      await expectLedgerClean(t.app.db);
    });

    it('refuses a confirm when the credentials changed after the preview, and drops that preview', async () => {
      const session = await signUpWithTwoFactor(t);
      const who = { id: await idOf(session.username), token: session.token };
      const coin = await coinByTicker(t.app.db, 'BTC');
      await deposit(t.app.db, who.id, coin.id, '1');
      t.clock.advance(24 * HOUR);
      expect((await preview(t, who, { amount: '0.1' })).status).toBe(200);
      const disabled = await t.post(
        '/api/security/two_factor/',
        { type: 'disable', code: await codeAt(t, session.secret), password: session.password },
        { token: who.token },
      );
      expect(disabled.status).toBe(200);
      expect(await confirm(t, who)).toEqual(refused(409, lockedUntil((await credentialsChangedAt(t, who)) as Date)));
      expect(await keptPreview(t, who)).toBeUndefined();
      expect(await confirm(t, who)).toEqual(refused(409, TEXT.noWithdrawal));
      expect(await held(t, who, 'BTC', 'available')).toBe('1');
      expect(await transactionsOf(t, who)).toEqual([]);
      await expectLedgerClean(t.app.db);
    });
  });
});

describe.each(dbTargets)('withdrawal rate limit on %s', (target) => {
  it('answers 429 past WITHDRAWAL_CALLS_PER_MINUTE previews and confirms of one trader, and others keep their own budget', async () => {
    const t = await createTestApp(target, { env: { WITHDRAWAL_CALLS_PER_MINUTE: '3' } });
    try {
      await setPrices(t);
      const who = await trader(t, { BTC: '1' });
      const other = await trader(t, { BTC: '1' });
      expect((await preview(t, who)).status).toBe(200);
      // A refused preview counts too: it is what someone testing addresses would send.
      expect((await preview(t, who, { recipient: 'guess' })).status).toBe(400);
      expect((await preview(t, who)).status).toBe(200);
      expect(await preview(t, who)).toEqual(refused(429, TEXT.tooFast));
      expect(await confirm(t, who)).toEqual(refused(429, TEXT.tooFast));
      // The rest of the wallet is not limited by it.
      expect((await wallet(t, who, { type: 'list' })).status).toBe(200);
      expect((await preview(t, other)).status).toBe(200);
      expect((await confirm(t, other)).status).toBe(200);
      await expectLedgerClean(t.app.db);
    } finally {
      await t.close();
    }
  });
});

describe.each(dbTargets)('ledger:check, wallets section, on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
    await setPrices(t);
  });
  afterAll(() => t.close());

  /** Runs `corrupt`, expects the audit to find `expected`, then undoes it and expects it clean again. */
  async function expectFound(corrupt: () => Promise<void>, undo: () => Promise<void>, expected: Record<string, unknown>, line: RegExp) {
    await expectLedgerClean(t.app.db);
    await corrupt();
    const report = await checkLedger(t.app.db);
    expect(report.clean).toBe(false);
    expect(report.wallets).toMatchObject(expected);
    expect(formatLedgerReport(report)).toMatch(line);
    await undo();
    await expectLedgerClean(t.app.db);
  }

  const btc = () => coinByTicker(t.app.db, 'BTC');
  const insertDeposit = async (who: Trader, status: string, reference: string, amount = '0.1') =>
    (
      await t.app.db.one<{ id: string }>(
        `INSERT INTO wallet_transactions (user_id, coin_id, network, trans_type, status, scope, amount_crypto, amount_usd, address, txid, vout,
                                          credit_reference, created_at)
         VALUES ($1, $2, 'bitcoin', 'deposit', $3, 'external', $4, 0, $5, $6, 0, $7, now()) RETURNING id::text AS id`,
        [who.id, (await btc()).id, status, amount, outsider('bitcoin', reference), reference.replace(/\W/g, ''), reference],
      )
    ).id;
  const removeTransaction = async (id: string) => {
    await t.app.db.query('DELETE FROM wallet_transactions WHERE id = $1', [id]);
  };

  it('finds a completed deposit that was never credited, or credited another amount', async () => {
    const who = await trader(t);
    let id = '';
    await expectFound(
      async () => {
        id = await insertDeposit(who, 'completed', 'deposit:bitcoin:aa01:0');
      },
      () => removeTransaction(id),
      { deposits: [{ id: expect.any(String), status: 'completed', reference: 'deposit:bitcoin:aa01:0', problem: 'is completed but not credited' }] },
      /deposit \d+ \(deposit:bitcoin:aa01:0\) is completed but not credited/,
    );
    // Credited, but 0.05 where the history says 0.1.
    const coin = await btc();
    await deposit(t.app.db, who.id, coin.id, '0.05', 'deposit:bitcoin:aa02:0');
    await expectFound(
      async () => {
        id = await insertDeposit(who, 'completed', 'deposit:bitcoin:aa02:0');
      },
      async () => {
        await t.app.db.query(`UPDATE wallet_transactions SET amount_crypto = 0.05 WHERE id = $1`, [id]);
      },
      { deposits: [{ reference: 'deposit:bitcoin:aa02:0', problem: expect.stringMatching(/^credits 0\.05\d* to its owner's available instead of 0\.1/) }] },
      /aa02:0\) credits/,
    );
  });

  it('finds a pending or cancelled deposit that was credited', async () => {
    const who = await trader(t);
    const coin = await btc();
    await deposit(t.app.db, who.id, coin.id, '0.1', 'deposit:bitcoin:bb01:0');
    let id = '';
    for (const status of ['pending', 'cancelled']) {
      await expectFound(
        async () => {
          id = await insertDeposit(who, status, 'deposit:bitcoin:bb01:0');
        },
        // Completed, the same row is exactly right.
        async () => {
          await t.app.db.query(`UPDATE wallet_transactions SET status = 'completed' WHERE id = $1`, [id]);
        },
        { deposits: [{ status, problem: `is ${status} but credited` }] },
        new RegExp(`is ${status} but credited`),
      );
      await removeTransaction(id);
      // The entry stays; without its row it is a deposit like the tests' own, which no history names.
    }
  });

  it('finds a withdrawing balance that differs from the pending withdrawals', async () => {
    const who = await trader(t, { BTC: '1' });
    const coin = await btc();
    await expectFound(
      () =>
        postEntry(t.app.db, {
          reference: `test:stray-hold-${who.id}`,
          at: t.clock.now(),
          postings: [
            { account: { kind: 'available', userId: who.id, coinId: coin.id }, amount: '-0.2' },
            { account: { kind: 'withdrawing', userId: who.id, coinId: coin.id }, amount: '0.2' },
          ],
        }).then(() => undefined),
      () =>
        postEntry(t.app.db, {
          reference: `test:stray-hold-${who.id}:back`,
          at: t.clock.now(),
          postings: [
            { account: { kind: 'withdrawing', userId: who.id, coinId: coin.id }, amount: '-0.2' },
            { account: { kind: 'available', userId: who.id, coinId: coin.id }, amount: '0.2' },
          ],
        }).then(() => undefined),
      { withdrawing: [{ userId: who.id, coinId: coin.id, pending: '0' }] },
      /withdrawing: user \d+ holds 0\.2 of coin \d+, their pending withdrawals sum to 0/,
    );
  });

  it('finds an external withdrawal without the entries its status needs, and an internal one without its transfer', async () => {
    const who = await trader(t, { BTC: '1' });
    expect((await preview(t, who, { amount: '0.1' })).status).toBe(200);
    expect((await confirm(t, who)).status).toBe(200);
    const [withdrawal] = await transactionsOf(t, who);
    const id = withdrawal?.id ?? '';
    // Completed by the chain, but never moved out of withdrawing: `:sent` missing, and withdrawing holds too much.
    await expectFound(
      () => t.app.db.query(`UPDATE wallet_transactions SET status = 'completed', txid = 'ab' WHERE id = $1`, [id]).then(() => undefined),
      () => t.app.db.query(`UPDATE wallet_transactions SET status = 'pending', txid = NULL WHERE id = $1`, [id]).then(() => undefined),
      {
        withdrawals: [{ id, scope: 'external', status: 'completed', reference: `withdrawal:${id}:sent`, problem: 'is missing' }],
        withdrawing: [{ userId: who.id, pending: '0' }],
      },
      new RegExp(`withdrawal ${id}: withdrawal:${id}:sent is missing`),
    );
    await expectFound(
      () => t.app.db.query(`UPDATE wallet_transactions SET status = 'cancelled' WHERE id = $1`, [id]).then(() => undefined),
      () => t.app.db.query(`UPDATE wallet_transactions SET status = 'pending' WHERE id = $1`, [id]).then(() => undefined),
      { withdrawals: [{ reference: `withdrawal:${id}:refund`, problem: 'is missing' }] },
      /:refund is missing/,
    );
    // A pending withdrawal whose hold never happened.
    let stray = '';
    await expectFound(
      async () => {
        stray = (
          await t.app.db.one<{ id: string }>(
            `INSERT INTO wallet_transactions (user_id, coin_id, network, trans_type, status, scope, amount_crypto, amount_usd, fee_crypto, address, created_at)
             VALUES ($1, $2, 'bitcoin', 'withdrawal', $3, $4, 0.3, 0, 0, $5, now()) RETURNING id::text AS id`,
            [who.id, (await btc()).id, 'pending', 'external', outsider('bitcoin')],
          )
        ).id;
      },
      async () => {
        await removeTransaction(stray);
      },
      { withdrawals: [{ reference: expect.stringMatching(/^withdrawal:\d+:hold$/), problem: 'is missing' }] },
      /:hold is missing/,
    );
    // An internal withdrawal whose transfer never happened.
    await expectFound(
      async () => {
        stray = (
          await t.app.db.one<{ id: string }>(
            `INSERT INTO wallet_transactions (user_id, coin_id, network, trans_type, status, scope, amount_crypto, amount_usd, address, created_at)
             VALUES ($1, $2, 'bitcoin', 'withdrawal', 'completed', 'internal', 0.3, 0, $3, now()) RETURNING id::text AS id`,
            [who.id, (await btc()).id, outsider('bitcoin')],
          )
        ).id;
      },
      async () => {
        await removeTransaction(stray);
      },
      { withdrawals: [{ scope: 'internal', reference: expect.stringMatching(/^transfer:\d+$/), problem: 'is missing' }] },
      /transfer:\d+ is missing/,
    );
  });

  it('refuses, in the table itself, an internal deposit with a txid or an external one without', async () => {
    const who = await trader(t);
    const coin = await btc();
    const insert = (scope: string, txid: string | null, vout: number | null, reference: string) =>
      t.app.db.query(
        `INSERT INTO wallet_transactions (user_id, coin_id, network, trans_type, status, scope, amount_crypto, amount_usd, txid, vout, credit_reference, created_at)
         VALUES ($1, $2, 'bitcoin', 'deposit', 'pending', $3, 1, 0, $4, $5, $6, now())`,
        [who.id, coin.id, scope, txid, vout, reference],
      );
    await expect(insert('internal', 'cc01', 0, 'transfer:x1')).rejects.toThrow(/wallet_transactions_deposit_origin_check/);
    await expect(insert('external', null, null, 'deposit:bitcoin:x2:0')).rejects.toThrow(/wallet_transactions_deposit_origin_check/);
    await expect(insert('external', 'cc03', null, 'deposit:bitcoin:cc03:0')).rejects.toThrow(/wallet_transactions_deposit_origin_check/);
    await expectLedgerClean(t.app.db);
  });
});
