/**
 * A property test over whole trading sessions: random sequences of opens, actions (by the buyer, the
 * seller or a stranger) and payment-window sweeps by several traders, run against the server and against
 * a model whose lifecycle is the rules as tests/support/tradeRules.ts writes them (docs/rules.md "Trades"),
 * not taken from the chart the server consults, so that a wrong chart fails this test too. After every step:
 * every coin's postings sum to zero, no trader's balance is negative, each trade's facts in the database are
 * the chart's, and each balance is what the model's money moves add up to.
 */
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeAction, TradeFacts } from '../../contracts/trade.ts';
import { quoteTrade } from '../../server/src/trades/quote.ts';
import { MINUTE, createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { expectLedgerClean } from '../support/server-money.ts';
import { act, open, sellOffer, trader, type Trader } from '../support/server-trades.ts';
import { TRADE_FACTS, acceptedByTheRules, byTheRules } from '../support/tradeRules.ts';

const FORWARD: TradeAction[] = ['mark_paid', 'release_coin'];
const OTHER_ACTIONS = (Object.keys(acceptedByTheRules) as TradeAction[]).filter((action) => !FORWARD.includes(action));

const COINS = { BTC: { id: 1, places: 8, price: '97000.00' }, USDT: { id: 3, places: 6, price: '1.00' } } as const;
type Ticker = keyof typeof COINS;

/** Offers by trader index: who owns it, which side, which coin. All at 1 EUR per USD, 1–1,000 EUR. */
const OFFERS: { owner: number; type: 'buy' | 'sell'; coin: Ticker }[] = [
  { owner: 0, type: 'sell', coin: 'BTC' },
  { owner: 1, type: 'buy', coin: 'BTC' },
  { owner: 2, type: 'sell', coin: 'USDT' },
  { owner: 0, type: 'buy', coin: 'USDT' },
];
/** Small balances, so that "the seller's balance is too low" happens too. */
const START = { BTC: '0.02', USDT: '1500' } as const;
/** Mostly in range (1–1,000 EUR), some not. */
const AMOUNTS = ['0.5', '20', '97', '97', '194', '194', '388', '999.99', '1000.01'];

type Step =
  | { kind: 'open'; taker: number; offer: number; amount: string }
  | { kind: 'act'; trade: number; who: 'buyer' | 'seller' | 'stranger' | 'rightful'; action: TradeAction }
  | { kind: 'wait'; minutes: number }
  | { kind: 'sweep' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('open' as const), taker: fc.nat(2), offer: fc.nat(OFFERS.length - 1), amount: fc.constantFrom(...AMOUNTS) }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('act' as const),
      // Counted back from the newest trade, mostly among the last few, so that trades live whole lives.
      trade: fc.oneof({ weight: 4, arbitrary: fc.nat(2) }, { weight: 1, arbitrary: fc.nat(40) }),
      // Mostly the party the chart lets act; sometimes the other one, or someone who is no party.
      who: fc.oneof({ weight: 6, arbitrary: fc.constant('rightful' as const) }, { weight: 3, arbitrary: fc.constantFrom('buyer' as const, 'seller' as const) }, { weight: 1, arbitrary: fc.constant('stranger' as const) }),
      // Mostly the steps that move a trade on; every other action the rules know (the oracle's) now and then.
      action: fc.oneof({ weight: 3, arbitrary: fc.constantFrom<TradeAction>(...FORWARD) }, { weight: 1, arbitrary: fc.constantFrom<TradeAction>(...OTHER_ACTIONS) }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wait' as const), minutes: fc.integer({ min: 1, max: 20 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sweep' as const) }) },
);

interface ModelTrade {
  channel: string;
  buyer: number;
  seller: number;
  coin: Ticker;
  /** Its offer, by index into OFFERS, and whether its buyer opened it (the buyer's cap counts only those). */
  offer: number;
  openedByBuyer: boolean;
  escrow: Decimal;
  buyerShare: Decimal;
  fee: Decimal;
  openedAt: number;
  facts: TradeFacts;
}

/** The default limit of pending trades per buyer (MAX_OPEN_TRADES, docs/rules.md "Configuration limits"). */
const MAX_OPEN_TRADES = 5;
/** The default cap of pending trades on one offer (max_open_trades, docs/rules.md "Offers"). */
const OFFER_MAX_OPEN_TRADES = 3;

describe.each(dbTargets)('random trading sessions against the lifecycle chart on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  it('keeps the ledger balanced, balances non-negative and every trade where the chart says, after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 100, maxLength: 100 }), async (steps) => {
        // Trades of earlier runs must not be expired by this run's sweeps.
        t.clock.advance(31 * MINUTE);
        await t.app.trades.sweep();

        const traders: Trader[] = [];
        for (let i = 0; i < 3; i += 1) traders.push(await trader(t, { ...START }));
        const stranger = await trader(t);
        const offerIds: number[] = [];
        for (const offer of OFFERS) {
          const owner = traders[offer.owner] as Trader;
          offerIds.push(await sellOffer(t, owner, { offer_type: offer.type, coin: String(COINS[offer.coin].id), max_amount: '1000' }));
        }
        const available = new Map<string, Decimal>();
        const escrow = new Map<string, Decimal>();
        for (let i = 0; i < 3; i += 1) for (const coin of Object.keys(COINS) as Ticker[]) available.set(`${i}:${coin}`, new Decimal(START[coin]));
        const add = (book: Map<string, Decimal>, key: string, amount: Decimal) => book.set(key, (book.get(key) ?? new Decimal(0)).plus(amount));
        const trades: ModelTrade[] = [];

        for (const [index, s] of steps.entries()) {
          const where = `step ${index}: ${JSON.stringify(s)}`;
          if (s.kind === 'open') {
            const offer = OFFERS[s.offer];
            if (!offer) throw new Error('no offer');
            const coin = COINS[offer.coin];
            const seller = offer.type === 'sell' ? offer.owner : s.taker;
            const buyer = offer.type === 'sell' ? s.taker : offer.owner;
            const quote = quoteTrade({ amount: s.amount, rate: '1', usdPrice: coin.price, decimalPlaces: coin.places, feePercent: '1' });
            const answer = await open(t, traders[s.taker] as Trader, offerIds[s.offer] as number, s.amount, 'SEPA');
            const amount = new Decimal(s.amount);
            if (s.taker === offer.owner) expect(answer.status, where).toBe(403);
            else if (amount.lt(1) || amount.gt(1000)) expect(answer.status, where).toBe(400);
            else if (!quote) expect(answer.status, where).toBe(400);
            else if (trades.filter((trade) => trade.offer === s.offer && trade.facts.status === 'pending').length >= OFFER_MAX_OPEN_TRADES) {
              // Each offer takes at most its max_open_trades pending trades, from any takers.
              const info = 'This offer has as many open trades as its owner takes at once. Please try again once one of them ends.';
              expect(answer, where).toEqual({ status: 409, body: { success: false, info } });
            } else if (
              buyer === s.taker &&
              trades.filter((trade) => trade.buyer === buyer && trade.openedByBuyer && trade.facts.status === 'pending').length >= MAX_OPEN_TRADES
            ) {
              // A buyer's pending trades of their own opening are capped (MAX_OPEN_TRADES); trades opened on their buy offer are not theirs.
              const info = `You already have ${MAX_OPEN_TRADES} open trades as the buyer. Complete or cancel one before you open another.`;
              expect(answer, where).toEqual({ status: 409, body: { success: false, info } });
            } else if ((available.get(`${seller}:${offer.coin}`) ?? new Decimal(0)).lt(quote.trading_amount_crypto)) {
              expect(answer, where).toEqual({ status: 409, body: { success: false, info: "The seller's balance is too low for this trade." } });
            } else {
              expect(answer.status, `${where} ${JSON.stringify(answer.body)}`).toBe(200);
              const row = await t.app.db.one<{ channel: string }>('SELECT channel FROM trades WHERE offer_id = $1 ORDER BY id DESC LIMIT 1', [offerIds[s.offer] as number]);
              trades.push({
                channel: row.channel,
                buyer,
                seller,
                coin: offer.coin,
                offer: s.offer,
                openedByBuyer: buyer === s.taker,
                escrow: new Decimal(quote.trading_amount_crypto),
                buyerShare: new Decimal(quote.amount_crypto),
                fee: new Decimal(quote.fee_crypto),
                openedAt: t.clock.now().getTime(),
                facts: TRADE_FACTS.awaitingPayment,
              });
              add(available, `${seller}:${offer.coin}`, new Decimal(quote.trading_amount_crypto).negated());
              add(escrow, `${seller}:${offer.coin}`, new Decimal(quote.trading_amount_crypto));
            }
          } else if (s.kind === 'act' && trades.length > 0) {
            const trade = trades[trades.length - 1 - (s.trade % trades.length)] as ModelTrade;
            // The rightful party: the buyer marks, the seller releases, either cancels or disputes.
            const who = s.who !== 'rightful' ? s.who : s.action === 'mark_paid' || (s.action !== 'release_coin' && s.trade % 2 === 0) ? 'buyer' : 'seller';
            const actor = who === 'stranger' ? stranger : (traders[who === 'buyer' ? trade.buyer : trade.seller] as Trader);
            const answer = await act(t, actor, s.action, trade.channel, s.action === 'raise_dispute' ? 'Random reason' : undefined);
            const next = who === 'stranger' ? null : byTheRules(trade.facts, s.action, who);
            const otherParty = who === 'buyer' ? 'seller' : 'buyer';
            if (who === 'stranger') expect(answer.status, where).toBe(404);
            else if (!next) {
              // The wrong party for an action the other one could take now: not theirs (403); otherwise the state (409).
              const wrongRole = byTheRules(trade.facts, s.action, otherParty) !== null;
              expect(answer.status, `${where} ${JSON.stringify(answer.body)}`).toBe(wrongRole ? 403 : 409);
            }
            else {
              expect(answer.status, `${where} ${JSON.stringify(answer.body)}`).toBe(200);
              if (next.status === 'cancelled') {
                add(escrow, `${trade.seller}:${trade.coin}`, trade.escrow.negated());
                add(available, `${trade.seller}:${trade.coin}`, trade.escrow);
              }
              if (next.status === 'completed') {
                add(escrow, `${trade.seller}:${trade.coin}`, trade.escrow.negated());
                add(available, `${trade.buyer}:${trade.coin}`, trade.buyerShare);
              }
              trade.facts = next;
            }
          } else if (s.kind === 'wait') {
            t.clock.advance(s.minutes * MINUTE);
          } else if (s.kind === 'sweep') {
            const cutoff = t.clock.now().getTime() - 30 * MINUTE;
            let due = 0;
            for (const trade of trades) {
              const next = byTheRules(trade.facts, 'expire');
              if (!next || trade.openedAt > cutoff) continue;
              due += 1;
              add(escrow, `${trade.seller}:${trade.coin}`, trade.escrow.negated());
              add(available, `${trade.seller}:${trade.coin}`, trade.escrow);
              trade.facts = next;
            }
            expect(await t.app.trades.sweep(), where).toBe(due);
          }

          // The invariants, after every step.
          const sums = await t.app.db.query<{ coin_id: number; total: string }>('SELECT coin_id, sum(amount)::text AS total FROM ledger_postings GROUP BY coin_id');
          for (const sum of sums) expect(new Decimal(sum.total).isZero(), `${where}: coin ${sum.coin_id} postings sum to ${sum.total}`).toBe(true);
          expect(await t.app.db.query("SELECT account_id, slot FROM ledger_balances WHERE kind <> 'deposits' AND balance < 0"), where).toEqual([]);
          const stored = await t.app.db.query<TradeFacts & { channel: string }>(
            'SELECT channel, status, buyer_paid, dispute_raised FROM trades WHERE channel = ANY($1::text[])',
            [trades.map((trade) => trade.channel)],
          );
          const byChannel = new Map(stored.map(({ channel, ...facts }) => [channel, facts]));
          for (const trade of trades) expect(byChannel.get(trade.channel), `${where}: ${trade.channel}`).toEqual(trade.facts);
          // The offer cards' trades counts (a counter kept at completion) agree with the trades themselves.
          const counts = await t.app.db.query<{ user_id: string; counted: number; completed: number }>(
            `SELECT u.id AS user_id,
                    (SELECT coalesce(sum(completed), 0)::integer FROM trader_trade_counts WHERE user_id = u.id) AS counted,
                    (SELECT count(*)::integer FROM trades WHERE status = 'completed' AND (buyer_id = u.id OR seller_id = u.id)) AS completed
             FROM users u WHERE u.id = ANY($1::bigint[])`,
            [traders.map((tr) => tr.id)],
          );
          for (const count of counts) expect(count.counted, `${where}: trader ${count.user_id}'s trades count`).toBe(count.completed);
          const balances = await t.app.db.query<{ user_id: string; coin_id: number; kind: 'available' | 'escrow'; balance: string }>(
            'SELECT user_id, coin_id, kind, balance FROM ledger_account_balances WHERE user_id = ANY($1::bigint[])',
            [traders.map((tr) => tr.id)],
          );
          for (const [i, tr] of traders.entries()) {
            for (const coin of Object.keys(COINS) as Ticker[]) {
              for (const [kind, book] of [['available', available], ['escrow', escrow]] as const) {
                const row = balances.find((b) => b.user_id === tr.id && b.coin_id === COINS[coin].id && b.kind === kind);
                const expected = book.get(`${i}:${coin}`) ?? new Decimal(0);
                expect(new Decimal(row?.balance ?? '0').eq(expected), `${where}: trader ${i} ${coin} ${kind} is ${row?.balance}, model ${expected.toFixed()}`).toBe(true);
              }
            }
          }
        }
      }),
      // Each run is a hundred requests and four hundred checks against a real database: a few runs, no
      // shrinking (a failure reports its seed and the step it failed at, which replays it).
      { numRuns: target === 'postgres' ? 3 : 4, endOnFailure: true },
    );
  }, 240_000);
});
