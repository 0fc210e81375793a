/**
 * Money under interleaving (docs/rules.md "Money", "Trades"): requests fired at once through the app,
 * whose PostgreSQL pool runs their transactions on separate connections at the same time. PGlite is one
 * connection and runs them one after another, so there the same checks prove only the sequential rules;
 * PostgreSQL is where they prove the locking, with more rounds.
 */
import { Decimal } from 'decimal.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeFacts } from '../../contracts/trade.ts';
import { withHelpers, type Db, type Queryable, type SqlParam } from '../../server/src/infra/db/db.ts';
import { openPostgres } from '../../server/src/infra/db/postgres.ts';
import { postEntry, InsufficientFunds } from '../../server/src/ledger/ledger.ts';
import { effectsOf, type TradeChange } from '../../server/src/trades/actions.ts';
import { tradesRepository } from '../../server/src/trades/trades.repository.ts';
import { MINUTE, createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { balance, expectLedgerClean } from '../support/server-money.ts';
import { act, open, openStatementAsRead, openTrade, sellOffer, trader, type Trader } from '../support/server-trades.ts';

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

const PAID: TradeFacts = { status: 'pending', buyer_paid: true, dispute_raised: false };
const COMPLETED: TradeFacts = { status: 'completed', buyer_paid: true, dispute_raised: false };
const EXPIRED: TradeFacts = { status: 'cancelled', buyer_paid: false, dispute_raised: false };

/**
 * The lock order of a trade's change (server/src/ledger/README.md "Lock order"), on PostgreSQL only: it takes
 * statements running at once on separate connections. They run straight through the repository on a pool of
 * the test's own, without the service's retry after a deadlock (infra/db/retry.ts), which would hide one.
 */
describe.each(dbTargets.filter((target) => target === 'postgres'))('the lock order of a trade change on %s', () => {
  let t: TestApp;
  let db: Db;
  const clients: pg.Client[] = [];
  beforeAll(async () => {
    t = await createTestApp('postgres');
    db = await openPostgres({ url: t.config.databaseUrl ?? '', poolSize: 4 });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
    await db.close();
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  /** A connection of its own, for a transaction the test holds open. */
  const connection = async () => {
    const client = new pg.Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    clients.push(client);
    return client;
  };
  const queryableOn = (client: pg.Client): Queryable =>
    withHelpers(
      (async (sql: string, params: readonly SqlParam[] = []) => (await client.query(sql, [...params])).rows) as Queryable['query'],
      async (sql: string) => {
        await client.query(sql);
      },
    );

  /** A 0.001 BTC trade of `seller`'s offer to `buyer` on escrow slot 0, opened by the service's statement; answers its id. */
  async function openOnSlotZero(offer: number, seller: Trader, buyer: Trader): Promise<string> {
    const opened = await (await openStatementAsRead(t, offer, seller, buyer))();
    if (!opened) throw new Error('the trade should have opened');
    return opened.id;
  }

  /** `change` as the service applies it, made ready: its effects (trades/actions.ts), then the repository's one statement on `q`. */
  async function prepare(tradeId: string, change: TradeChange, to: TradeFacts, actorId: string | null) {
    const { channel } = await t.app.db.one<{ channel: string }>('SELECT channel FROM trades WHERE id = $1', [tradeId]);
    const trade = await tradesRepository(t.app.db).byChannel(channel);
    if (!trade) throw new Error(`no trade ${tradeId}`);
    const context = { actor: 'a trader', actorId, reason: '', payerAccount: '', resolution: '', paymentWindowMinutes: 30, at: t.clock.now() };
    const effects = effectsOf(trade, change, to, context);
    return (q: Queryable) => tradesRepository(q).transition(tradeId, effects);
  }
  const apply = async (q: Queryable, tradeId: string, change: TradeChange, to: TradeFacts, actorId: string | null) =>
    (await prepare(tradeId, change, to, actorId))(q);

  /** Until `count` statements of this database wait on a lock (on the holder's, or queued behind one that does). */
  async function lockWaiters(prober: pg.Client, count: number, what: string): Promise<void> {
    for (let tries = 0; ; tries += 1) {
      const waiting = (await prober.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rowCount;
      if (waiting === count) return;
      if (tries > 250) throw new Error(`${waiting} statements wait on ${what}, not ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('a release locks the trade, its conversation, the counters in user id order, then the balance slots in (account id, slot) order: held at each row, it holds exactly the rows before', async () => {
    const seller = await trader(t, { BTC: '1' });
    const buyer = await trader(t, { BTC: '1' });
    const offer = await sellOffer(t, seller);
    // A first trade on slot 0 writes the rows the second one's release locks and that did not exist: the counters, the fee slot.
    const first = await openOnSlotZero(offer, seller, buyer);
    expect(await apply(db, first, 'mark_paid', PAID, buyer.id)).toBeDefined();
    expect(await apply(db, first, 'release_coin', COMPLETED, seller.id)).toBeDefined();
    const tradeId = await openOnSlotZero(offer, seller, buyer);
    expect(await apply(db, tradeId, 'mark_paid', PAID, buyer.id)).toBeDefined();

    const [low, high] = [buyer, seller].sort((x, y) => Number(x.id) - Number(y.id)) as [Trader, Trader];
    const slots = await t.app.db.query<{ account_id: string; key: string }>(
      `SELECT b.account_id, a.key FROM ledger_balances b JOIN ledger_accounts a ON a.id = b.account_id
       WHERE b.slot = 0 AND a.key = ANY($1::text[]) ORDER BY b.account_id`,
      [[`${seller.id}:${BTC}:escrow`, `${buyer.id}:${BTC}:available`, `platform:${BTC}:fees`]],
    );
    expect(slots).toHaveLength(3);
    // The declared order, each row as a query that finds it.
    const order: Array<{ row: string; sql: string; params: SqlParam[] }> = [
      { row: 'the trade', sql: 'SELECT 1 AS found FROM trades WHERE id = $1', params: [tradeId] },
      { row: 'its conversation', sql: 'SELECT 1 AS found FROM conversations WHERE trade_id = $1', params: [tradeId] },
      ...[low, high].map((party) => ({
        row: `the counter of the ${party === buyer ? 'buyer' : 'seller'}`,
        sql: 'SELECT 1 AS found FROM trader_trade_counts WHERE user_id = $1 AND slot = 0',
        params: [party.id],
      })),
      ...slots.map((slot) => ({ row: `balance ${slot.key} slot 0`, sql: 'SELECT 1 AS found FROM ledger_balances WHERE account_id = $1 AND slot = 0', params: [slot.account_id] })),
    ];

    const [holder, runner, prober] = [await connection(), await connection(), await connection()];
    const release = await prepare(tradeId, 'release_coin', COMPLETED, seller.id);
    for (const [position, held] of order.entries()) {
      await holder.query('BEGIN');
      expect((await holder.query(`${held.sql} FOR NO KEY UPDATE`, held.params)).rowCount, held.row).toBe(1);
      // The release in a transaction rolled back after each row, so every round starts from the same paid trade.
      await runner.query('BEGIN');
      const released = release(queryableOn(runner));
      try {
        await lockWaiters(prober, 1, held.row);
        // Every other row: taken (by the release) or free, as a third connection that does not wait finds it.
        const taken: string[] = [];
        for (const other of order) {
          if (other === held) continue;
          if ((await prober.query(`${other.sql} FOR NO KEY UPDATE SKIP LOCKED`, other.params)).rowCount === 0) taken.push(other.row);
        }
        expect(taken, `the release waiting on ${held.row}`).toEqual(order.slice(0, position).map((row) => row.row));
      } finally {
        await holder.query('ROLLBACK');
        const applied = await released;
        await runner.query('ROLLBACK');
        expect(applied, `the release once ${held.row} was let go`).toBeDefined();
      }
    }
    expect(await release(db)).toBeDefined();
  });

  const rounds = 40;
  it(`two trades with their parties swapped, on one slot, changed at the same instant ${rounds} times (release and release, release and expiry): every change applies, none deadlocks`, async () => {
    const a = await trader(t, { BTC: '1' });
    const b = await trader(t, { BTC: '1' });
    const offerOfA = await sellOffer(t, a);
    const offerOfB = await sellOffer(t, b);
    // The starting gate below is a's counter on slot 0: written here (adding nothing) so that it is there to hold.
    await t.app.db.query('INSERT INTO trader_trade_counts (user_id, slot) VALUES ($1, 0), ($2, 0) ON CONFLICT DO NOTHING', [a.id, b.id]);
    const [gate, prober] = [await connection(), await connection()];
    for (let round = 0; round < rounds; round += 1) {
      // a sells to b, and b to a: each release locks both traders' counters, its seller's escrow slot 0, its
      // buyer's available and the fee slot 0; an expiry (of b's trade) a's counter and b's escrow slot 0 and available.
      const sold = await openOnSlotZero(offerOfA, a, b);
      const bought = await openOnSlotZero(offerOfB, b, a);
      expect(await apply(db, sold, 'mark_paid', PAID, b.id)).toBeDefined();
      const expiry = round % 2 === 1;
      if (!expiry) expect(await apply(db, bought, 'mark_paid', PAID, a.id)).toBeDefined();
      const changes = [
        await prepare(sold, 'release_coin', COMPLETED, a.id),
        expiry ? await prepare(bought, 'expire', EXPIRED, null) : await prepare(bought, 'release_coin', COMPLETED, b.id),
      ];
      // A starting gate: a row both changes lock, held here until both wait on it (each with whatever it took
      // before it), then let go, so that they race from the same instant for the rest. One that took a row
      // out of the order would hold it while the other, let through first, waits for it: a deadlock.
      await gate.query('BEGIN');
      await gate.query('SELECT 1 FROM trader_trade_counts WHERE user_id = $1 AND slot = 0 FOR NO KEY UPDATE', [a.id]);
      const outcomes = Promise.allSettled(changes.map((change) => change(db)));
      try {
        await lockWaiters(prober, 2, "a's counter");
      } finally {
        await gate.query('ROLLBACK');
      }
      const what = (await outcomes).map((outcome) =>
        outcome.status === 'fulfilled' ? (outcome.value ? 'applied' : 'lost') : String((outcome.reason as { code?: string }).code ?? outcome.reason),
      );
      expect(what, `round ${round}`).toEqual(['applied', 'applied']);
    }
    // Every release counted both traders, every expiry its buyer (a), on slot 0.
    const releases = rounds + rounds / 2;
    expect(await t.app.db.query('SELECT user_id, completed, concluded FROM trader_trade_counts WHERE user_id IN ($1, $2) ORDER BY user_id', [a.id, b.id])).toEqual(
      [
        { user_id: a.id, completed: releases, concluded: releases + rounds / 2 },
        { user_id: b.id, completed: releases, concluded: releases },
      ].sort((x, y) => Number(x.user_id) - Number(y.user_id)),
    );
  });
});
