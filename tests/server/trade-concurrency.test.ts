/**
 * Money under interleaving (docs/rules.md "Money", "Trades"): requests fired at once through the app,
 * whose PostgreSQL pool runs their transactions on separate connections at the same time. PGlite is one
 * connection and runs them one after another, so there the same checks prove only the sequential rules;
 * PostgreSQL is where they prove the locking, with more rounds.
 */
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEntry, InsufficientFunds } from '../../server/src/ledger/ledger.ts';
import { MINUTE, createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { balance, expectLedgerClean } from '../support/server-money.ts';
import { act, open, openTrade, sellOffer, trader, type Trader } from '../support/server-trades.ts';

const BTC = 1;
const dec = (value: Decimal.Value) => new Decimal(value);
/** 97 EUR at 1 EUR per USD, BTC at 97,000 USD: 0.001 BTC of escrow per trade. */
const TRADE_EUR = '97';
const ESCROW = dec('0.001');

describe.each(dbTargets)('trades under concurrency on %s', (target) => {
  const rounds = target === 'postgres' ? 100 : 20;
  let t: TestApp;
  beforeAll(async () => {
    // The races leave a buyer's paid or disputed trades pending round after round, far over the default MAX_OPEN_TRADES.
    t = await createTestApp(target, { env: { MAX_OPEN_TRADES: '1000' } });
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  const statusOf = (channel: string) =>
    t.app.db.one<{ id: string; status: string; buyer_paid: boolean; dispute_raised: boolean }>(
      'SELECT id, status, buyer_paid, dispute_raised FROM trades WHERE channel = $1',
      [channel],
    );
  const entryExists = async (reference: string) =>
    (await t.app.db.maybe('SELECT 1 AS found FROM ledger_entries WHERE reference = $1', [reference])) !== undefined;
  /** Earlier tests leave unpaid trades behind; expire them first, so a sweep's count is this test's. */
  const sweepLeftovers = async () => {
    t.clock.advance(31 * MINUTE);
    await t.app.trades.sweep();
  };
  const noNegativeBalance = async () =>
    expect(await t.app.db.query("SELECT account_id, slot, balance FROM ledger_balances WHERE kind <> 'deposits' AND balance < 0")).toEqual([]);

  it('50 opens at once against a seller whose balance covers exactly 10: 10 open, 40 are refused, nothing goes negative', async () => {
    const seller = await trader(t, { BTC: ESCROW.times(10).toFixed() });
    // Room on the offer for every open (its own cap, docs/rules.md "Offers"): the seller's balance is what stops them.
    const offer = await sellOffer(t, seller, { max_open_trades: 20 });
    const buyers: Trader[] = [];
    for (let i = 0; i < 10; i += 1) buyers.push(await trader(t));
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => open(t, buyers[i % 10] as Trader, offer, TRADE_EUR, 'SEPA')));
    const opened = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(opened).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const answer of refused) expect(answer).toEqual({ status: 409, body: { success: false, info: "The seller's balance is too low for this trade." } });
    expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).isZero()).toBe(true);
    expect(dec(await balance(t.app.db, seller.id, BTC, 'escrow')).eq(ESCROW.times(10))).toBe(true);
    expect((await t.app.db.query('SELECT id FROM trades WHERE offer_id = $1', [offer])).length).toBe(10);
    expect((await t.app.db.query("SELECT id FROM ledger_entries WHERE reference LIKE 'trade:%:open' AND reference IN (SELECT 'trade:' || id || ':open' FROM trades WHERE offer_id = $1)", [offer])).length).toBe(10);
    await noNegativeBalance();
  });

  it('the same 50 against the ledger alone: postEntry under row locks lets exactly 10 of 50 debits through', async () => {
    const owner = await trader(t, { BTC: ESCROW.times(10).toFixed() });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        t.app.db.transaction((tx) =>
          postEntry(tx, {
            reference: `trade:concurrent-${owner.id}-${i}:open`,
            at: new Date(),
            postings: [
              { account: { kind: 'available', userId: owner.id, coinId: BTC }, amount: ESCROW.negated().toFixed() },
              { account: { kind: 'escrow', userId: owner.id, coinId: BTC }, amount: ESCROW.toFixed() },
            ],
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(InsufficientFunds);
    expect(dec(await balance(t.app.db, owner.id, BTC, 'available')).isZero()).toBe(true);
    await noNegativeBalance();
  });

  it(`mark_paid racing cancel, ${rounds} rounds: exactly one applies each round and the ledger agrees`, async () => {
    const seller = await trader(t, { BTC: '10' });
    const buyer = await trader(t);
    const tally = { paid: 0, cancelled: 0 };
    let offer = 0;
    for (let round = 0; round < rounds; round += 1) {
      // The paid trades stay pending, more than one offer takes at once (20 at most, docs/rules.md "Offers").
      if (round % 20 === 0) offer = await sellOffer(t, seller, { max_open_trades: 20 });
      const channel = await openTrade(t, buyer, offer, TRADE_EUR, 'SEPA');
      // Alternate who fires first, so neither side always gets the head start of being sent first.
      const [paid, cancelled] =
        round % 2 === 0
          ? await Promise.all([act(t, buyer, 'mark_paid', channel), act(t, seller, 'cancel', channel)])
          : await Promise.all([act(t, seller, 'cancel', channel), act(t, buyer, 'mark_paid', channel)]).then(([c, p]) => [p, c] as const);
      expect([paid.status, cancelled.status].sort(), `round ${round}`).toEqual([200, 409]);
      const trade = await statusOf(channel);
      if (paid.status === 200) {
        tally.paid += 1;
        expect(trade).toMatchObject({ status: 'pending', buyer_paid: true });
        expect(cancelled.body.info).toBe('Payment has already been marked, so the trade can no longer be cancelled. Raise a dispute instead.');
        expect(await entryExists(`trade:${trade.id}:cancel`)).toBe(false);
      } else {
        tally.cancelled += 1;
        expect(trade).toMatchObject({ status: 'cancelled', buyer_paid: false });
        expect(paid.body.info).toBe('This trade is no longer pending.');
        expect(await entryExists(`trade:${trade.id}:cancel`)).toBe(true);
      }
    }
    expect(tally.paid + tally.cancelled).toBe(rounds);
    // The seller's escrow holds exactly the trades still pending (the paid ones).
    expect(dec(await balance(t.app.db, seller.id, BTC, 'escrow')).eq(ESCROW.times(tally.paid))).toBe(true);
    expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).eq(dec(10).minus(ESCROW.times(tally.paid)))).toBe(true);
    await noNegativeBalance();
  });

  it(`release_coin racing raise_dispute, ${rounds} rounds: exactly one applies each round and the ledger agrees`, async () => {
    const seller = await trader(t, { BTC: '10' });
    const buyer = await trader(t);
    const tally = { released: 0, disputed: 0 };
    let offer = 0;
    for (let round = 0; round < rounds; round += 1) {
      // The disputed trades stay pending, more than one offer takes at once (20 at most).
      if (round % 20 === 0) offer = await sellOffer(t, seller, { max_open_trades: 20 });
      const channel = await openTrade(t, buyer, offer, TRADE_EUR, 'SEPA');
      expect((await act(t, buyer, 'mark_paid', channel)).status).toBe(200);
      const [released, disputed] =
        round % 2 === 0
          ? await Promise.all([act(t, seller, 'release_coin', channel), act(t, buyer, 'raise_dispute', channel, 'Coins not received')])
          : await Promise.all([act(t, buyer, 'raise_dispute', channel, 'Coins not received'), act(t, seller, 'release_coin', channel)]).then(([d, r]) => [r, d] as const);
      expect([released.status, disputed.status].sort(), `round ${round}`).toEqual([200, 409]);
      const trade = await statusOf(channel);
      if (released.status === 200) {
        tally.released += 1;
        expect(trade).toMatchObject({ status: 'completed', dispute_raised: false });
        expect(disputed.body.info).toBe('This trade is no longer pending.');
        expect(await entryExists(`trade:${trade.id}:release`)).toBe(true);
      } else {
        tally.disputed += 1;
        expect(trade).toMatchObject({ status: 'pending', dispute_raised: true });
        expect(released.body.info).toBe('This trade is frozen by a dispute until a moderator settles it.');
        expect(await entryExists(`trade:${trade.id}:release`)).toBe(false);
      }
    }
    // Released trades paid the buyer 0.00099 each; disputed ones still sit in the seller's escrow.
    expect(dec(await balance(t.app.db, buyer.id, BTC, 'available')).eq(dec('0.00099').times(tally.released))).toBe(true);
    expect(dec(await balance(t.app.db, seller.id, BTC, 'escrow')).eq(ESCROW.times(tally.disputed))).toBe(true);
    await noNegativeBalance();
  });

  it('the payment window racing mark_paid: each trade ends either cancelled or paid, never both, never neither', async () => {
    const seller = await trader(t, { BTC: '10' });
    const buyer = await trader(t);
    await sweepLeftovers();
    const perBatch = 10;
    let paid = 0;
    let expired = 0;
    for (let batch = 0; batch < rounds / perBatch; batch += 1) {
      const channels: string[] = [];
      // An offer per batch: the paid trades stay pending, more than one offer takes at once.
      const offer = await sellOffer(t, seller, { max_open_trades: perBatch });
      for (let i = 0; i < perBatch; i += 1) channels.push(await openTrade(t, buyer, offer, TRADE_EUR, 'SEPA'));
      t.clock.advance(31 * MINUTE);
      const [swept, ...marks] = await Promise.all([t.app.trades.sweep(), ...channels.map((channel) => act(t, buyer, 'mark_paid', channel))]);
      expect(swept + marks.filter((m) => m.status === 200).length).toBe(perBatch);
      for (const [i, channel] of channels.entries()) {
        const trade = await statusOf(channel);
        const mark = marks[i];
        if (mark?.status === 200) {
          paid += 1;
          expect(trade).toMatchObject({ status: 'pending', buyer_paid: true });
          expect(await entryExists(`trade:${trade.id}:cancel`)).toBe(false);
        } else {
          expired += 1;
          expect(mark).toEqual({ status: 409, body: { success: false, info: 'This trade is no longer pending.' } });
          expect(trade).toMatchObject({ status: 'cancelled', buyer_paid: false });
          expect(await entryExists(`trade:${trade.id}:cancel`)).toBe(true);
        }
      }
      // Whatever the sweep skipped while a mark_paid held the row is paid now: nothing is left to expire.
      expect(await t.app.trades.sweep()).toBe(0);
    }
    expect(paid + expired).toBe(rounds);
    expect(dec(await balance(t.app.db, seller.id, BTC, 'escrow')).eq(ESCROW.times(paid))).toBe(true);
    await noNegativeBalance();
  });

  it('two sweeps at once (two server processes) cancel each expired trade exactly once', async () => {
    const seller = await trader(t, { BTC: '1' });
    const buyer = await trader(t);
    const offer = await sellOffer(t, seller, { max_open_trades: 20 });
    await sweepLeftovers();
    const channels: string[] = [];
    for (let i = 0; i < 20; i += 1) channels.push(await openTrade(t, buyer, offer, TRADE_EUR, 'SEPA'));
    t.clock.advance(31 * MINUTE);
    const counts = await Promise.all([t.app.trades.sweep(), t.app.trades.sweep(), t.app.trades.sweep()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(20);
    for (const channel of channels) expect((await statusOf(channel)).status).toBe('cancelled');
    expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).eq(1)).toBe(true);
  });
});
