import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerList } from '../../contracts/market.ts';
import { conversations, tradeHistory, type Conversation, type TradeHistory } from '../../contracts/trade.ts';
import { walletList, type WalletItem } from '../../contracts/wallet.ts';
import { overview, type Overview } from '../../contracts/user.ts';
import { DEMO_PASSWORD } from '../../server/src/seed.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { login } from '../support/server-flows.ts';
import { expectLedgerClean } from '../support/server-money.ts';
import { act, conversationsOf, history, openTrade, sellOffer, trader, type Trader } from '../support/server-trades.ts';

const BTC = 1;
const USDT = 3;

describe.each(dbTargets)('trade history, conversations, wallet and overview on %s', (target) => {
  let t: TestApp;
  let alice: Trader;
  let bob: Trader;
  let carol: Trader;
  /** alice sells BTC; bob sells USDT (6 places) and buys BTC. */
  let btcOffer: number;
  let usdtOffer: number;
  let bobBuysBtc: number;
  const channels: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp(target);
    alice = await trader(t, { BTC: '1', USDT: '100' });
    bob = await trader(t, { USDT: '5000' });
    carol = await trader(t, { BTC: '0.5' });
    btcOffer = await sellOffer(t, alice);
    usdtOffer = await sellOffer(t, bob, { coin: String(USDT), payment_methods: ['Wise'] });
    bobBuysBtc = await sellOffer(t, bob, { offer_type: 'buy' });
    // In time order: bob buys BTC from alice (completed), alice buys USDT from bob (pending, paid),
    // carol sells BTC to bob on his buy offer (cancelled), bob buys BTC from alice again (pending).
    channels.completed = await openTrade(t, bob, btcOffer, '970', 'SEPA');
    await act(t, bob, 'mark_paid', channels.completed);
    await act(t, alice, 'release_coin', channels.completed);
    t.clock.advance(1000);
    channels.paid = await openTrade(t, alice, usdtOffer, '50', 'Wise');
    await act(t, alice, 'mark_paid', channels.paid);
    t.clock.advance(1000);
    channels.cancelled = await openTrade(t, carol, bobBuysBtc, '97', 'Revolut');
    await act(t, bob, 'cancel', channels.cancelled);
    t.clock.advance(1000);
    channels.pending = await openTrade(t, bob, btcOffer, '194', 'Revolut');
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  const historyOf = async (who: Trader, body: Record<string, unknown> = {}) => {
    const answer = await history(t, who, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(tradeHistory.safeParse(answer.body.info).success).toBe(true);
    return answer.body.info;
  };

  it('lists the caller\'s trades newest first from their side: type, partner, amounts and fees in crypto and USD', async () => {
    const info: TradeHistory = await historyOf(bob);
    expect(info.paginator).toEqual({ prev: false, next: false, previous_page: null, next_page: null });
    expect(info.trades.map((row) => [row.trade_type, row.partner, row.status, row.payment_method])).toEqual([
      ['buy', alice.username, 'pending', 'Revolut'],
      ['buy', carol.username, 'cancelled', 'Revolut'],
      ['sell', alice.username, 'pending', 'Wise'],
      ['buy', alice.username, 'completed', 'SEPA'],
    ]);
    const [latest, , usdt, completed] = info.trades;
    // 194 EUR at 1 EUR/USD, BTC at 97,000 USD: 0.002 BTC; the buyer's 0.00198 is worth 192.06 USD.
    expect(latest).toMatchObject({
      offer__coin__ticker: 'BTC',
      offer__coin__image: '/coins/btc.svg',
      offer__coin__decimal_places: 8,
      amount_crypto: '0.00198000',
      amount_usd: '192.06',
      fee_crypto: '0.00002000',
      fee_usd: '1.94',
    });
    expect(usdt).toMatchObject({ offer__coin__ticker: 'USDT', offer__coin__decimal_places: 6, amount_crypto: '49.500000', fee_crypto: '0.500000', amount_usd: '49.50', fee_usd: '0.50' });
    expect(completed).toMatchObject({ amount_crypto: '0.00990000', fee_crypto: '0.00010000', amount_usd: '960.30', fee_usd: '9.70' });
    expect(new Date(completed?.created ?? '').toISOString()).toBe(completed?.created);

    const alices = await historyOf(alice);
    expect(alices.trades.map((row) => [row.trade_type, row.partner, row.status])).toEqual([
      ['sell', bob.username, 'pending'],
      ['buy', bob.username, 'pending'],
      ['sell', bob.username, 'completed'],
    ]);
  });

  it('filters by status, coin and type (from the caller\'s side); empty filters are no filter', async () => {
    const statuses = async (body: Record<string, unknown>) => (await historyOf(bob, body)).trades.map((row) => row.status);
    expect(await statuses({ filters: { status: 'pending' } })).toEqual(['pending', 'pending']);
    expect(await statuses({ filters: { status: 'completed' } })).toEqual(['completed']);
    expect(await statuses({ filters: { offer__coin__id: USDT } })).toEqual(['pending']);
    expect(await statuses({ filters: { offer__coin__id: String(BTC), status: 'cancelled' } })).toEqual(['cancelled']);
    expect(await statuses({ trade_type: 'sell' })).toEqual(['pending']);
    expect((await historyOf(bob, { trade_type: 'buy' })).trades).toHaveLength(3);
    expect(await statuses({ trade_type: '', filters: { status: '', offer__coin__id: '' } })).toHaveLength(4);
    expect(await statuses({ filters: { offer__coin__id: 999999999 } })).toEqual([]);
    expect(await statuses({ filters: { offer__coin__id: 2147483648 } })).toEqual([]);
    expect((await historyOf(carol, { trade_type: 'sell' })).trades.map((row) => row.partner)).toEqual([bob.username]);
  });

  it('pages by 10 with Previous/Next and never shows another trader\'s trades', async () => {
    const busy = await trader(t);
    for (let i = 0; i < 11; i += 1) {
      t.clock.advance(1000);
      const channel = await openTrade(t, busy, btcOffer, String(10 + i), 'SEPA');
      await act(t, busy, 'cancel', channel);
    }
    const first = await historyOf(busy, { page: 1 });
    expect(first.trades).toHaveLength(10);
    expect(first.paginator).toEqual({ prev: false, next: true, previous_page: null, next_page: 2 });
    expect(first.trades[0]?.amount_usd).toBe('19.80'); // the newest: 20 EUR
    const second = await historyOf(busy, { page: 2 });
    expect(second.trades.map((row) => row.amount_usd)).toEqual(['9.90']);
    expect(second.paginator).toEqual({ prev: true, next: false, previous_page: 1, next_page: null });
    expect((await historyOf(busy, { page: 3 })).trades).toEqual([]);
    expect((await historyOf(await trader(t))).trades).toEqual([]);
  });

  it('lists conversations newest activity first with partner, partner_type, last message and the facts', async () => {
    const answer = await conversationsOf(t, bob);
    expect(answer.status).toBe(200);
    expect(conversations.safeParse(answer.body.info).success).toBe(true);
    const list: Conversation[] = answer.body.info;
    expect(list.map((c) => [c.channel, c.partner, c.partner_type, c.status, c.buyer_paid, c.dispute_raised])).toEqual([
      [channels.pending, alice.username, 'seller', 'pending', false, false],
      [channels.cancelled, carol.username, 'seller', 'cancelled', false, false],
      [channels.paid, alice.username, 'buyer', 'pending', true, false],
      [channels.completed, alice.username, 'seller', 'completed', true, false],
    ]);
    expect(list[1]?.last_message).toBe(`${bob.username} cancelled the trade. 0.00100000 BTC went back to ${carol.username}.`);
    expect(list[0]?.last_message).toMatch(/^Trade opened: /);

    // A new message moves its conversation to the top.
    t.clock.advance(1000);
    await act(t, alice, 'raise_dispute', channels.paid, 'Not received');
    const moved = (await conversationsOf(t, bob)).body.info;
    expect(moved[0]).toMatchObject({ channel: channels.paid, dispute_raised: true, last_message: expect.stringContaining('Reason: Not received') });
  });

  it('searches conversations by partner username, any case, wildcards literal', async () => {
    const found = (await conversationsOf(t, bob, carol.username.toUpperCase().slice(1))).body.info;
    expect(found.map((c) => c.partner)).toEqual([carol.username]);
    expect((await conversationsOf(t, bob, '%')).body.info).toEqual([]);
    expect((await conversationsOf(t, bob, '_')).body.info.length).toBe(0);
    expect((await conversationsOf(t, bob, '   ')).body.info).toHaveLength(4);
    expect((await conversationsOf(t, bob, 'a\u0000b')).body).toEqual({ success: false, info: 'search contains a character that is not allowed (U+0000).' });
    expect((await conversationsOf(t, await trader(t))).body.info).toEqual([]);
    const bad = await t.post('/api/market/chat/', { type: 'messages' }, { token: bob.token });
    expect(bad.status).toBe(400);
    expect((await t.post('/api/market/chat/', { type: 'conversations', search: 'x'.repeat(31) }, { token: bob.token })).status).toBe(400);
    expect((await t.post('/api/market/chat/', { type: 'conversations' })).status).toBe(401);
  });

  it('lists the wallet: every coin, the available balance in its places (escrow excluded) and the current price', async () => {
    const answer = await t.post<WalletItem[]>('/api/user/wallet/', { type: 'list' }, { token: alice.token });
    expect(answer.status).toBe(200);
    expect(walletList.safeParse(answer.body.info).success).toBe(true);
    // alice: 1 BTC − 0.01 sold − 0.002 in escrow; 100 USDT + 49.5 bought (that trade is still pending: not yet).
    expect(answer.body.info).toEqual([
      { id: 1, balance: '0.98800000', coin__price: '97000.00', coin__ticker: 'BTC', coin__label: 'Bitcoin', coin__image: '/coins/btc.svg', coin__decimal_places: 8 },
      { id: 2, balance: '0.00000000', coin__price: '3400.00', coin__ticker: 'ETH', coin__label: 'Ethereum', coin__image: '/coins/eth.svg', coin__decimal_places: 8 },
      { id: 3, balance: '100.000000', coin__price: '1.00', coin__ticker: 'USDT', coin__label: 'Tether', coin__image: '/coins/usdt.svg', coin__decimal_places: 6 },
      { id: 4, balance: '0.00000000', coin__price: '95.00', coin__ticker: 'LTC', coin__label: 'Litecoin', coin__image: '/coins/ltc.svg', coin__decimal_places: 8 },
    ]);
    const bad = await t.post('/api/user/wallet/', { type: 'sweep' }, { token: alice.token });
    expect(bad).toEqual({ status: 400, body: { success: false, info: 'type must be one of: list, addresses, preview_withdrawal, confirm_withdrawal, history' } });
    expect((await t.post('/api/user/wallet/', { type: 'list' })).status).toBe(401);
  });

  it('fills the overview: total balance at current prices (escrow included), counts and recent trades', async () => {
    const answer = await t.post<Overview>('/api/user/overview/', {}, { token: bob.token });
    expect(overview.safeParse(answer.body.info).success).toBe(true);
    // bob: 0.0099 BTC bought (97,000) + 5000 − 50 USDT (4950 available + 50 in escrow, at 1.00).
    expect(answer.body.info).toMatchObject({ total_balance: '5960.30', completed_trades: 1, open_chats: 2, active_offers: 2 });
    expect(answer.body.info.recent_trades.map((r) => [r.trade_type, r.status, r.amount_crypto, r.offer__coin__ticker])).toEqual([
      ['buy', 'pending', '0.00198000', 'BTC'],
      ['buy', 'cancelled', '0.00099000', 'BTC'],
      ['sell', 'pending', '49.500000', 'USDT'],
      ['buy', 'completed', '0.00990000', 'BTC'],
    ]);
    expect(answer.body.info.recent_trades[0]).toMatchObject({ offer__coin__image: '/coins/btc.svg', offer__coin__decimal_places: 8 });

    // A price move changes the total at once; nothing else.
    await t.app.db.query('UPDATE coins SET usd_price = 100000.005 WHERE id = $1', [BTC]);
    const moved = (await t.post<Overview>('/api/user/overview/', {}, { token: bob.token })).body.info;
    expect(moved.total_balance).toBe('5990.00'); // 0.0099 × 100,000.005 = 990.0000495, + 5,000 USDT, rounded once
    await t.app.db.query('UPDATE coins SET usd_price = 97000.00 WHERE id = $1', [BTC]);
  });

  it('counts completed trades on the offer cards (user__trades_count)', async () => {
    const list = await t.post('/api/market/offers/', { type: 'list' }, { token: carol.token });
    const offers = offerList.parse(list.body.info).offers;
    const count = (username: string) => offers.find((o) => o.user__username === username)?.user__trades_count;
    expect(count(alice.username)).toBe(1);
    expect(count(bob.username)).toBe(1);
  });
});

describe.each(dbTargets)('the demo traders\' balances (SEED_DEMO) on %s', (target) => {
  it('arrive as deposits through the ledger: 2 BTC, 40 ETH, 50,000 USDT and 300 LTC each', async () => {
    const t = await createTestApp(target, { env: { SEED_DEMO: 'true' } });
    try {
      for (const name of ['alice', 'bob', 'carol']) {
        const session = (await login(t, name, DEMO_PASSWORD)).body.info as { token: string };
        const wallet = await t.post<WalletItem[]>('/api/user/wallet/', { type: 'list' }, { token: session.token });
        expect(wallet.body.info.map((w) => [w.coin__ticker, w.balance]), name).toEqual([
          ['BTC', '2.00000000'],
          ['ETH', '40.00000000'],
          ['USDT', '50000.000000'],
          ['LTC', '300.00000000'],
        ]);
      }
      const references = await t.app.db.query<{ reference: string }>("SELECT reference FROM ledger_entries WHERE reference LIKE 'deposit:demo-%' ORDER BY id");
      expect(references).toHaveLength(12);
      expect(references[0]?.reference).toBe('deposit:demo-alice-BTC');
      const deposits = await t.app.db.one<{ balance: string }>("SELECT balance::text FROM ledger_account_balances WHERE user_id IS NULL AND kind = 'deposits' AND coin_id = 1");
      expect(Number(deposits.balance)).toBe(-6);
      await expectLedgerClean(t.app.db);
    } finally {
      await t.close();
    }
  });
});
