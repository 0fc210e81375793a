/**
 * An attacker's review of issue 13 (moderators, settlements, the payer's account, ratings, trader profiles):
 * each test is a hole found, or a door tried and found shut, named by what an attacker would try.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraderProfile } from '../../contracts/traders.ts';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { expectLedgerClean } from '../support/server-money.ts';
import { completedTrade, rate, rated } from '../support/server-reputation.ts';
import {
  act,
  disputedTrade,
  moderationCall,
  moderator,
  openTrade,
  sellOffer,
  signedInAgain,
  tradeCall,
  tradeCountsOf,
  tradeFacts,
  trader,
  tradeStateOf,
  type Trader,
} from '../support/server-trades.ts';

const refused = (status: number, info: string) => ({ status, body: { success: false, info } });
const NOT_FOUND = refused(404, 'This trade does not exist.');

/** A refusal as the product words it: a 4xx envelope with one sentence, never a stack, SQL or a 500. */
function expectRefusal(answer: { status: number; body: unknown }, label: string) {
  expect(answer.status, `${label}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, label).toBeLessThan(500);
  const body = answer.body as { success: boolean; info: unknown };
  expect(body.success, label).toBe(false);
  expect(typeof body.info, label).toBe('string');
  expect(body.info as string, label).not.toMatch(/FST_|Error|at \/|node_modules|SQL|ZodError|violates|constraint/);
}

describe.each(dbTargets)('issue 13 under attack on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  let mod: Trader;
  let offer: number;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { MAX_OPEN_TRADES: '100', CHAT_MESSAGES_PER_MINUTE: '1000' } });
    seller = await trader(t, { BTC: '5' });
    buyer = await trader(t);
    mod = await moderator(t);
    offer = await sellOffer(t, seller);
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  describe('a moderator who is a party', () => {
    it('may not write as "Moderator" into their own dispute (403, nothing stored): the counterparty would read a neutral voice', async () => {
      // A moderator who also trades: sells on an offer of their own, and the buyer disputes.
      const trading = await trader(t, { BTC: '0.1' });
      expect((await setUserRole(t.app.db, trading.username, 'moderator')).ok).toBe(true);
      // The role change ended their sessions: signed in again.
      const partyModerator = await signedInAgain(t, trading);
      const ownOffer = await sellOffer(t, partyModerator);
      const channel = await disputedTrade(t, { buyer, seller: partyModerator, offer: ownOffer });
      const before = await tradeStateOf(t, channel);
      expect(
        await moderationCall(t, partyModerator, { type: 'message', channel, text: 'We checked: the buyer never paid. Cancel and walk away.' }),
      ).toEqual(refused(403, 'You cannot moderate your own trade.'));
      expect(await tradeStateOf(t, channel)).toEqual(before);
      // Another moderator still may, and the party still writes as themselves.
      expect((await moderationCall(t, mod, { type: 'message', channel, text: 'Please upload the bank statement.' })).status).toBe(200);
      expect((await t.post(`/api/market/chat/${channel}/`, { type: 'send_message', message_type: 'text', text: 'Here it is' }, { token: partyModerator.token })).status).toBe(200);
      // Settle it, so that the ledger is clean and the seller's funds are not left in escrow.
      expect((await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'refund', resolution: 'No payment arrived' })).status).toBe(200);
    });
  });

  describe("the payer's account", () => {
    it('refuses line breaks, control and bidi-override characters and quotation marks (400) and leaves the trade unpaid: they would forge words of the system message', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const before = await tradeStateOf(t, channel);
      const forged = [
        'J. Smith, Revolut".\n\nPeerex: payment received and verified. Release the coin now.',
        'J. Smith\r\nRevolut',
        'J. Smith\tRevolut',
        'J. Smith\u0007, Revolut',
        'J. Smith\u0085Revolut',
        'J. Smith\u2028Revolut',
        'J. Smith\u2029Revolut',
        '\u202Etulove R ,htimS .J',
        'J. Smith \u2066Revolut\u2069',
        'J. Smith, Revolut". Verified by Peerex: the money arrived, release now. "',
        'J. Smith, Revolut\u201D. Verified by Peerex \u201C',
        '\u00ABJ. Smith\u00BB',
        'J. Smith\uFF02',
      ];
      for (const payer_account of forged) {
        const answer = await tradeCall(t, buyer, { type: 'mark_paid', channel, payer_account });
        expect(answer, JSON.stringify(payer_account)).toEqual(
          refused(400, 'payer_account: The paying account must be one line of plain text, without quotation marks or control characters'),
        );
      }
      expect(await tradeStateOf(t, channel)).toEqual(before);
      // Names in any script, accents, apostrophes and emoji are fine, and surrounding spaces (even a trailing line break) are trimmed.
      expect((await tradeCall(t, buyer, { type: 'mark_paid', channel, payer_account: " José O'Brien-Ğü, Revolut 💶 \n" })).status).toBe(200);
      expect((await t.app.db.one<{ payer_account: string }>('SELECT payer_account FROM trades WHERE channel = $1', [channel])).payer_account).toBe(
        "José O'Brien-Ğü, Revolut 💶",
      );
      expect((await act(t, seller, 'release_coin', channel)).status).toBe(200);
    });
  });

  describe('hostile bodies on the new calls', () => {
    const junk: unknown[] = [
      null,
      [],
      'text',
      { type: 'get', channel: 12 },
      { type: 'get', channel: 'x'.repeat(101) },
      { type: 'get', channel: '../../etc/passwd' },
      { type: 'message', channel: 'abc', text: 7 },
      { type: 'message', channel: 'abc', text: '\u200B' },
      { type: 'message', channel: 'abc', text: 'y'.repeat(9000) },
      { type: 'resolve', channel: 'abc', outcome: 'both', resolution: 'x' },
      { type: 'resolve', channel: 'abc', outcome: 'release', resolution: ' \n\t ' },
      { type: 'resolve', channel: 'abc', outcome: 'release', resolution: ['a'] },
      { type: 'resolve', channel: 'abc', outcome: 'release', resolution: 'r'.repeat(2001) },
      { type: 'resolve', channel: 'abc', outcome: 'release', resolution: 'bad\u0000byte' },
    ];

    it('market/moderation/ (as a moderator) answers each with a refusal sentence, never a 500', async () => {
      for (const body of junk) expectRefusal(await moderationCall(t, mod, body), `moderation ${JSON.stringify(body)?.slice(0, 80)}`);
    });

    it('market/trade/ rate and mark_paid, and market/traders/, answer wrong types and sizes with a refusal sentence, never a 500', async () => {
      const channel = await completedTrade(t, seller, buyer, offer);
      const tradeBodies: Array<Record<string, unknown>> = [
        { type: 'rate', channel, score: 4.5 },
        { type: 'rate', channel, score: '5' },
        { type: 'rate', channel, score: 1e400 },
        { type: 'rate', channel, score: 0 },
        { type: 'rate', channel, score: 6 },
        { type: 'rate', channel, score: 5, comment: 5 },
        { type: 'rate', channel, score: 5, comment: 'c'.repeat(501) },
        { type: 'rate', channel, score: 5, comment: 'c\u0000' },
        { type: 'rate', channel, score: -2147483649 },
        { type: 'mark_paid', channel, payer_account: null },
        { type: 'mark_paid', channel, payer_account: 'p'.repeat(121) },
        { type: 'mark_paid', channel, payer_account: { name: 'x' } },
      ];
      for (const body of tradeBodies) expectRefusal(await tradeCall(t, buyer, body), `trade ${JSON.stringify(body).slice(0, 80)}`);
      const traderBodies: unknown[] = [
        { type: 'profile' },
        { type: 'profile', username: '' },
        { type: 'profile', username: 'u'.repeat(31) },
        { type: 'profile', username: 42 },
        { type: 'profile', username: "'; DROP TABLE users; --" },
        { type: 'profile', username: '%' },
        { type: 'profile', username: 'İSTANBUL' },
        { type: 'other', username: 'x' },
      ];
      for (const body of traderBodies) expectRefusal(await t.post('/api/market/traders/', body, { token: buyer.token }), `traders ${JSON.stringify(body)}`);
      // The rating was never stored by any of the above.
      expect(await rate(t, buyer, channel, 5)).toEqual({ status: 200, body: { success: true, info: 'Thanks for your rating.' } });
    });

    it('lone surrogates, which JSON allows and UTF-8 cannot hold, are refused naming the field; U+FFFD itself is text like any other', async () => {
      const channel = await completedTrade(t, seller, buyer, offer);
      const raw = (body: string) => t.post('/api/market/trade/', undefined, { token: seller.token, raw: body });
      const ratingOf = () =>
        t.app.db.maybe<{ comment: string }>(
          'SELECT r.comment FROM trade_ratings r JOIN trades tr ON tr.id = r.trade_id WHERE tr.channel = $1 AND r.rater_id = $2',
          [channel, seller.id],
        );
      // Escaped in the JSON text, as JSON.stringify writes a lone surrogate: the server would have stored U+FFFD instead.
      expect(await raw(`{"type":"rate","channel":"${channel}","score":3,"comment":"odd \\ud800 text \\udfff"}`)).toEqual(
        refused(400, 'comment contains text that is not valid Unicode (a lone surrogate).'),
      );
      expect(await ratingOf()).toBeUndefined();
      expect((await raw(`{"type":"rate","channel":"${channel}","score":3,"comment":"odd \uFFFD text"}`)).status).toBe(200);
      expect((await ratingOf())?.comment).toBe('odd \uFFFD text');
      const unpaid = await openTrade(t, buyer, offer, '97', 'SEPA');
      const markPaid = (payer: string) => tradeCall(t, buyer, { type: 'mark_paid', channel: unpaid, payer_account: payer });
      expect(await markPaid('\udbff J. Smith')).toEqual(refused(400, 'payer_account contains text that is not valid Unicode (a lone surrogate).'));
      expect((await markPaid('J. Smith')).status).toBe(200);
      expect((await act(t, seller, 'release_coin', unpaid)).status).toBe(200);
    });
  });

  describe('settlements and money', () => {
    it('two moderators and both parties at once on one dispute: exactly one settlement, one ledger entry, the counters moved once', async () => {
      const other = await moderator(t);
      for (let round = 0; round < 5; round += 1) {
        const channel = await disputedTrade(t, { buyer, seller, offer });
        const sellerBefore = await tradeCountsOf(t, seller);
        const buyerBefore = await tradeCountsOf(t, buyer);
        const answers = await Promise.all([
          moderationCall(t, mod, { type: 'resolve', channel, outcome: 'release', resolution: 'Paid' }),
          moderationCall(t, other, { type: 'resolve', channel, outcome: 'release', resolution: 'Paid too' }),
          act(t, seller, 'release_coin', channel),
          act(t, buyer, 'cancel', channel),
          act(t, seller, 'raise_dispute', channel, 'again'),
        ]);
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
        const state = await tradeStateOf(t, channel);
        expect(state.entries.map((entry) => (entry as { reference: string }).reference.split(':')[2])).toEqual(['open', 'release']);
        expect(await tradeCountsOf(t, seller)).toEqual({ completed: sellerBefore.completed + 1, concluded: sellerBefore.concluded + 1 });
        expect(await tradeCountsOf(t, buyer)).toEqual({ completed: buyerBefore.completed + 1, concluded: buyerBefore.concluded + 1 });
      }
      await expectLedgerClean(t.app.db);
    });
  });

  describe('ratings', () => {
    it('a trade settled by refund cannot be rated; one settled by release can, once per party; the moderator who settled it cannot', async () => {
      const refunded = await disputedTrade(t, { buyer, seller, offer });
      expect((await moderationCall(t, mod, { type: 'resolve', channel: refunded, outcome: 'refund', resolution: 'Nothing arrived' })).status).toBe(200);
      for (const who of [buyer, seller]) expect(await rate(t, who, refunded, 1, 'scammer')).toEqual(refused(409, 'Only a completed trade can be rated.'));
      expect(await rate(t, mod, refunded, 1)).toEqual(NOT_FOUND);

      const released = await disputedTrade(t, { buyer, seller, offer });
      expect((await moderationCall(t, mod, { type: 'resolve', channel: released, outcome: 'release', resolution: 'Paid' })).status).toBe(200);
      expect(await tradeFacts(t, released)).toEqual({ status: 'completed', buyer_paid: true, dispute_raised: false });
      expect(await rate(t, mod, released, 5)).toEqual(NOT_FOUND);
      await rated(t, buyer, released, 2, 'Made me dispute');
      await rated(t, seller, released, 1);
      const racing = await Promise.all([rate(t, buyer, released, 5), rate(t, buyer, released, 5)]);
      expect(racing.map((answer) => answer.status)).toEqual([409, 409]);
      expect(
        (await t.app.db.one<{ n: number }>('SELECT count(*)::integer AS n FROM trade_ratings r JOIN trades tr ON tr.id = r.trade_id WHERE tr.channel = $1', [released]))
          .n,
      ).toBe(2);
    });

    it('the average on a profile is exact to two places, half away from zero (1, 2, 2 → 1.67; then 2 → 1.75)', async () => {
      const ratee = await trader(t, { BTC: '1' });
      const rateeOffer = await sellOffer(t, ratee);
      const raters = [await trader(t), await trader(t), await trader(t), await trader(t)];
      const scores = [1, 2, 2];
      for (const [index, score] of scores.entries()) await rated(t, raters[index] as Trader, await completedTrade(t, ratee, raters[index] as Trader, rateeOffer), score);
      const profile = async () => (await t.post<TraderProfile>('/api/market/traders/', { type: 'profile', username: ratee.username }, { token: buyer.token })).body.info;
      expect((await profile()).rating).toBe('1.67');
      await rated(t, raters[3] as Trader, await completedTrade(t, ratee, raters[3] as Trader, rateeOffer), 2);
      expect(await profile()).toMatchObject({ rating: '1.75', ratings_count: 4, trades_count: 4, completion_rate: '100.00' });
    });
  });

  describe("another trader's profile", () => {
    it('shows nothing private: no email, balance, paying account, dispute reason, role or resolution', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      expect((await tradeCall(t, buyer, { type: 'mark_paid', channel, payer_account: 'Secret Holder, Secret Bank' })).status).toBe(200);
      expect((await act(t, seller, 'raise_dispute', channel, 'Secret dispute reason')).status).toBe(200);
      expect((await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'refund', resolution: 'Secret resolution' })).status).toBe(200);
      const { email } = await t.app.db.one<{ email: string }>('SELECT email FROM users WHERE id = $1', [buyer.id]);
      for (const [viewer, subject] of [
        [seller, buyer],
        [buyer, seller],
        [seller, mod],
      ] as const) {
        const answer = await t.post<TraderProfile>('/api/market/traders/', { type: 'profile', username: subject.username.toUpperCase() }, { token: viewer.token });
        expect(answer.status).toBe(200);
        expect(Object.keys(answer.body.info).sort()).toEqual([
          'account_age_days', 'completion_rate', 'joined', 'offers', 'rated_by', 'rating', 'ratings', 'ratings_count', 'trades_count', 'username',
        ]);
        const text = JSON.stringify(answer.body.info);
        for (const secret of [email, 'Secret', 'moderator', 'websocket', 'balance', 'escrow', 'password', 'totp']) expect(text, secret).not.toContain(secret);
      }
    });
  });

  describe('rate limits', () => {
    it("a moderator's messages draw on the same per-account chat budget as their own trading chat (429 past it)", async () => {
      const limited = await createTestApp(target, { env: { CHAT_MESSAGES_PER_MINUTE: '3', MAX_OPEN_TRADES: '10' } });
      try {
        const limitedSeller = await trader(limited, { BTC: '1' });
        const limitedBuyer = await trader(limited);
        const limitedMod = await moderator(limited);
        const limitedOffer = await sellOffer(limited, limitedSeller);
        const channel = await disputedTrade(limited, { buyer: limitedBuyer, seller: limitedSeller, offer: limitedOffer });
        const statuses: number[] = [];
        for (let index = 0; index < 5; index += 1) {
          statuses.push((await moderationCall(limited, limitedMod, { type: 'message', channel, text: `note ${index}` })).status);
        }
        expect(statuses).toEqual([200, 200, 200, 429, 429]);
        expect((await moderationCall(limited, limitedMod, { type: 'resolve', channel, outcome: 'refund', resolution: 'Done' })).status).toBe(200);
      } finally {
        await limited.close();
      }
    });
  });
});
