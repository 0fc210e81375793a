import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ConversationRead } from '../../contracts/chat.ts';
import { conversations as conversationsSchema, type Conversation } from '../../contracts/trade.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { act, conversationsOf, disputedTrade, openTrade, sellOffer, trader, tradingSuite, type Trader } from '../support/server-trades.ts';

/**
 * Issue 31, "Conversations tell themselves apart": the list entry says which trade it is (coin, amount, fiat) and
 * how many messages written to the reader they have not read; `market/chat/{channel}/read/` clears the reader's own.
 */

const send = (t: TestApp, who: Trader, channel: string, text: string) =>
  t.post<ChatMessage>(`/api/market/chat/${channel}/`, { type: 'send_message', message_type: 'text', text }, { token: who.token });
const markRead = (t: TestApp, who: Trader | undefined, channel: string, body: unknown = { type: 'read' }) =>
  t.post<ConversationRead>(`/api/market/chat/${channel}/read/`, body, who ? { token: who.token } : {});

describe.each(dbTargets)('conversations on %s', (target) => {
  const suite = tradingSuite(target, { CHAT_MESSAGES_PER_MINUTE: '1000', MAX_OPEN_TRADES: '1000' });
  // Read once the suite has set them up.
  let t: TestApp, seller: Trader, buyer: Trader, stranger: Trader, offer: number;
  beforeAll(() => void ({ t, seller, buyer, stranger, offer } = suite));
  const { events } = suite;
  const clearEvents = () => void (events.length = 0);

  const entryOf = async (who: Trader, channel: string) => {
    const answer = await conversationsOf(t, who);
    expect(answer.status).toBe(200);
    return (answer.body.info as Conversation[]).find((entry) => entry.channel === channel);
  };
  const unreadOf = async (who: Trader, channel: string) => (await entryOf(who, channel))?.unread;
  /** What `who`'s list heard of `channel` live, in order. */
  const heard = (who: Trader, channel: string) =>
    events
      .filter((event) => event.channel === `private-user-${who.username}` && event.event === 'conversation')
      .map((event) => event.data as Conversation)
      .filter((entry) => entry.channel === channel);
  /** The stored amounts of a trade, as PostgreSQL writes them with the coin's places and 2 for fiat. */
  const storedAmounts = (channel: string) =>
    t.app.db.one<{ amount_crypto: string; trading_amount: string; ticker: string; places: number; currency: string }>(
      `SELECT trunc(t.amount_crypto, c.decimal_places)::text AS amount_crypto, trunc(t.trading_amount, 2)::text AS trading_amount,
              c.ticker, c.decimal_places AS places, t.currency_code AS currency
       FROM trades t JOIN coins c ON c.id = t.coin_id WHERE t.channel = $1`,
      [channel],
    );

  describe('the list entry', () => {
    it('says which trade it is: three trades with one partner carry their coin, amounts and state, to each party', async () => {
      const amounts = ['97', '250.5', '1234.56'];
      const channels: string[] = [];
      for (const amount of amounts) channels.push(await openTrade(t, buyer, offer, amount, 'SEPA'));
      await act(t, buyer, 'mark_paid', channels[1]!);
      await act(t, buyer, 'cancel', channels[2]!);

      for (const who of [buyer, seller]) {
        const answer = await conversationsOf(t, who);
        expect(conversationsSchema.safeParse(answer.body.info).success).toBe(true);
        const list = answer.body.info as Conversation[];
        for (const [index, channel] of channels.entries()) {
          const stored = await storedAmounts(channel);
          const entry = list.find((item) => item.channel === channel);
          expect(entry).toMatchObject({
            partner: who === buyer ? seller.username : buyer.username,
            coin__ticker: 'BTC',
            coin__decimal_places: 8,
            amount_crypto: stored.amount_crypto,
            trading_amount: stored.trading_amount,
            currency__code: 'EUR',
          });
          expect(entry?.amount_crypto).toMatch(/^\d+\.\d{8}$/);
          expect(entry?.trading_amount).toBe(Number(amounts[index]).toFixed(2));
        }
        const [first, second, third] = channels.map((channel) => list.find((item) => item.channel === channel)!);
        expect([first!.buyer_paid, second!.buyer_paid, third!.status]).toEqual([false, true, 'cancelled']);
        // Told apart: no two of the three have the same amount.
        expect(new Set([first!.amount_crypto, second!.amount_crypto, third!.amount_crypto]).size).toBe(3);
      }
    });

    it('carries the same additions in the live entry a message publishes as in the list', async () => {
      const channel = await openTrade(t, buyer, offer, '42', 'SEPA');
      clearEvents();
      await send(t, buyer, channel, 'hello');
      const { online: _listOnline, ...listed } = (await entryOf(seller, channel))!;
      const { online: _liveOnline, ...live } = heard(seller, channel).at(-1)!;
      expect(live).toEqual(listed);
      expect(live).toMatchObject({ coin__ticker: 'BTC', trading_amount: '42.00', currency__code: 'EUR', unread: 1 });
    });
  });

  describe('unread', () => {
    it('counts the partner’s messages each party has not read, never their own nor the system’s', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      // The opening system message is nobody's to read.
      expect([await unreadOf(buyer, channel), await unreadOf(seller, channel)]).toEqual([0, 0]);
      await send(t, buyer, channel, 'one');
      await send(t, buyer, channel, 'two');
      expect([await unreadOf(buyer, channel), await unreadOf(seller, channel)]).toEqual([0, 2]);
      await send(t, seller, channel, 'reply');
      expect([await unreadOf(buyer, channel), await unreadOf(seller, channel)]).toEqual([1, 2]);
      // An action's system message is not one to read either.
      await act(t, buyer, 'mark_paid', channel);
      expect([await unreadOf(buyer, channel), await unreadOf(seller, channel)]).toEqual([1, 2]);
    });

    it('rises live: every message publishes each party’s own count with the entry, and an action’s entry keeps it', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      clearEvents();
      await send(t, buyer, channel, 'one');
      await send(t, buyer, channel, 'two');
      expect(heard(seller, channel).map((entry) => entry.unread)).toEqual([1, 2]);
      expect(heard(buyer, channel).map((entry) => entry.unread)).toEqual([0, 0]);
      await send(t, seller, channel, 'reply');
      expect(heard(seller, channel).at(-1)?.unread).toBe(2);
      expect(heard(buyer, channel).at(-1)?.unread).toBe(1);
      clearEvents();
      await act(t, buyer, 'mark_paid', channel);
      expect(heard(seller, channel).map((entry) => entry.unread)).toEqual([2]);
      expect(heard(buyer, channel).map((entry) => entry.unread)).toEqual([1]);
    });

    it('counts a moderator’s message for both parties, live and in the list', async () => {
      const channel = await disputedTrade(t, { buyer, seller, offer });
      const moderator = await trader(t);
      await t.app.db.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [moderator.id]);
      // Each party already has a message unread, so the moderator's adds to a count kept, not only starts one.
      await send(t, buyer, channel, 'I paid.');
      await send(t, seller, channel, 'Nothing arrived.');
      const before = [await unreadOf(buyer, channel), await unreadOf(seller, channel)];
      expect(before).toEqual([1, 1]);
      clearEvents();
      const answer = await t.post('/api/market/moderation/', { type: 'message', channel, text: 'Please send the receipt.' }, { token: moderator.token });
      expect(answer.status).toBe(200);
      expect([heard(buyer, channel).at(-1)?.unread, heard(seller, channel).at(-1)?.unread]).toEqual([before[0]! + 1, before[1]! + 1]);
      expect([await unreadOf(buyer, channel), await unreadOf(seller, channel)]).toEqual([before[0]! + 1, before[1]! + 1]);
    });
  });

  describe('market/chat/{channel}/read/', () => {
    it('clears the caller’s own count up to the newest message, and only theirs; the next message counts again', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      await send(t, buyer, channel, 'one');
      const last = (await send(t, buyer, channel, 'two')).body.info;
      await send(t, seller, channel, 'reply?');
      const newest = (await send(t, seller, channel, 'reply!')).body.info;
      expect([await unreadOf(buyer, channel), await unreadOf(seller, channel)]).toEqual([2, 2]);

      const answer = await markRead(t, seller, channel);
      expect(answer).toEqual({ status: 200, body: { success: true, info: { read_up_to: newest.id } } });
      expect(newest.id).toBeGreaterThan(last.id);
      expect([await unreadOf(buyer, channel), await unreadOf(seller, channel)]).toEqual([2, 0]);
      // Again: nothing changes.
      expect((await markRead(t, seller, channel)).body.info).toEqual({ read_up_to: newest.id });
      expect(await unreadOf(seller, channel)).toBe(0);

      clearEvents();
      await send(t, buyer, channel, 'three');
      expect(heard(seller, channel).map((entry) => entry.unread)).toEqual([1]);
      expect(await unreadOf(seller, channel)).toBe(1);
      await markRead(t, buyer, channel);
      expect([await unreadOf(buyer, channel), await unreadOf(seller, channel)]).toEqual([0, 1]);
    });

    it('up_to: marks only up to the message the caller has shown, so a later one stays unread', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const shown = (await send(t, buyer, channel, 'one')).body.info;
      const later = (await send(t, buyer, channel, 'two')).body.info;
      expect(later.id).toBeGreaterThan(shown.id);
      expect((await markRead(t, seller, channel, { type: 'read', up_to: shown.id })).body.info).toEqual({ read_up_to: shown.id });
      expect(await unreadOf(seller, channel)).toBe(1);
      expect((await markRead(t, seller, channel, { type: 'read', up_to: later.id })).body.info).toEqual({ read_up_to: later.id });
      expect(await unreadOf(seller, channel)).toBe(0);
    });

    it('up_to: a lower mark never lowers the stored one, and answers where the mark stands', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const first = (await send(t, buyer, channel, 'one')).body.info;
      const second = (await send(t, buyer, channel, 'two')).body.info;
      await markRead(t, seller, channel, { type: 'read', up_to: second.id });
      expect((await markRead(t, seller, channel, { type: 'read', up_to: first.id })).body.info).toEqual({ read_up_to: second.id });
      expect((await markRead(t, seller, channel, { type: 'read', up_to: 0 })).body.info).toEqual({ read_up_to: second.id });
      expect(await unreadOf(seller, channel)).toBe(0);
    });

    it('up_to: past the newest message counts as the newest; negative, fractional or unsafe numbers are refused (400)', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const newest = (await send(t, buyer, channel, 'one')).body.info;
      for (const up_to of [-1, 1.5, 2 ** 53, '7', null]) {
        expect((await markRead(t, seller, channel, { type: 'read', up_to })).status, String(up_to)).toBe(400);
      }
      expect(await unreadOf(seller, channel)).toBe(1);
      expect((await markRead(t, seller, channel, { type: 'read', up_to: Number.MAX_SAFE_INTEGER })).body.info).toEqual({ read_up_to: newest.id });
      expect(await unreadOf(seller, channel)).toBe(0);
      // The mark stands at the newest message, not past it: the next one counts.
      await send(t, buyer, channel, 'two');
      expect(await unreadOf(seller, channel)).toBe(1);
    });

    it('a mark that moved tells the caller’s own list (other tabs) with unread 0; the partner hears nothing; one that did not, nobody', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      await send(t, buyer, channel, 'one');
      await send(t, buyer, channel, 'two');
      clearEvents();
      await markRead(t, seller, channel);
      const { online: _o1, ...own } = heard(seller, channel).at(-1)!;
      const { online: _o2, ...listed } = (await entryOf(seller, channel))!;
      expect(heard(seller, channel)).toHaveLength(1);
      expect(own).toEqual({ ...listed, unread: 0 });
      expect(events.filter((event) => event.channel !== `private-user-${seller.username}`)).toEqual([]);
      clearEvents();
      await markRead(t, seller, channel);
      expect(events).toEqual([]);
    });

    it('marks a finished trade’s conversation read too', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      await send(t, buyer, channel, 'never mind');
      await act(t, buyer, 'cancel', channel);
      expect(await unreadOf(seller, channel)).toBe(1);
      expect((await markRead(t, seller, channel)).status).toBe(200);
      expect(await unreadOf(seller, channel)).toBe(0);
    });

    it('tells a stranger and an unknown channel alike that there is no such trade (404), and marks nothing', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      await send(t, buyer, channel, 'for the seller');
      // The marks (the seller's row with the count of the buyer's message has none: 0).
      const reads = () =>
        t.app.db.query('SELECT r.* FROM conversation_reads r JOIN trades tr ON tr.id = r.trade_id WHERE tr.channel = $1 AND r.last_read_id > 0', [channel]);
      const notFound = { status: 404, body: { success: false, info: 'This trade does not exist.' } };
      expect(await markRead(t, stranger, channel)).toEqual(notFound);
      expect(await markRead(t, buyer, 'A'.repeat(22))).toEqual(notFound);
      expect(await markRead(t, buyer, 'not-a-channel')).toEqual(notFound);
      expect(await reads()).toEqual([]);
      expect(await unreadOf(seller, channel)).toBe(1);
    });

    it('refuses callers without a session (401) and bodies of another type (400)', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      expect(await markRead(t, undefined, channel)).toEqual({ status: 401, body: { success: false, info: 'Session expired' } });
      expect((await markRead(t, seller, channel, { type: 'read_all' })).status).toBe(400);
      expect((await markRead(t, seller, channel, { type: 'read', user: buyer.id })).status).toBe(200);
      // Whatever else the body says, it is the caller's side that is read.
      await send(t, seller, channel, 'for the buyer');
      await markRead(t, seller, channel, { type: 'read', user: buyer.id });
      expect(await unreadOf(buyer, channel)).toBe(1);
    });

    it('limits how often one trader marks read (429), at twice the messages a partner may send', async () => {
      const limited = await createTestApp(target, { env: { CHAT_MESSAGES_PER_MINUTE: '2' } });
      try {
        const s = await trader(limited, { BTC: '1' });
        const b = await trader(limited);
        const o = await sellOffer(limited, s);
        const channel = await openTrade(limited, b, o, '97', 'SEPA');
        const read = (who: Trader) => limited.post(`/api/market/chat/${channel}/read/`, { type: 'read' }, { token: who.token });
        for (let i = 0; i < 4; i++) expect((await read(b)).status).toBe(200);
        expect(await read(b)).toEqual({
          status: 429,
          body: { success: false, info: 'Too many requests. Please slow down and try again in a minute.' },
        });
        // The partner has a budget of their own.
        expect((await read(s)).status).toBe(200);
      } finally {
        await limited.close();
      }
    });
  });
});
