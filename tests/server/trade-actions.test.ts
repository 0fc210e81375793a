import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '../../server/src/infra/realtime/realtime.plugin.ts';
import { SWEEP_BATCH } from '../../server/src/trades/trades.ts';
import { MINUTE, createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { balance, expectLedgerClean } from '../support/server-money.ts';
import type { Conversation } from '../../contracts/trade.ts';
import { act, conversationsOf, openTrade, sellOffer, tradeCall, tradeCountsOf, tradeFacts, trader, type Trader } from '../support/server-trades.ts';

const BTC = 1;
const dec = (value: string) => new Decimal(value);
const refused = (status: number, info: string) => ({ status, body: { success: false, info } });
const done = (info: string) => ({ status: 200, body: { success: true, info } });

/** The trade events on trades' channels (not their chat messages, not the conversation lists). */
const tradeEvents = (events: RealtimeEvent[]) =>
  events.filter((e) => !e.channel.startsWith('private-user-') && e.event !== 'new_message');

describe.each(dbTargets)('trade actions (market/trade/ cancel, mark_paid, release_coin, raise_dispute) on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  let stranger: Trader;
  let offer: number;
  const events: RealtimeEvent[] = [];
  beforeAll(async () => {
    t = await createTestApp(target);
    seller = await trader(t, { BTC: '1' });
    buyer = await trader(t);
    stranger = await trader(t);
    // Room for the trades these tests leave pending (an offer's own cap, docs/rules.md "Offers").
    offer = await sellOffer(t, seller, { max_open_trades: 20 });
    t.app.realtime.subscribe((event) => events.push(event));
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  const messagesOf = async (channel: string) =>
    (
      await t.app.db.query<{ text: string; sender_id: string | null }>(
        'SELECT m.text, m.sender_id FROM chat_messages m JOIN trades tr ON tr.id = m.trade_id WHERE tr.channel = $1 ORDER BY m.id',
        [channel],
      )
    ).map((m) => m.text);

  it('mark_paid then release_coin: escrow to the buyer less the fee, the fee to the platform, completed', async () => {
    const sellerBefore = dec(await balance(t.app.db, seller.id, BTC, 'available'));
    const feesBefore = dec(
      (await t.app.db.maybe<{ balance: string }>(`SELECT balance FROM ledger_account_balances WHERE user_id IS NULL AND kind = 'fees' AND coin_id = $1`, [BTC]))?.balance ?? '0',
    );
    const channel = await openTrade(t, buyer, offer, '970', 'SEPA'); // 0.01 BTC
    events.length = 0;
    expect(await act(t, buyer, 'mark_paid', channel)).toEqual(done('Payment marked as sent. The seller will release the coin once it arrives.'));
    expect(await tradeFacts(t, channel)).toEqual({ status: 'pending', buyer_paid: true, dispute_raised: false });
    expect(await act(t, seller, 'release_coin', channel)).toEqual(done('Coin released. The trade is completed.'));
    expect(await tradeFacts(t, channel)).toEqual({ status: 'completed', buyer_paid: true, dispute_raised: false });

    expect(dec(await balance(t.app.db, buyer.id, BTC, 'available')).eq('0.0099')).toBe(true);
    expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).eq(sellerBefore.minus('0.01'))).toBe(true);
    const fees = await t.app.db.one<{ balance: string }>(`SELECT balance FROM ledger_account_balances WHERE user_id IS NULL AND kind = 'fees' AND coin_id = $1`, [BTC]);
    expect(dec(fees.balance).minus(feesBefore).eq('0.0001')).toBe(true);
    const postingsOf = (action: string) =>
      t.app.db.query<{ key: string; amount: string; slot: number }>(
        `SELECT a.key, p.amount, p.slot FROM ledger_postings p JOIN ledger_entries e ON e.id = p.entry_id JOIN ledger_accounts a ON a.id = p.account_id
         WHERE e.reference = 'trade:' || (SELECT id FROM trades WHERE channel = $1) || ':' || $2 ORDER BY p.id`,
        [channel, action],
      );
    // The escrow leaves the slot the open put it in, and the fee lands in the fee account's slot of that number.
    const { escrow_slot: slot } = await t.app.db.one<{ escrow_slot: number }>('SELECT escrow_slot FROM trades WHERE channel = $1', [channel]);
    expect((await postingsOf('open')).map((p) => [p.key, dec(p.amount).toFixed(), p.slot])).toEqual([
      [`${seller.id}:${BTC}:available`, '-0.01', 0],
      [`${seller.id}:${BTC}:escrow`, '0.01', slot],
    ]);
    expect((await postingsOf('release')).map((p) => [p.key, dec(p.amount).toFixed(), p.slot])).toEqual([
      [`${seller.id}:${BTC}:escrow`, '-0.01', slot],
      [`${buyer.id}:${BTC}:available`, '0.0099', 0],
      [`platform:${BTC}:fees`, '0.0001', slot],
    ]);

    const messages = await messagesOf(channel);
    expect(messages.slice(1)).toEqual([
      `${buyer.username} marked the payment as sent. ${seller.username}, release the coin once it has arrived.`,
      `${seller.username} released 0.00990000 BTC to ${buyer.username}. Trade completed.`,
    ]);
    expect(tradeEvents(events).map((e) => [e.channel, e.event])).toEqual([
      [`private-${channel}`, 'payment_marked'],
      [`private-${channel}`, 'coin_released'],
    ]);
    expect(tradeEvents(events)[1]?.data).toMatchObject({
      channel,
      status: 'completed',
      buyer_paid: true,
      dispute_raised: false,
      message: { sender: null, recipient: 'all', text: messages[2], channel },
    });
  });

  it('cancel, by either side before payment: escrow back to the seller', async () => {
    for (const who of [buyer, seller]) {
      const before = dec(await balance(t.app.db, seller.id, BTC, 'available'));
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).eq(before.minus('0.001'))).toBe(true);
      events.length = 0;
      expect(await act(t, who, 'cancel', channel)).toEqual(done('Trade cancelled. The coin is back with the seller.'));
      expect(await tradeFacts(t, channel)).toEqual({ status: 'cancelled', buyer_paid: false, dispute_raised: false });
      expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).eq(before)).toBe(true);
      expect((await messagesOf(channel)).at(-1)).toBe(`${who.username} cancelled the trade. 0.00100000 BTC went back to ${seller.username}.`);
      expect(tradeEvents(events).map((e) => e.event)).toEqual(['trade_cancelled']);
      expect(await t.app.db.maybe(`SELECT 1 FROM ledger_entries WHERE reference = 'trade:' || (SELECT id FROM trades WHERE channel = $1) || ':cancel'`, [channel])).toBeDefined();
    }
  });

  it('raise_dispute, by either side after payment: the trade freezes with the reason stored as written', async () => {
    for (const who of [buyer, seller]) {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      await act(t, buyer, 'mark_paid', channel);
      const reason = '<b>No payment</b> arrived & the "reference" was wrong';
      events.length = 0;
      expect(await act(t, who, 'raise_dispute', channel, reason)).toEqual(done('Dispute raised. The trade is frozen until a moderator settles it.'));
      expect(await tradeFacts(t, channel)).toEqual({ status: 'pending', buyer_paid: true, dispute_raised: true });
      const stored = await t.app.db.one<{ dispute_reason: string; disputed_by: string; disputed_at: Date }>(
        'SELECT dispute_reason, disputed_by, disputed_at FROM trades WHERE channel = $1',
        [channel],
      );
      // The dispute's time is the action's, written in its own statement: the desk's order and the wait shown.
      expect(stored).toEqual({ dispute_reason: reason, disputed_by: who.id, disputed_at: t.clock.now() });
      expect((await messagesOf(channel)).at(-1)).toBe(`${who.username} raised a dispute. The trade is frozen until a moderator settles it. Reason: ${reason}`);
      // The trade's channel, and the dispute desk's: moderators learn of it live, by its channel only.
      expect(tradeEvents(events).map((e) => [e.channel, e.event, e.channel === 'private-moderation' ? e.data : undefined])).toEqual([
        [`private-${channel}`, 'dispute_raised', undefined],
        ['private-moderation', 'dispute_raised', { channel }],
      ]);
      // Frozen: nothing moves until a moderator settles it.
      expect(await act(t, seller, 'release_coin', channel)).toEqual(refused(409, 'This trade is frozen by a dispute until a moderator settles it.'));
      expect(await act(t, buyer, 'cancel', channel)).toEqual(refused(409, 'This trade is frozen by a dispute until a moderator settles it.'));
      expect(await act(t, seller, 'raise_dispute', channel, 'again')).toEqual(refused(409, 'This trade is frozen by a dispute until a moderator settles it.'));
    }
  });

  it("mark_paid with the payer's account: stored trimmed in the same statement, in the system message and the seller's notification", async () => {
    // A buyer of its own: the trades of this test stay pending, and the suite's buyer has few places.
    const buyer = await trader(t);
    const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
    const payer = '  J. Smith, Revolut <b>  ';
    expect(await tradeCall(t, buyer, { type: 'mark_paid', channel, payer_account: payer })).toEqual(
      done('Payment marked as sent. The seller will release the coin once it arrives.'),
    );
    const stored = await t.app.db.one<{ payer_account: string; paid_at: Date }>('SELECT payer_account, paid_at FROM trades WHERE channel = $1', [channel]);
    expect(stored).toEqual({ payer_account: 'J. Smith, Revolut <b>', paid_at: t.clock.now() });
    expect((await messagesOf(channel)).at(-1)).toBe(
      `${buyer.username} marked the payment as sent from the account "J. Smith, Revolut <b>". ${seller.username}, release the coin once it has arrived, and only if it came from that account.`,
    );
    const told = await t.app.db.one<{ body: string }>(
      `SELECT body FROM notifications WHERE user_id = $1 AND kind = 'payment_marked' ORDER BY id DESC LIMIT 1`,
      [seller.id],
    );
    expect(told.body).toBe(
      `${buyer.username} says they paid 97.00 EUR from the account "J. Smith, Revolut <b>". Check that it has arrived from that account, then release 0.00100000 BTC.`,
    );
    const conversation = (await conversationsOf(t, seller)).body.info as Conversation[];
    expect(conversation.find((c) => c.channel === channel)?.payer_account).toBe('J. Smith, Revolut <b>');
  });

  it('mark_paid with an empty or blank payer account states none; one over 120 characters is refused and changes nothing', async () => {
    const buyer = await trader(t);
    for (const payer of ['', '   ']) {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      expect((await tradeCall(t, buyer, { type: 'mark_paid', channel, payer_account: payer })).status).toBe(200);
      expect((await t.app.db.one('SELECT payer_account FROM trades WHERE channel = $1', [channel])).payer_account).toBeNull();
      expect((await messagesOf(channel)).at(-1)).toBe(`${buyer.username} marked the payment as sent. ${seller.username}, release the coin once it has arrived.`);
    }
    const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
    expect(await tradeCall(t, buyer, { type: 'mark_paid', channel, payer_account: 'x'.repeat(121) })).toEqual(
      refused(400, 'payer_account: The paying account can be at most 120 characters'),
    );
    expect(await tradeCall(t, buyer, { type: 'mark_paid', channel, payer_account: 7 })).toEqual(refused(400, 'payer_account must be text'));
    expect(await tradeFacts(t, channel)).toEqual({ status: 'pending', buyer_paid: false, dispute_raised: false });
    // Exactly 120 after trimming is fine.
    expect((await tradeCall(t, buyer, { type: 'mark_paid', channel, payer_account: ` ${'y'.repeat(120)} ` })).status).toBe(200);
    expect((await t.app.db.one('SELECT payer_account FROM trades WHERE channel = $1', [channel])).payer_account).toBe('y'.repeat(120));
  });

  it('refuses every action the lifecycle chart does not allow, with one sentence each', async () => {
    const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
    expect(await act(t, seller, 'mark_paid', channel)).toEqual(refused(403, 'Only the buyer can mark the payment.'));
    expect(await act(t, seller, 'release_coin', channel)).toEqual(refused(409, 'The buyer has not marked the payment yet.'));
    expect(await act(t, buyer, 'release_coin', channel)).toEqual(refused(409, 'The buyer has not marked the payment yet.'));
    expect(await act(t, buyer, 'raise_dispute', channel, 'why')).toEqual(refused(409, 'A dispute can only be raised after the payment has been marked.'));
    await act(t, buyer, 'mark_paid', channel);
    expect(await act(t, buyer, 'mark_paid', channel)).toEqual(refused(409, 'Payment has already been marked.'));
    expect(await act(t, buyer, 'release_coin', channel)).toEqual(refused(403, 'Only the seller can release the coin.'));
    for (const who of [buyer, seller]) {
      expect(await act(t, who, 'cancel', channel)).toEqual(
        refused(409, 'Payment has already been marked, so the trade can no longer be cancelled. Raise a dispute instead.'),
      );
    }
    await act(t, seller, 'release_coin', channel);
    for (const [who, type] of [[buyer, 'mark_paid'], [seller, 'release_coin'], [buyer, 'cancel'], [seller, 'raise_dispute']] as const) {
      expect(await act(t, who, type, channel, type === 'raise_dispute' ? 'late' : undefined), type).toEqual(refused(409, 'This trade is no longer pending.'));
    }
    const cancelled = await openTrade(t, buyer, offer, '97', 'SEPA');
    await act(t, seller, 'cancel', cancelled);
    expect(await act(t, buyer, 'mark_paid', cancelled)).toEqual(refused(409, 'This trade is no longer pending.'));
    expect(await act(t, buyer, 'cancel', cancelled)).toEqual(refused(409, 'This trade is no longer pending.'));
  });

  it("answers 404 for a channel that does not exist and for someone else's trade alike, and changes nothing", async () => {
    const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
    const notFound = refused(404, 'This trade does not exist.');
    for (const type of ['mark_paid', 'cancel', 'release_coin', 'raise_dispute']) {
      expect(await act(t, stranger, type, channel, type === 'raise_dispute' ? 'nosy' : undefined)).toEqual(notFound);
    }
    expect(await act(t, buyer, 'cancel', 'AAAAAAAAAAAAAAAAAAAAAA')).toEqual(notFound);
    expect(await act(t, buyer, 'cancel', "'; DROP TABLE trades; --")).toEqual(notFound);
    expect(await act(t, buyer, 'cancel', `${channel}\u0000`)).toEqual(refused(400, 'channel contains a character that is not allowed (U+0000).'));
    expect(await tradeFacts(t, channel)).toEqual({ status: 'pending', buyer_paid: false, dispute_raised: false });
  });

  it("counts a trade once it has ended: a release adds completed and concluded for both parties, in one row per party on the escrow's slot; a cancel, a payment marked and a dispute nothing", async () => {
    const buyer = await trader(t);
    const seller = await trader(t, { BTC: '1' });
    const offer = await sellOffer(t, seller);
    const cancelled = await openTrade(t, buyer, offer, '97', 'SEPA');
    await act(t, buyer, 'cancel', cancelled);
    expect([await tradeCountsOf(t, buyer), await tradeCountsOf(t, seller)]).toEqual([{ completed: 0, concluded: 0 }, { completed: 0, concluded: 0 }]);
    const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
    await act(t, buyer, 'mark_paid', channel);
    // A payment claimed has not ended the trade: no counter row at all yet.
    expect(await t.app.db.query('SELECT user_id FROM trader_trade_counts WHERE user_id IN ($1, $2)', [buyer.id, seller.id])).toEqual([]);
    await act(t, seller, 'release_coin', channel);
    const { escrow_slot: slot } = await t.app.db.one<{ escrow_slot: number }>('SELECT escrow_slot FROM trades WHERE channel = $1', [channel]);
    expect(
      await t.app.db.query('SELECT user_id, slot, completed, concluded FROM trader_trade_counts WHERE user_id IN ($1, $2) ORDER BY user_id', [buyer.id, seller.id]),
    ).toEqual([
      { user_id: buyer.id, slot, completed: 1, concluded: 1 },
      { user_id: seller.id, slot, completed: 1, concluded: 1 },
    ]);
    const disputed = await openTrade(t, buyer, offer, '97', 'SEPA');
    await act(t, buyer, 'mark_paid', disputed);
    await act(t, seller, 'raise_dispute', disputed, 'not arrived');
    expect([await tradeCountsOf(t, buyer), await tradeCountsOf(t, seller)]).toEqual([{ completed: 1, concluded: 1 }, { completed: 1, concluded: 1 }]);
  });

  it('refuses a dispute reason PostgreSQL cannot store, as a 400, and changes nothing', async () => {
    const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
    await act(t, buyer, 'mark_paid', channel);
    expect(await act(t, buyer, 'raise_dispute', channel, 'nul\u0000byte')).toEqual(refused(400, 'reason contains a character that is not allowed (U+0000).'));
    expect(await tradeFacts(t, channel)).toEqual({ status: 'pending', buyer_paid: true, dispute_raised: false });
  });
});

describe.each(dbTargets)('the payment window on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  let offer: number;
  beforeAll(async () => {
    // One buyer holds more than a batch of unpaid trades at once here, far over the default MAX_OPEN_TRADES.
    t = await createTestApp(target, { env: { MAX_OPEN_TRADES: '1000' } });
    seller = await trader(t, { BTC: '1' });
    buyer = await trader(t);
    offer = await sellOffer(t, seller, { max_open_trades: 20 });
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  it('cancels an unpaid trade once 30 minutes have passed, escrow back, both sides told; paid and young trades stay', async () => {
    const events: RealtimeEvent[] = [];
    const stop = t.app.realtime.subscribe((event) => events.push(event));
    const before = dec(await balance(t.app.db, seller.id, BTC, 'available'));
    const unpaid = await openTrade(t, buyer, offer, '97', 'SEPA');
    const paid = await openTrade(t, buyer, offer, '97', 'SEPA');
    await act(t, buyer, 'mark_paid', paid);
    t.clock.advance(29 * MINUTE);
    const young = await openTrade(t, buyer, offer, '97', 'SEPA');
    expect(await t.app.trades.sweep()).toBe(0);
    t.clock.advance(MINUTE);
    events.length = 0;
    expect(await t.app.trades.sweep()).toBe(1);
    expect(await tradeFacts(t, unpaid)).toEqual({ status: 'cancelled', buyer_paid: false, dispute_raised: false });
    expect(await tradeFacts(t, paid)).toEqual({ status: 'pending', buyer_paid: true, dispute_raised: false });
    expect(await tradeFacts(t, young)).toEqual({ status: 'pending', buyer_paid: false, dispute_raised: false });
    // The expiry concluded a trade on the buyer who did not pay, not on the seller; the paid one, still pending, on nobody.
    expect([await tradeCountsOf(t, buyer), await tradeCountsOf(t, seller)]).toEqual([{ completed: 0, concluded: 1 }, { completed: 0, concluded: 0 }]);
    expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).eq(before.minus('0.002'))).toBe(true);
    const last = await t.app.db.one<{ text: string; cancelled_by: string | null }>(
      `SELECT m.text, tr.cancelled_by FROM chat_messages m JOIN trades tr ON tr.id = m.trade_id WHERE tr.channel = $1 ORDER BY m.id DESC LIMIT 1`,
      [unpaid],
    );
    expect(last).toEqual({
      text: `The 30-minute payment window ran out, so the trade was cancelled. 0.00100000 BTC went back to ${seller.username}.`,
      cancelled_by: null,
    });
    expect(tradeEvents(events).map((e) => [e.channel, e.event])).toEqual([[`private-${unpaid}`, 'trade_cancelled']]);
    expect(await t.app.trades.sweep()).toBe(0);
    // Too late for the buyer now, although this process, which opened it, last saw it pending (trades.ts `known`).
    expect(await act(t, buyer, 'mark_paid', unpaid)).toEqual(refused(409, 'This trade is no longer pending.'));
    stop();
  });

  it('expires more than one batch of due trades in one sweep', async () => {
    t.clock.advance(31 * MINUTE);
    await t.app.trades.sweep();
    const channels: string[] = [];
    // More unpaid trades than one offer takes at once (20 at most): a fresh offer for each 20.
    let room = offer;
    for (let i = 0; i < SWEEP_BATCH + 5; i += 1) {
      if (i % 20 === 0) room = await sellOffer(t, seller, { max_open_trades: 20 });
      channels.push(await openTrade(t, buyer, room, '97', 'SEPA'));
    }
    t.clock.advance(31 * MINUTE);
    expect(await t.app.trades.sweep()).toBe(SWEEP_BATCH + 5);
    expect(await t.app.db.query(`SELECT 1 FROM trades WHERE channel = ANY($1::text[]) AND status <> 'cancelled'`, [channels])).toEqual([]);
  });

  it('sweeps by itself every TRADE_SWEEP_SECONDS with the configured PAYMENT_WINDOW_MINUTES, and stops on close', async () => {
    const timed = await createTestApp(target, { env: { TRADE_SWEEP_SECONDS: '0.05', PAYMENT_WINDOW_MINUTES: '5' } });
    try {
      const s = await trader(timed, { BTC: '1' });
      const b = await trader(timed);
      const o = await sellOffer(timed, s);
      const channel = await openTrade(timed, b, o, '97', 'SEPA');
      timed.clock.advance(5 * MINUTE);
      const deadline = Date.now() + 10_000;
      while ((await tradeFacts(timed, channel)).status === 'pending' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await tradeFacts(timed, channel)).toEqual({ status: 'cancelled', buyer_paid: false, dispute_raised: false });
      await expectLedgerClean(timed.app.db);
    } finally {
      await timed.close();
    }
  });
});
