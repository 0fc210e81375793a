/**
 * user/wallet/ `history` (spec section 2 "Transactions", section 3 "Wallet transaction"): the caller's
 * deposits and withdrawals, newest first, filtered and paged like the trade history. The rows are written
 * straight into wallet_transactions, as the chain watcher and the withdrawals would leave them.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletHistory, type WalletHistory, type WalletTransactionScope, type WalletTransactionStatus, type WalletTransactionType } from '../../contracts/wallet.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { coinByTicker } from '../support/server-money.ts';
import { trader, type Trader } from '../support/server-trades.ts';

interface Row {
  ticker: string;
  network: string;
  trans_type: WalletTransactionType;
  status: WalletTransactionStatus;
  amount: string;
  usd: string;
  fee?: string;
  feeUsd?: string;
  scope?: WalletTransactionScope;
  /** Deposits always have one; a withdrawal has none until broadcast. */
  txid?: string | null;
  at: Date;
}

/** Writes one wallet transaction of `who`, as the watcher or a withdrawal would; answers its id. */
async function insertRow(t: TestApp, who: Trader, row: Row): Promise<number> {
  const coin = await coinByTicker(t.app.db, row.ticker);
  const deposit = row.trans_type === 'deposit';
  const txid = row.txid === undefined ? (deposit ? randomBytes(32).toString('hex') : null) : row.txid;
  const inserted = await t.app.db.one<{ id: string }>(
    `INSERT INTO wallet_transactions (user_id, coin_id, network, trans_type, status, scope, amount_crypto, amount_usd, fee_crypto,
                                      fee_usd, address, txid, vout, credit_reference, created_at, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'an address', $11, $12, $13, $14, CASE WHEN $5 = 'completed' THEN $14::timestamptz END)
     RETURNING id`,
    [
      who.id,
      coin.id,
      row.network,
      row.trans_type,
      row.status,
      row.scope ?? 'external',
      row.amount,
      row.usd,
      row.fee ?? '0',
      row.feeUsd ?? '0',
      txid,
      deposit ? 0 : null,
      deposit ? `deposit:${row.network}:${txid}:0` : null,
      row.at,
    ],
  );
  return Number(inserted.id);
}

const historyCall = (t: TestApp, who: Trader, body: Record<string, unknown> = {}) =>
  t.post<WalletHistory | string>('/api/user/wallet/', { type: 'history', ...body }, { token: who.token });

async function historyOf(t: TestApp, who: Trader, body: Record<string, unknown> = {}): Promise<WalletHistory> {
  const answer = await historyCall(t, who, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const parsed = walletHistory.safeParse(answer.body.info);
  expect(parsed.success, JSON.stringify(parsed.error)).toBe(true);
  return answer.body.info as WalletHistory;
}

const BTC = 1;
const USDT = 3;
const LTC = 4;

describe.each(dbTargets)('user/wallet/ history on %s', (target) => {
  let t: TestApp;
  let alice: Trader;
  let bob: Trader;
  /** alice's rows by name, oldest first: every type, status and scope. */
  const ids: Record<string, number> = {};
  const start = new Date('2026-11-02T09:00:00.000Z');
  const second = (n: number) => new Date(start.getTime() + n * 1000);

  beforeAll(async () => {
    t = await createTestApp(target);
    alice = await trader(t);
    bob = await trader(t);
    ids.btcDeposit = await insertRow(t, alice, { ticker: 'BTC', network: 'bitcoin', trans_type: 'deposit', status: 'completed', amount: '0.5', usd: '48500', at: second(0) });
    ids.usdtPending = await insertRow(t, alice, { ticker: 'USDT', network: 'tron', trans_type: 'deposit', status: 'pending', amount: '100', usd: '100', at: second(1) });
    ids.ethTooSmall = await insertRow(t, alice, { ticker: 'ETH', network: 'ethereum', trans_type: 'deposit', status: 'cancelled', amount: '0.001', usd: '3.4', txid: `0x${'ab'.repeat(32)}`, at: second(2) });
    ids.btcSent = await insertRow(t, alice, {
      ticker: 'BTC', network: 'bitcoin', trans_type: 'withdrawal', status: 'completed', amount: '0.1', usd: '9700', fee: '0.00005', feeUsd: '4.85', txid: 'cd'.repeat(32), at: second(3),
    });
    ids.usdtWaiting = await insertRow(t, alice, { ticker: 'USDT', network: 'ethereum', trans_type: 'withdrawal', status: 'pending', amount: '250.5', usd: '250.5', fee: '3', feeUsd: '3', at: second(4) });
    ids.ltcRefused = await insertRow(t, alice, { ticker: 'LTC', network: 'litecoin', trans_type: 'withdrawal', status: 'cancelled', amount: '2', usd: '190', fee: '0.001', feeUsd: '0.1', at: second(5) });
    ids.usdtInternal = await insertRow(t, alice, { ticker: 'USDT', network: 'tron', trans_type: 'withdrawal', status: 'completed', scope: 'internal', amount: '40', usd: '40', at: second(6) });
    // bob's, at the same moments as alice's: never in her answers.
    await insertRow(t, bob, { ticker: 'BTC', network: 'bitcoin', trans_type: 'deposit', status: 'completed', amount: '1', usd: '97000', at: second(3) });
    await insertRow(t, bob, { ticker: 'USDT', network: 'tron', trans_type: 'withdrawal', status: 'pending', amount: '10', usd: '10', fee: '1', feeUsd: '1', at: second(7) });
  });
  afterAll(() => t.close());

  it('lists the caller\'s transactions newest first, each as spec section 3 reads it', async () => {
    const info = await historyOf(t, alice);
    expect(info.paginator).toEqual({ prev: false, next: false, previous_page: null, next_page: null });
    expect(info.transactions.map((row) => row.id)).toEqual(
      [ids.usdtInternal, ids.ltcRefused, ids.usdtWaiting, ids.btcSent, ids.ethTooSmall, ids.usdtPending, ids.btcDeposit],
    );
    const byId = new Map(info.transactions.map((row) => [row.id, row]));
    expect(byId.get(ids.btcDeposit ?? 0)).toEqual({
      id: ids.btcDeposit,
      created: '2026-11-02T09:00:00.000Z',
      trans_type: 'deposit',
      coin__image: '/coins/btc.svg',
      coin__ticker: 'BTC',
      coin__decimal_places: 8,
      network: 'bitcoin',
      amount_crypto: '0.50000000',
      amount_usd: '48500.00',
      fee_crypto: '0.00000000',
      fee_usd: '0.00',
      txid: expect.stringMatching(/^[0-9a-f]{64}$/),
      scope: 'external',
      status: 'completed',
    });
    expect(byId.get(ids.btcSent ?? 0)).toMatchObject({
      trans_type: 'withdrawal', amount_crypto: '0.10000000', amount_usd: '9700.00', fee_crypto: '0.00005000', fee_usd: '4.85', txid: 'cd'.repeat(32), status: 'completed',
    });
    // USDT has 6 places; a withdrawal waiting for its broadcast has no txid yet.
    expect(byId.get(ids.usdtWaiting ?? 0)).toMatchObject({
      coin__ticker: 'USDT', coin__decimal_places: 6, network: 'ethereum', amount_crypto: '250.500000', amount_usd: '250.50', fee_crypto: '3.000000', fee_usd: '3.00', txid: null, status: 'pending',
    });
    expect(byId.get(ids.ethTooSmall ?? 0)).toMatchObject({ amount_usd: '3.40', txid: `0x${'ab'.repeat(32)}`, status: 'cancelled' });
    expect(byId.get(ids.usdtInternal ?? 0)).toMatchObject({ scope: 'internal', txid: null, fee_crypto: '0.000000', fee_usd: '0.00' });
  });

  it('orders transactions of the same moment by id, newest first', async () => {
    const carol = await trader(t);
    const at = second(100);
    const first = await insertRow(t, carol, { ticker: 'LTC', network: 'litecoin', trans_type: 'deposit', status: 'completed', amount: '1', usd: '95', at });
    const next = await insertRow(t, carol, { ticker: 'LTC', network: 'litecoin', trans_type: 'deposit', status: 'pending', amount: '2', usd: '190', at });
    const older = await insertRow(t, carol, { ticker: 'LTC', network: 'litecoin', trans_type: 'deposit', status: 'pending', amount: '3', usd: '285', at: second(99) });
    expect((await historyOf(t, carol)).transactions.map((row) => row.id)).toEqual([next, first, older]);
  });

  it('filters by type, status and coin (an id or its digits); empty filters are no filter', async () => {
    const idsOf = async (filters: Record<string, unknown>) => (await historyOf(t, alice, { filters })).transactions.map((row) => row.id);
    expect(await idsOf({ trans_type: 'deposit' })).toEqual([ids.ethTooSmall, ids.usdtPending, ids.btcDeposit]);
    expect(await idsOf({ trans_type: 'withdrawal' })).toEqual([ids.usdtInternal, ids.ltcRefused, ids.usdtWaiting, ids.btcSent]);
    expect(await idsOf({ status: 'pending' })).toEqual([ids.usdtWaiting, ids.usdtPending]);
    expect(await idsOf({ status: 'completed' })).toEqual([ids.usdtInternal, ids.btcSent, ids.btcDeposit]);
    expect(await idsOf({ status: 'cancelled' })).toEqual([ids.ltcRefused, ids.ethTooSmall]);
    expect(await idsOf({ coin__id: USDT })).toEqual([ids.usdtInternal, ids.usdtWaiting, ids.usdtPending]);
    expect(await idsOf({ coin__id: String(BTC) })).toEqual([ids.btcSent, ids.btcDeposit]);
    expect(await idsOf({ coin__id: LTC, trans_type: 'withdrawal', status: 'cancelled' })).toEqual([ids.ltcRefused]);
    expect(await idsOf({ coin__id: USDT, trans_type: 'deposit', status: 'completed' })).toEqual([]);
    expect(await idsOf({ trans_type: '', status: '', coin__id: '' })).toHaveLength(7);
    expect((await historyOf(t, alice)).transactions).toHaveLength(7);
    // A coin that does not exist, or whose id no column can hold: an empty page, not an error.
    expect(await idsOf({ coin__id: 999999999 })).toEqual([]);
    expect(await idsOf({ coin__id: 2147483648 })).toEqual([]);
    expect(await idsOf({ coin__id: '0' })).toEqual([]);
    expect(await idsOf({ coin__id: -1 })).toEqual([]);
  });

  it('pages by 10 with Previous/Next, filters included', async () => {
    const busy = await trader(t);
    for (let i = 0; i < 12; i += 1) {
      await insertRow(t, busy, {
        ticker: 'BTC', network: 'bitcoin', trans_type: i % 3 === 0 ? 'withdrawal' : 'deposit', status: 'completed', amount: `0.${i + 10}`, usd: '1000', fee: i % 3 === 0 ? '0.00005' : '0', at: second(200 + i),
      });
    }
    const first = await historyOf(t, busy, { page: 1 });
    expect(first.transactions).toHaveLength(10);
    expect(first.paginator).toEqual({ prev: false, next: true, previous_page: null, next_page: 2 });
    expect(first.transactions[0]?.amount_crypto).toBe('0.21000000'); // the newest
    const next = await historyOf(t, busy, { page: 2 });
    expect(next.transactions.map((row) => row.amount_crypto)).toEqual(['0.11000000', '0.10000000']);
    expect(next.paginator).toEqual({ prev: true, next: false, previous_page: 1, next_page: null });
    expect((await historyOf(t, busy, { page: 3 })).transactions).toEqual([]);
    const withdrawals = await historyOf(t, busy, { filters: { trans_type: 'withdrawal' } });
    expect(withdrawals.transactions.map((row) => row.amount_crypto)).toEqual(['0.19000000', '0.16000000', '0.13000000', '0.10000000']);
    const eight = await historyOf(t, busy, { filters: { trans_type: 'deposit' } });
    expect(eight.transactions).toHaveLength(8);
    expect(eight.paginator.next).toBe(false);
    await insertRow(t, busy, { ticker: 'BTC', network: 'bitcoin', trans_type: 'deposit', status: 'pending', amount: '1', usd: '1', at: second(300) });
    await insertRow(t, busy, { ticker: 'BTC', network: 'bitcoin', trans_type: 'deposit', status: 'pending', amount: '1', usd: '1', at: second(301) });
    // Exactly 10 rows: one page, no Next.
    const ten = await historyOf(t, busy, { filters: { trans_type: 'deposit' } });
    expect(ten.transactions).toHaveLength(10);
    expect(ten.paginator).toEqual({ prev: false, next: false, previous_page: null, next_page: null });
  });

  it('never shows another trader\'s transactions', async () => {
    const bobs = await historyOf(t, bob);
    expect(bobs.transactions.map((row) => [row.coin__ticker, row.trans_type, row.status])).toEqual([
      ['USDT', 'withdrawal', 'pending'],
      ['BTC', 'deposit', 'completed'],
    ]);
    const alices = new Set(Object.values(ids));
    expect(bobs.transactions.some((row) => alices.has(row.id))).toBe(false);
    expect((await historyOf(t, alice, { filters: { coin__id: BTC } })).transactions.map((row) => row.id)).toEqual([ids.btcSent, ids.btcDeposit]);
    expect((await historyOf(t, await trader(t))).transactions).toEqual([]);
  });

  it('refuses bad filters and pages with one sentence, and a caller without a session', async () => {
    const refused = async (body: Record<string, unknown>, sentence: string) => {
      const answer = await historyCall(t, alice, body);
      expect(answer, JSON.stringify(body)).toEqual({ status: 400, body: { success: false, info: sentence } });
    };
    await refused({ filters: { trans_type: 'transfer' } }, 'filters.trans_type is not valid');
    await refused({ filters: { status: 'done' } }, 'filters.status is not valid');
    await refused({ filters: { coin__id: 'btc' } }, 'filters.coin__id: coin__id must be a coin id');
    await refused({ filters: { coin__id: '1234567890' } }, 'filters.coin__id: coin__id must be a coin id');
    await refused({ filters: { coin__id: 1.5 } }, 'filters.coin__id is not valid');
    await refused({ page: 0 }, 'page must be 1 or more');
    await refused({ page: 'two' }, 'page must be a number');
    await refused({ filters: 'deposit' }, 'filters must be an object');
    const anonymous = await t.post('/api/user/wallet/', { type: 'history' });
    expect(anonymous.status).toBe(401);
  });
});
