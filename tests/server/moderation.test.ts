import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_HISTORY_LIMIT, type ChatMessage } from '../../contracts/chat.ts';
import type { DisputeDetail, DisputeSummary } from '../../contracts/moderation.ts';
import type { Conversation } from '../../contracts/trade.ts';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import type { RealtimeEvent } from '../../server/src/infra/realtime/realtime.plugin.ts';
import { MINUTE, createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { balance, expectLedgerClean } from '../support/server-money.ts';
import {
  act,
  conversationsOf,
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

const BTC = 1;
const dec = (value: string) => new Decimal(value);
const refused = (status: number, info: string) => ({ status, body: { success: false, info } });
const done = <T>(info: T) => ({ status: 200, body: { success: true, info } });
const MODERATORS_ONLY = refused(403, 'Only moderators can use the dispute desk.');
const NOT_FOUND = refused(404, 'This trade does not exist.');
const SETTLED = refused(409, 'This trade has already been settled.');

const feesOf = async (t: TestApp) =>
  (await t.app.db.maybe<{ balance: string }>(`SELECT balance::text AS balance FROM ledger_account_balances WHERE user_id IS NULL AND kind = 'fees' AND coin_id = $1`, [BTC]))
    ?.balance ?? '0';

const postingsOf = (t: TestApp, channel: string, action: string) =>
  t.app.db
    .query<{ key: string; amount: string; slot: number }>(
      `SELECT a.key, p.amount::text AS amount, p.slot FROM ledger_postings p JOIN ledger_entries e ON e.id = p.entry_id JOIN ledger_accounts a ON a.id = p.account_id
       WHERE e.reference = 'trade:' || (SELECT id FROM trades WHERE channel = $1) || ':' || $2 ORDER BY p.id`,
      [channel, action],
    )
    .then((rows) => rows.map((p) => [p.key, dec(p.amount).toFixed(), p.slot]));

describe.each(dbTargets)('POST /api/market/moderation/ on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  let stranger: Trader;
  let mod: Trader;
  let offer: number;
  const events: RealtimeEvent[] = [];
  beforeAll(async () => {
    // Each test opens several trades of one buyer that stay pending.
    t = await createTestApp(target, { env: { MAX_OPEN_TRADES: '100' } });
    seller = await trader(t, { BTC: '1' });
    buyer = await trader(t);
    stranger = await trader(t);
    mod = await moderator(t);
    // Room for the trades these tests leave pending (an offer's own cap, docs/rules.md "Offers").
    offer = await sellOffer(t, seller, { max_open_trades: 20 });
    t.app.realtime.subscribe((event) => events.push(event));
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  describe('who may call it', () => {
    it('refuses every call by a trader (403), parties included, whatever the body, and changes nothing; without a session 401', async () => {
      const channel = await disputedTrade(t, { buyer, seller, offer });
      const before = await tradeStateOf(t, channel);
      const bodies = [
        { type: 'list' },
        { type: 'get', channel },
        { type: 'message', channel, text: 'I am the moderator' },
        { type: 'resolve', channel, outcome: 'release', resolution: 'Paid, release' },
        { type: 'resolve', channel: 'no-such-channel', outcome: 'refund', resolution: 'x' },
        { type: 'nonsense' },
        {},
      ];
      for (const body of bodies) {
        for (const who of [buyer, seller, stranger]) expect(await moderationCall(t, who, body), JSON.stringify(body)).toEqual(MODERATORS_ONLY);
        expect(await moderationCall(t, undefined, body)).toEqual(refused(401, 'Session expired'));
      }
      expect(await tradeStateOf(t, channel)).toEqual(before);
    });

    it('answers a moderator, and refuses them (403) from the call after their role is taken back', async () => {
      const temporary = await moderator(t);
      expect((await moderationCall(t, temporary, { type: 'list' })).status).toBe(200);
      await t.app.db.query(`UPDATE users SET role = 'trader' WHERE id = $1`, [temporary.id]);
      expect(await moderationCall(t, temporary, { type: 'list' })).toEqual(MODERATORS_ONLY);
    });

    it('a moderator cannot act as a party: market/trade/ actions and market/chat/{channel}/ on a trade of others answer 404, disputed or not', async () => {
      const unpaid = await openTrade(t, buyer, offer, '97', 'SEPA');
      const disputed = await disputedTrade(t, { buyer, seller, offer });
      for (const channel of [unpaid, disputed]) {
        const before = await tradeStateOf(t, channel);
        for (const type of ['mark_paid', 'cancel', 'release_coin', 'raise_dispute']) {
          expect(await act(t, mod, type, channel, type === 'raise_dispute' ? 'as a moderator' : undefined), type).toEqual(NOT_FOUND);
        }
        for (const body of [{ type: 'messages' }, { type: 'send_message', message_type: 'text', text: 'hello' }, { type: 'typing' }]) {
          expect(await t.post(`/api/market/chat/${channel}/`, body, { token: mod.token }), body.type).toEqual(NOT_FOUND);
        }
        expect(await tradeStateOf(t, channel)).toEqual(before);
      }
      expect((await conversationsOf(t, mod)).body.info).toEqual([]);
    });
  });

  describe('list', () => {
    it('the trades under dispute now, oldest dispute first; not the undisputed, not the settled', async () => {
      const open = (await moderationCall<DisputeSummary[]>(t, mod, { type: 'list' })).body.info.map((d) => d.channel);
      const first = await disputedTrade(t, { buyer, seller, offer }, '194', 'Nothing arrived');
      t.clock.advance(MINUTE);
      const paidOnly = await openTrade(t, buyer, offer, '97', 'SEPA');
      await act(t, buyer, 'mark_paid', paidOnly);
      // Opened before `second` but disputed after it: the dispute's time orders the desk, not the trade's.
      const late = await openTrade(t, buyer, offer, '97', 'SEPA');
      await act(t, buyer, 'mark_paid', late);
      const second = await disputedTrade(t, { buyer, seller, offer, by: seller });
      t.clock.advance(MINUTE);
      await act(t, seller, 'raise_dispute', late, 'Wrong name on the payment');
      const settled = await disputedTrade(t, { buyer, seller, offer });
      expect((await moderationCall(t, mod, { type: 'resolve', channel: settled, outcome: 'refund', resolution: 'No payment' })).status).toBe(200);

      const list = (await moderationCall<DisputeSummary[]>(t, mod, { type: 'list' })).body.info;
      expect(list.map((d) => d.channel)).toEqual([...open, first, second, late]);
      expect(list.find((d) => d.channel === first)).toEqual({
        channel: first,
        buyer: buyer.username,
        seller: seller.username,
        coin__ticker: 'BTC',
        coin__image: expect.any(String),
        trading_amount_crypto: '0.00200000',
        trading_amount: '194.00',
        currency__code: 'EUR',
        disputed_by: buyer.username,
        disputed_at: expect.any(String),
        reason: 'Nothing arrived',
      });
      expect(list.find((d) => d.channel === second)?.disputed_by).toBe(seller.username);
      const times = list.map((d) => Date.parse(d.disputed_at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    });
  });

  describe('get', () => {
    it("one dispute's facts, the payer's account and when it was paid, and its chat oldest first", async () => {
      const opened = t.clock.now();
      const channel = await openTrade(t, buyer, offer, '970', 'Revolut');
      t.clock.advance(2 * MINUTE);
      const paidAt = t.clock.now();
      expect((await tradeCall(t, buyer, { type: 'mark_paid', channel, payer_account: 'J. Smith, Revolut' })).status).toBe(200);
      t.clock.advance(3 * MINUTE);
      const disputedAt = t.clock.now();
      expect((await act(t, seller, 'raise_dispute', channel, 'The name on the payment is not J. Smith')).status).toBe(200);
      expect((await t.post(`/api/market/chat/${channel}/`, { type: 'send_message', message_type: 'text', text: 'Here is my receipt' }, { token: buyer.token })).status).toBe(200);
      expect((await moderationCall(t, mod, { type: 'message', channel, text: 'Please both upload your statements' })).status).toBe(200);

      const answer = await moderationCall<DisputeDetail>(t, mod, { type: 'get', channel });
      expect(answer.status).toBe(200);
      const { messages, ...facts } = answer.body.info;
      expect(facts).toEqual({
        channel,
        buyer: buyer.username,
        seller: seller.username,
        coin__ticker: 'BTC',
        coin__image: expect.any(String),
        coin__decimal_places: 8,
        trading_amount_crypto: '0.01000000',
        trading_amount: '970.00',
        currency__code: 'EUR',
        disputed_by: seller.username,
        disputed_at: disputedAt.toISOString(),
        reason: 'The name on the payment is not J. Smith',
        status: 'pending',
        buyer_paid: true,
        dispute_raised: true,
        payment_method: 'Revolut',
        rate: '1.00',
        fee_crypto: '0.00010000',
        amount_crypto: '0.00990000',
        created: opened.toISOString(),
        payment_window_minutes: 30,
        payment_due: new Date(opened.getTime() + 30 * MINUTE).toISOString(),
        paid_at: paidAt.toISOString(),
        payer_account: 'J. Smith, Revolut',
        resolution: null,
      });
      expect(messages.map((m) => [m.sender, m.recipient, m.from_moderator ?? false])).toEqual([
        [null, 'all', false],
        [null, 'all', false],
        [null, 'all', false],
        [buyer.username, seller.username, false],
        ['Moderator', 'all', true],
      ]);
      expect(messages.at(-1)?.text).toBe('Please both upload your statements');
      expect(messages[1]?.text).toContain('"J. Smith, Revolut"');
    });

    it('answers only the newest 500 messages of the chat, oldest first, as the traders\' own history', async () => {
      const channel = await disputedTrade(t, { buyer, seller, offer });
      const { id } = await t.app.db.one<{ id: string }>('SELECT id FROM trades WHERE channel = $1', [channel]);
      // Three system messages (open, paid, disputed) and 510 of the buyer's: the newest 500 are 11 to 510.
      await t.app.db.query(
        `INSERT INTO chat_messages (trade_id, sender_id, recipient, text, created_at)
         SELECT $1, $2, 'all', 'message ' || n, now() FROM generate_series(1, 510) AS n`,
        [id, buyer.id],
      );
      const { messages } = (await moderationCall<DisputeDetail>(t, mod, { type: 'get', channel })).body.info;
      expect(messages).toHaveLength(CHAT_HISTORY_LIMIT);
      expect([messages[0]?.text, messages[1]?.text, messages.at(-1)?.text]).toEqual(['message 11', 'message 12', 'message 510']);
    });

    it('answers 404 for an unknown channel and for a trade never disputed; a settled one still answers, with its resolution', async () => {
      const undisputed = await openTrade(t, buyer, offer, '97', 'SEPA');
      await act(t, buyer, 'mark_paid', undisputed);
      for (const channel of [undisputed, 'AAAAAAAAAAAAAAAAAAAAAA', 'not a channel']) {
        expect(await moderationCall(t, mod, { type: 'get', channel })).toEqual(NOT_FOUND);
      }
      const channel = await disputedTrade(t, { buyer, seller, offer });
      expect((await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'release', resolution: 'The bank statement shows it' })).status).toBe(200);
      const settled = (await moderationCall<DisputeDetail>(t, mod, { type: 'get', channel })).body.info;
      expect(settled).toMatchObject({
        status: 'completed',
        dispute_raised: false,
        resolution: { outcome: 'release', text: 'The bank statement shows it', resolved_at: t.clock.now().toISOString() },
      });
    });
  });

  describe('message', () => {
    it('is shown to both traders as from "Moderator", live on the trade channel and in their lists, never with the moderator\'s name', async () => {
      const channel = await disputedTrade(t, { buyer, seller, offer });
      events.length = 0;
      const answer = await moderationCall<ChatMessage>(t, mod, { type: 'message', channel, text: '  Please send a screenshot  ' });
      const message = { id: expect.any(Number), sender: 'Moderator', recipient: 'all', text: 'Please send a screenshot', created: t.clock.now().toISOString(), channel, from_moderator: true };
      expect(answer).toEqual(done(message));
      expect(events.filter((e) => e.channel === `private-${channel}`).map((e) => [e.event, e.data])).toEqual([['new_message', answer.body.info]]);
      const lists = events.filter((e) => e.event === 'conversation');
      expect(lists.map((e) => e.channel).sort()).toEqual([`private-user-${buyer.username}`, `private-user-${seller.username}`].sort());
      expect(lists.every((e) => (e.data as Conversation).last_message === 'Please send a screenshot')).toBe(true);
      for (const who of [buyer, seller]) {
        const chat = (await t.post<ChatMessage[]>(`/api/market/chat/${channel}/`, { type: 'messages' }, { token: who.token })).body.info;
        expect(chat.at(-1)).toEqual(answer.body.info);
        expect(JSON.stringify(chat)).not.toContain(mod.username);
      }
      const stored = await t.app.db.one('SELECT sender_id, recipient, from_moderator FROM chat_messages WHERE id = $1', [answer.body.info.id]);
      expect(stored).toEqual({ sender_id: mod.id, recipient: 'all', from_moderator: true });
    });

    it('only into a dispute that is open: 404 for a trade never disputed, 409 once settled; a blank text is a 400', async () => {
      const undisputed = await openTrade(t, buyer, offer, '97', 'SEPA');
      expect(await moderationCall(t, mod, { type: 'message', channel: undisputed, text: 'hello' })).toEqual(NOT_FOUND);
      const channel = await disputedTrade(t, { buyer, seller, offer });
      expect((await moderationCall(t, mod, { type: 'message', channel, text: '   ' })).status).toBe(400);
      await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'refund', resolution: 'No payment arrived' });
      const before = await tradeStateOf(t, channel);
      expect(await moderationCall(t, mod, { type: 'message', channel, text: 'late' })).toEqual(SETTLED);
      expect(await tradeStateOf(t, channel)).toEqual(before);
    });
  });

  describe('resolve', () => {
    it('release: escrow to the buyer less the fee, the fee to the platform, completed, both told, once', async () => {
      const channel = await disputedTrade(t, { buyer, seller, offer });
      const before = {
        escrow: await balance(t.app.db, seller.id, BTC, 'escrow'),
        sellerAvailable: await balance(t.app.db, seller.id, BTC, 'available'),
        buyer: await balance(t.app.db, buyer.id, BTC, 'available'),
        fees: await feesOf(t),
        counts: [await tradeCountsOf(t, buyer), await tradeCountsOf(t, seller)],
      };
      events.length = 0;
      const resolution = 'The bank statement shows the payment <b>arrived</b> on time.';
      expect(await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'release', resolution: `  ${resolution}\n` })).toEqual(
        done(`Dispute settled: the coins were released to ${buyer.username}.`),
      );
      expect(dec(await balance(t.app.db, seller.id, BTC, 'escrow')).minus(before.escrow).toFixed()).toBe('-0.001');
      expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).minus(before.sellerAvailable).toFixed()).toBe('0');
      expect(dec(await balance(t.app.db, buyer.id, BTC, 'available')).minus(before.buyer).toFixed()).toBe('0.00099');
      expect(dec(await feesOf(t)).minus(before.fees).toFixed()).toBe('0.00001');
      const { escrow_slot: slot, id } = await t.app.db.one<{ escrow_slot: number; id: string }>('SELECT escrow_slot, id FROM trades WHERE channel = $1', [channel]);
      expect(await postingsOf(t, channel, 'release')).toEqual([
        [`${seller.id}:${BTC}:escrow`, '-0.001', slot],
        [`${buyer.id}:${BTC}:available`, '0.00099', 0],
        [`platform:${BTC}:fees`, '0.00001', slot],
      ]);
      expect((await tradeStateOf(t, channel)).entries).toEqual([{ reference: `trade:${id}:open` }, { reference: `trade:${id}:release` }]);
      expect(await t.app.db.one('SELECT status, buyer_paid, dispute_raised, resolution, resolution_text, resolved_by, resolved_at, closed_at, cancelled_by FROM trades WHERE id = $1', [id])).toEqual({
        status: 'completed',
        buyer_paid: true,
        dispute_raised: false,
        resolution: 'release',
        resolution_text: resolution,
        resolved_by: mod.id,
        resolved_at: t.clock.now(),
        closed_at: t.clock.now(),
        cancelled_by: null,
      });
      // A release by a moderator counts the trade completed and concluded for both, as the seller's release would.
      expect([await tradeCountsOf(t, buyer), await tradeCountsOf(t, seller)]).toEqual(
        before.counts.map((c) => ({ completed: c.completed + 1, concluded: c.concluded + 1 })),
      );

      const text = `A moderator settled the dispute: 0.00099000 BTC were released to ${buyer.username}. Trade completed. Resolution: ${resolution}`;
      const onTrade = events.filter((e) => e.channel === `private-${channel}`);
      expect(onTrade.map((e) => e.event)).toEqual(['coin_released', 'new_message']);
      expect(onTrade[0]?.data).toMatchObject({ channel, status: 'completed', buyer_paid: true, dispute_raised: false, message: { sender: null, recipient: 'all', text } });
      expect(events.filter((e) => e.channel === 'private-moderation').map((e) => [e.event, e.data])).toEqual([['dispute_resolved', { channel }]]);
      const lists = events.filter((e) => e.event === 'conversation').map((e) => [e.channel, (e.data as Conversation).resolution]);
      const settled = { outcome: 'release', text: resolution, resolved_at: t.clock.now().toISOString() };
      expect(lists.sort()).toEqual([[`private-user-${buyer.username}`, settled], [`private-user-${seller.username}`, settled]].sort());

      const told = await t.app.db.query<{ user_id: string; title: string; body: string; link: string }>(
        `SELECT user_id, title, body, link FROM notifications WHERE kind = 'dispute_resolved' AND link = $1 ORDER BY user_id`,
        [`/chat?channel=${channel}`],
      );
      expect(told.map((n) => n.user_id).sort()).toEqual([buyer.id, seller.id].sort());
      expect(told[0]?.body).toBe(
        `A moderator settled the dispute on the trade of 0.00099000 BTC for 97.00 EUR: 0.00099000 BTC went to ${buyer.username}, and the trade is completed. Resolution: ${resolution}`,
      );
      const conversation = ((await conversationsOf(t, buyer)).body.info as Conversation[]).find((c) => c.channel === channel);
      expect(conversation).toMatchObject({ status: 'completed', disputed_at: expect.any(String), resolution: settled, payer_account: null, my_rating: null });

      // Settled once: a second settlement, either way, and every party's action are refused, and nothing moves.
      const after = await tradeStateOf(t, channel);
      for (const outcome of ['release', 'refund']) expect(await moderationCall(t, mod, { type: 'resolve', channel, outcome, resolution: 'again' })).toEqual(SETTLED);
      for (const [who, type] of [[seller, 'release_coin'], [buyer, 'cancel'], [buyer, 'raise_dispute']] as const) {
        expect(await act(t, who, type, channel, type === 'raise_dispute' ? 'again' : undefined)).toEqual(refused(409, 'This trade is no longer pending.'));
      }
      expect(await tradeStateOf(t, channel)).toEqual(after);
      await expectLedgerClean(t.app.db);
    });

    it('refund: the escrow back to the seller, cancelled, both told', async () => {
      const channel = await disputedTrade(t, { buyer, seller, offer }, '194', 'I paid');
      const before = {
        escrow: await balance(t.app.db, seller.id, BTC, 'escrow'),
        sellerAvailable: await balance(t.app.db, seller.id, BTC, 'available'),
        buyer: await balance(t.app.db, buyer.id, BTC, 'available'),
        fees: await feesOf(t),
        counts: [await tradeCountsOf(t, buyer), await tradeCountsOf(t, seller)],
      };
      events.length = 0;
      expect(await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'refund', resolution: 'No payment reached the seller.' })).toEqual(
        done(`Dispute settled: the coins went back to ${seller.username}.`),
      );
      expect(dec(await balance(t.app.db, seller.id, BTC, 'escrow')).minus(before.escrow).toFixed()).toBe('-0.002');
      expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).minus(before.sellerAvailable).toFixed()).toBe('0.002');
      expect(dec(await balance(t.app.db, buyer.id, BTC, 'available')).minus(before.buyer).toFixed()).toBe('0');
      expect(dec(await feesOf(t)).minus(before.fees).toFixed()).toBe('0');
      const { escrow_slot: slot, id } = await t.app.db.one<{ escrow_slot: number; id: string }>('SELECT escrow_slot, id FROM trades WHERE channel = $1', [channel]);
      expect(await postingsOf(t, channel, 'cancel')).toEqual([
        [`${seller.id}:${BTC}:escrow`, '-0.002', slot],
        [`${seller.id}:${BTC}:available`, '0.002', 0],
      ]);
      expect(await postingsOf(t, channel, 'release')).toEqual([]);
      expect(await t.app.db.one('SELECT status, resolution, resolution_text, resolved_by, cancelled_by, paid_at IS NOT NULL AS was_paid FROM trades WHERE id = $1', [id])).toEqual({
        status: 'cancelled',
        resolution: 'refund',
        resolution_text: 'No payment reached the seller.',
        resolved_by: mod.id,
        cancelled_by: mod.id,
        was_paid: true,
      });
      // The buyer did not pay: concluded without completing on them alone, never on the seller they made dispute.
      const [buyerBefore, sellerBefore] = before.counts;
      expect([await tradeCountsOf(t, buyer), await tradeCountsOf(t, seller)]).toEqual([{ ...buyerBefore, concluded: buyerBefore.concluded + 1 }, sellerBefore]);
      expect(events.filter((e) => e.channel === `private-${channel}`).map((e) => e.event)).toEqual(['trade_cancelled', 'new_message']);
      expect((await tradeStateOf(t, channel)).messages.at(-1)).toMatchObject({
        text: `A moderator settled the dispute: 0.00200000 BTC went back to ${seller.username}. Trade cancelled. Resolution: No payment reached the seller.`,
        sender_id: null,
      });
      expect(events.filter((e) => e.channel === 'private-moderation').map((e) => [e.event, e.data])).toEqual([['dispute_resolved', { channel }]]);
      const told = await t.app.db.query<{ user_id: string; title: string }>(
        `SELECT user_id, title FROM notifications WHERE kind = 'dispute_resolved' AND link = $1`,
        [`/chat?channel=${channel}`],
      );
      expect(told.map((n) => [n.user_id, n.title]).sort()).toEqual([[buyer.id, 'Dispute settled'], [seller.id, 'Dispute settled']].sort());
      await expectLedgerClean(t.app.db);
    });

    it('a moderator who is a party of the trade may not settle it (403); another moderator may', async () => {
      const otherModerator = await moderator(t);
      // A moderator who also trades: sells on an offer of their own, and the buyer disputes.
      const trading = await trader(t, { BTC: '0.1' });
      expect((await setUserRole(t.app.db, trading.username, 'moderator')).ok).toBe(true);
      // The role change ended their sessions: signed in again.
      const funded = await signedInAgain(t, trading);
      const ownOffer = await sellOffer(t, funded);
      const channel = await disputedTrade(t, { buyer, seller: funded, offer: ownOffer });
      const before = await tradeStateOf(t, channel);
      for (const outcome of ['release', 'refund']) {
        expect(await moderationCall(t, funded, { type: 'resolve', channel, outcome, resolution: 'Mine' })).toEqual(
          refused(403, 'You cannot settle a dispute on your own trade.'),
        );
      }
      expect(await tradeStateOf(t, channel)).toEqual(before);
      expect((await moderationCall(t, otherModerator, { type: 'resolve', channel, outcome: 'refund', resolution: 'Not paid' })).status).toBe(200);
      expect(await tradeFacts(t, channel)).toEqual({ status: 'cancelled', buyer_paid: false, dispute_raised: false });
    });

    it('answers 404 for a trade never disputed or unknown, 400 for an unknown outcome or a blank resolution, and changes nothing', async () => {
      const undisputed = await openTrade(t, buyer, offer, '97', 'SEPA');
      await act(t, buyer, 'mark_paid', undisputed);
      const before = await tradeStateOf(t, undisputed);
      for (const outcome of ['release', 'refund']) {
        expect(await moderationCall(t, mod, { type: 'resolve', channel: undisputed, outcome, resolution: 'x' })).toEqual(NOT_FOUND);
      }
      expect(await moderationCall(t, mod, { type: 'resolve', channel: 'AAAAAAAAAAAAAAAAAAAAAA', outcome: 'refund', resolution: 'x' })).toEqual(NOT_FOUND);
      const channel = await disputedTrade(t, { buyer, seller, offer });
      const disputed = await tradeStateOf(t, channel);
      expect((await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'split', resolution: 'half each' })).status).toBe(400);
      expect(await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'refund', resolution: '  ' })).toEqual(refused(400, 'resolution: Please write the resolution'));
      expect((await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'refund', resolution: 'x'.repeat(2001) })).status).toBe(400);
      expect(await tradeStateOf(t, undisputed)).toEqual(before);
      expect(await tradeStateOf(t, channel)).toEqual(disputed);
    });
  });
});

describe.each(dbTargets)('two moderators settling one dispute at once on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { MAX_OPEN_TRADES: '100' } });
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  it('release racing refund, 10 rounds: exactly one applies each round, one journal entry, the other refused with 409', async () => {
    const seller = await trader(t, { BTC: '1' });
    const buyer = await trader(t);
    const [first, second] = [await moderator(t), await moderator(t)];
    const offer = await sellOffer(t, seller);
    const startAvailable = dec(await balance(t.app.db, seller.id, BTC, 'available'));
    let releases = 0;
    for (let round = 0; round < 10; round += 1) {
      const channel = await disputedTrade(t, { buyer, seller, offer });
      const [release, refund] = await Promise.all([
        moderationCall(t, first, { type: 'resolve', channel, outcome: 'release', resolution: `round ${round}: paid` }),
        moderationCall(t, second, { type: 'resolve', channel, outcome: 'refund', resolution: `round ${round}: not paid` }),
      ]);
      expect([release.status, refund.status].sort()).toEqual([200, 409]);
      const loser = release.status === 409 ? release : refund;
      expect(loser.body).toEqual({ success: false, info: 'This trade has already been settled.' });
      const won = release.status === 200 ? 'release' : 'refund';
      if (won === 'release') releases += 1;
      const { id, status, resolution } = await t.app.db.one<{ id: string; status: string; resolution: string }>(
        'SELECT id, status, resolution FROM trades WHERE channel = $1',
        [channel],
      );
      expect([status, resolution]).toEqual(won === 'release' ? ['completed', 'release'] : ['cancelled', 'refund']);
      const entries = await t.app.db.query<{ reference: string }>(
        `SELECT reference FROM ledger_entries WHERE reference IN ($1, $2)`,
        [`trade:${id}:release`, `trade:${id}:cancel`],
      );
      expect(entries).toEqual([{ reference: `trade:${id}:${won === 'release' ? 'release' : 'cancel'}` }]);
      const systemMessages = await t.app.db.one<{ count: number }>(
        `SELECT count(*)::integer AS count FROM chat_messages WHERE trade_id = $1 AND text LIKE 'A moderator settled%'`,
        [id],
      );
      expect(systemMessages.count).toBe(1);
    }
    // Each release took 0.001 BTC from the seller for good; each refund gave it back.
    expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).eq(startAvailable.minus(new Decimal('0.001').times(releases)))).toBe(true);
    expect(dec(await balance(t.app.db, seller.id, BTC, 'escrow')).isZero()).toBe(true);
  }, 120_000);
});
