import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHAT_HISTORY_LIMIT, chatMessages, tradeSummary, type ChatMessage, type TradeSummary } from '../../contracts/chat.ts';
import type { Conversation } from '../../contracts/trade.ts';
import type { RealtimeEvent } from '../../server/src/infra/realtime/realtime.plugin.ts';
import { chatRepository } from '../../server/src/chat/chat.repository.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { expectLedgerClean } from '../support/server-money.ts';
import { act, conversationsOf, openTrade, preview, sellOffer, trader, type Trader } from '../support/server-trades.ts';

const chatCall = <T = unknown>(t: TestApp, who: Trader, channel: string, body: unknown) =>
  t.post<T>(`/api/market/chat/${channel}/`, body, { token: who.token });
const send = (t: TestApp, who: Trader, channel: string, text: unknown) =>
  chatCall<ChatMessage>(t, who, channel, { type: 'send_message', message_type: 'text', text });
const messagesOf = (t: TestApp, who: Trader, channel: string) => chatCall<ChatMessage[]>(t, who, channel, { type: 'messages' });

describe.each(dbTargets)('the trade chat on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  let stranger: Trader;
  let offer: number;
  let events: RealtimeEvent[] = [];
  beforeAll(async () => {
    t = await createTestApp(target, { env: { CHAT_MESSAGES_PER_MINUTE: '1000', MAX_OPEN_TRADES: '1000' } });
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
  const on = (channel: string, event?: string) => events.filter((e) => e.channel === channel && (event === undefined || e.event === event));
  /** The statements `work` runs, but the session lookup every signed-in call makes. */
  const statementsOf = async (work: () => Promise<unknown>): Promise<string[]> => {
    const spies = (['query', 'one', 'maybe'] as const).map((method) => vi.spyOn(t.app.db, method));
    try {
      await work();
      return spies.flatMap((spy) => spy.mock.calls.map(([sql]) => sql)).filter((sql) => !/\bsessions\b/.test(sql));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  };

  describe('messages', () => {
    it('answers the conversation oldest first to both parties, starting with the system message of the opening', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      await send(t, buyer, channel, 'Hello, paying now');
      t.clock.advance(1000);
      await send(t, seller, channel, 'Thanks');
      for (const party of [buyer, seller]) {
        const answer = await messagesOf(t, party, channel);
        expect(answer.status).toBe(200);
        expect(chatMessages.safeParse(answer.body.info).success).toBe(true);
        const [opened, first, second] = answer.body.info;
        expect(opened).toMatchObject({ sender: null, recipient: 'all', channel });
        expect(opened?.text).toMatch(/^Trade opened: /);
        expect(first).toMatchObject({ sender: buyer.username, recipient: seller.username, text: 'Hello, paying now', channel });
        expect(second).toMatchObject({ sender: seller.username, recipient: buyer.username, text: 'Thanks' });
        expect(new Date(second?.created ?? '').getTime() - new Date(first?.created ?? '').getTime()).toBe(1000);
      }
    });

    it('answers only the newest 500', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const { id } = await t.app.db.one<{ id: string }>('SELECT id FROM trades WHERE channel = $1', [channel]);
      await t.app.db.query(
        `INSERT INTO chat_messages (trade_id, sender_id, recipient, text, created_at)
         SELECT $1, $2, $3, 'message ' || n, now() FROM generate_series(1, 510) AS n`,
        [id, buyer.id, seller.username],
      );
      const answer = await messagesOf(t, seller, channel);
      expect(answer.body.info).toHaveLength(CHAT_HISTORY_LIMIT);
      expect(answer.body.info[0]?.text).toBe('message 11');
      expect(answer.body.info.at(-1)?.text).toBe('message 510');
    });

    it('tells a stranger and an unknown channel alike that there is no such trade (404)', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const notFound = { status: 404, body: { success: false, info: 'This trade does not exist.' } };
      expect(await messagesOf(t, stranger, channel)).toEqual(notFound);
      expect(await send(t, stranger, channel, 'hi')).toEqual(notFound);
      expect(await chatCall(t, stranger, channel, { type: 'typing' })).toEqual(notFound);
      expect(await messagesOf(t, buyer, 'A'.repeat(22))).toEqual(notFound);
      expect(await messagesOf(t, buyer, 'not-a-channel')).toEqual(notFound);
      expect(on(`private-${channel}`, 'typing')).toEqual([]);
    });

    it('refuses callers without a session (401)', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      expect(await t.post(`/api/market/chat/${channel}/`, { type: 'messages' })).toEqual({ status: 401, body: { success: false, info: 'Session expired' } });
    });
  });

  describe('send_message', () => {
    it('stores the trimmed text, answers it, publishes it as new_message and moves the conversation up both lists', async () => {
      const older = await openTrade(t, buyer, offer, '97', 'SEPA');
      t.clock.advance(1000);
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      t.clock.advance(1000);
      events = [];
      const answer = await send(t, seller, older, '  <b>Sent?</b>\n ');
      expect(answer.status).toBe(200);
      const message = answer.body.info;
      expect(message).toMatchObject({ sender: seller.username, recipient: buyer.username, text: '<b>Sent?</b>', channel: older });
      expect(on(`private-${older}`, 'new_message').map((e) => e.data)).toEqual([message]);
      // Both lists: the conversation with the new last message, each from its reader's side.
      const [toBuyer] = on(`private-user-${buyer.username}`, 'conversation').map((e) => e.data as Conversation);
      const [toSeller] = on(`private-user-${seller.username}`, 'conversation').map((e) => e.data as Conversation);
      expect(toBuyer).toMatchObject({ channel: older, partner: seller.username, partner_type: 'seller', last_message: '<b>Sent?</b>', online: false });
      expect(toSeller).toMatchObject({ channel: older, partner: buyer.username, partner_type: 'buyer', last_message: '<b>Sent?</b>' });
      const list = (await conversationsOf(t, buyer)).body.info.map((c) => c.channel);
      expect(list.indexOf(older)).toBeLessThan(list.indexOf(channel));
    });

    it('takes one statement per message once this process knows the channel’s parties, and a read mark none to check them', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      // The first call on a channel reads its parties (they never change); later ones, whichever party, do not.
      expect(await statementsOf(() => send(t, buyer, channel, 'first'))).toHaveLength(2);
      for (const [who, text] of [[seller, 'second'], [buyer, 'third']] as const) {
        events = [];
        const sent = await statementsOf(async () => expect((await send(t, who, channel, text)).status).toBe(200));
        expect(sent).toHaveLength(1);
        expect(sent[0]).toContain('INSERT INTO chat_messages');
        // What both lists are told came with it: the partner's count includes this message.
        const partner = who === buyer ? seller : buyer;
        expect(on(`private-user-${partner.username}`, 'conversation').map((e) => (e.data as Conversation).last_message)).toEqual([text]);
      }
      const marked = await statementsOf(async () =>
        expect((await t.post(`/api/market/chat/${channel}/read/`, { type: 'read' }, { token: seller.token })).status).toBe(200),
      );
      // The mark itself is a transaction of its own (chatRepository `markRead`); outside it, only the conversation the
      // caller's other tabs are told, nothing to check the parties.
      expect(marked).toEqual([expect.stringContaining('AS last_message')]);
      // A stranger is still told there is no such trade, from the parties this process keeps.
      expect(await statementsOf(async () => expect((await send(t, stranger, channel, 'hi')).status).toBe(404))).toEqual([]);
    });

    it('stores nothing from a sender who is not a party of the trade: the statement checks it too', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const { id } = await t.app.db.one<{ id: string }>('SELECT id FROM trades WHERE channel = $1', [channel]);
      const message = { tradeId: id, senderId: stranger.id, recipientId: buyer.id, recipient: buyer.username, text: 'not yours', at: t.clock.now() };
      expect(await chatRepository(t.app.db).send(message)).toBeUndefined();
      expect(await chatRepository(t.app.db).send({ ...message, senderId: seller.id })).toMatchObject({ stored: { id: expect.any(String) } });
      expect((await messagesOf(t, buyer, channel)).body.info.map((m) => m.text)).toEqual([expect.stringMatching(/^Trade opened: /), 'not yours']);
    });

    it('refuses empty, whitespace-only, too long and non-text messages with 400 and stores nothing', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const before = (await messagesOf(t, buyer, channel)).body.info.length;
      for (const [body, info] of [
        [{ type: 'send_message', message_type: 'text', text: '' }, 'text: Please write a message'],
        [{ type: 'send_message', message_type: 'text', text: ' \n\t ' }, 'text: Please write a message'],
        [{ type: 'send_message', message_type: 'text', text: 'x'.repeat(2001) }, 'text: A message can be at most 2,000 characters'],
        [{ type: 'send_message', message_type: 'text' }, 'text: Please write a message'],
        [{ type: 'send_message', message_type: 'image', text: 'hi' }, 'message_type must be one of: text'],
        [{ type: 'send_message', message_type: 'text', text: 'a\u0000b' }, undefined],
        [{ type: 'shout' }, 'type must be one of: messages, send_message, typing, summary'],
      ] as const) {
        const answer = await chatCall(t, buyer, channel, body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
        if (info) expect(answer.body).toEqual({ success: false, info });
      }
      expect(await send(t, buyer, channel, 'x'.repeat(2000))).toMatchObject({ status: 200 });
      expect((await messagesOf(t, buyer, channel)).body.info.length).toBe(before + 1);
    });

    it('keeps taking messages while disputed, and refuses them once the trade is completed or cancelled (409)', async () => {
      const disputed = await openTrade(t, buyer, offer, '97', 'SEPA');
      await act(t, buyer, 'mark_paid', disputed);
      await act(t, seller, 'raise_dispute', disputed, 'No money arrived');
      expect(await send(t, buyer, disputed, 'I did pay')).toMatchObject({ status: 200 });

      const cancelled = await openTrade(t, buyer, offer, '97', 'SEPA');
      await act(t, buyer, 'cancel', cancelled);
      expect(await send(t, seller, cancelled, 'hello?')).toEqual({
        status: 409,
        body: { success: false, info: 'This trade is cancelled; its chat takes no more messages.' },
      });
      const completed = await openTrade(t, buyer, offer, '97', 'SEPA');
      await act(t, buyer, 'mark_paid', completed);
      await act(t, seller, 'release_coin', completed);
      expect((await send(t, buyer, completed, 'thanks!')).status).toBe(409);
      expect((await messagesOf(t, buyer, completed)).body.info.every((m) => m.sender === null)).toBe(true);
    });

    it('limits how fast one trader sends (429), over all their conversations', async () => {
      const limited = await createTestApp(target, { env: { CHAT_MESSAGES_PER_MINUTE: '3' } });
      try {
        const s = await trader(limited, { BTC: '1' });
        const b = await trader(limited);
        const o = await sellOffer(limited, s);
        const one = await openTrade(limited, b, o, '97', 'SEPA');
        const two = await openTrade(limited, b, o, '97', 'SEPA');
        expect((await send(limited, b, one, '1')).status).toBe(200);
        expect((await send(limited, b, two, '2')).status).toBe(200);
        expect((await send(limited, b, one, '3')).status).toBe(200);
        expect(await send(limited, b, two, '4')).toEqual({
          status: 429,
          body: { success: false, info: 'You are sending messages too fast. Please wait a moment.' },
        });
        // The partner has a budget of their own.
        expect((await send(limited, s, one, 'ok')).status).toBe(200);
      } finally {
        await limited.close();
      }
    });
  });

  describe('typing', () => {
    it('publishes typing {username} to the partner at most once per 500 ms per trader and conversation', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      events = [];
      const typing = (who: Trader) => chatCall<{ sent: boolean }>(t, who, channel, { type: 'typing' });
      expect((await typing(buyer)).body.info).toEqual({ sent: true });
      t.clock.advance(499);
      expect(await typing(buyer)).toEqual({ status: 200, body: { success: true, info: { sent: false } } });
      expect((await typing(seller)).body.info).toEqual({ sent: true });
      t.clock.advance(1);
      expect((await typing(buyer)).body.info).toEqual({ sent: true });
      expect(on(`private-${channel}`, 'typing').map((e) => e.data)).toEqual([
        { username: buyer.username },
        { username: seller.username },
        { username: buyer.username },
      ]);
    });
  });

  describe('summary', () => {
    const summaryOf = (who: Trader, channel: string) => chatCall<TradeSummary>(t, who, channel, { type: 'summary' });

    it('answers the trade’s terms from each party’s side, and when the payment window ends', async () => {
      const opened = t.clock.now();
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const { amount_crypto, trading_amount_crypto } = (await preview(t, buyer, offer, '97', 'SEPA')).body.info;
      const terms = {
        channel,
        coin__ticker: 'BTC',
        coin__decimal_places: 8,
        amount_crypto,
        escrow_crypto: trading_amount_crypto,
        trading_amount: '97.00',
        currency__code: 'EUR',
        rate: '1.00',
        payment_method: 'SEPA',
        created: opened.toISOString(),
        pay_by: new Date(opened.getTime() + t.app.config.paymentWindowMinutes * MINUTE).toISOString(),
      };
      // Later calls change nothing: the terms are frozen at open, whatever the trade went through since.
      t.clock.advance(5 * MINUTE);
      await act(t, buyer, 'mark_paid', channel);
      const forBuyer = await summaryOf(buyer, channel);
      expect(forBuyer).toEqual({ status: 200, body: { success: true, info: { ...terms, role: 'buyer' } } });
      expect(tradeSummary.safeParse(forBuyer.body.info).success).toBe(true);
      expect((await summaryOf(seller, channel)).body.info).toEqual({ ...terms, role: 'seller' });
    });

    it('tells a stranger and an unknown channel alike that there is no such trade (404)', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const notFound = { status: 404, body: { success: false, info: 'This trade does not exist.' } };
      expect(await summaryOf(stranger, channel)).toEqual(notFound);
      expect(await summaryOf(buyer, 'A'.repeat(22))).toEqual(notFound);
      expect(await summaryOf(buyer, 'not-a-channel')).toEqual(notFound);
    });
  });

  describe('trade actions in the chat', () => {
    it('publishes each action as its event and its system message as new_message on the private channel, and updates both lists', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      events = [];
      await act(t, buyer, 'mark_paid', channel);
      const [marked, message] = on(`private-${channel}`);
      expect(marked?.event).toBe('payment_marked');
      expect(message?.event).toBe('new_message');
      expect(marked?.data).toMatchObject({ channel, status: 'pending', buyer_paid: true, dispute_raised: false });
      expect((marked?.data as { message: ChatMessage }).message).toEqual(message?.data);
      expect(message?.data).toMatchObject({ sender: null, recipient: 'all', channel });
      const stored = (await messagesOf(t, seller, channel)).body.info.at(-1);
      expect(stored).toEqual(message?.data);
      expect(on(`private-user-${seller.username}`, 'conversation').map((e) => e.data)).toEqual([
        expect.objectContaining({ channel, buyer_paid: true, last_message: stored?.text, partner_type: 'buyer' }),
      ]);
    });

    it("carries the payer's account, the dispute's time, the settlement and each party's own rating, in the list and the live entry alike", async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const entryOf = async (who: Trader) => ((await conversationsOf(t, who)).body.info as Conversation[]).find((c) => c.channel === channel);
      expect(await entryOf(buyer)).toMatchObject({ payer_account: null, disputed_at: null, resolution: null, my_rating: null });
      await t.post('/api/market/trade/', { type: 'mark_paid', channel, payer_account: 'J. Smith, Revolut' }, { token: buyer.token });
      t.clock.advance(MINUTE);
      const disputedAt = t.clock.now().toISOString();
      events = [];
      await act(t, seller, 'raise_dispute', channel, 'Wrong name');
      const additions = { payer_account: 'J. Smith, Revolut', disputed_at: disputedAt, resolution: null, my_rating: null };
      for (const who of [buyer, seller]) {
        expect(await entryOf(who)).toMatchObject(additions);
        expect(on(`private-user-${who.username}`, 'conversation').map((e) => e.data)).toEqual([expect.objectContaining({ channel, ...additions })]);
      }
      // A settlement (as the dispute desk writes it), then the buyer's rating of the seller (as market/trade/ rate writes it).
      const id = (await t.app.db.one<{ id: string }>('SELECT id FROM trades WHERE channel = $1', [channel])).id;
      const mod = await trader(t);
      await t.app.db.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.id]);
      expect((await t.post('/api/market/moderation/', { type: 'resolve', channel, outcome: 'release', resolution: 'Paid in full' }, { token: mod.token })).status).toBe(200);
      await t.app.db.query(
        `INSERT INTO trade_ratings (trade_id, rater_id, ratee_id, score, comment, created_at) VALUES ($1, $2, $3, 4, 'Slow but fine', now())`,
        [id, buyer.id, seller.id],
      );
      const resolution = { outcome: 'release', text: 'Paid in full', resolved_at: t.clock.now().toISOString() };
      expect(await entryOf(buyer)).toMatchObject({ status: 'completed', resolution, my_rating: { score: 4, comment: 'Slow but fine' } });
      expect(await entryOf(seller)).toMatchObject({ status: 'completed', resolution, my_rating: null });
      events = [];
      await t.app.chat.announce(channel);
      expect(on(`private-user-${buyer.username}`, 'conversation').map((e) => (e.data as Conversation).my_rating)).toEqual([{ score: 4, comment: 'Slow but fine' }]);
      expect(on(`private-user-${seller.username}`, 'conversation').map((e) => (e.data as Conversation).my_rating)).toEqual([null]);
    });

    it('tells both lists when a trade opens, and when the payment window cancels one', async () => {
      events = [];
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      for (const who of [buyer, seller]) {
        expect(on(`private-user-${who.username}`, 'conversation').map((e) => (e.data as Conversation).channel)).toEqual([channel]);
      }
      t.clock.advance(31 * MINUTE);
      events = [];
      expect(await t.app.trades.sweep()).toBeGreaterThan(0);
      expect(on(`private-${channel}`).map((e) => e.event)).toEqual(['trade_cancelled', 'new_message']);
      expect(on(`private-user-${buyer.username}`, 'conversation').map((e) => e.data)).toContainEqual(
        expect.objectContaining({ channel, status: 'cancelled' }),
      );
    });
  });
});
