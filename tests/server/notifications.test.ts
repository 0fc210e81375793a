import type PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTIFICATIONS_LIST_LIMIT, type NotificationItem, type NotificationList } from '../../contracts/notifications.ts';
import { DEPOSIT_CONFIRMATIONS } from '../../contracts/wallet.ts';
import { notify, type NotificationDraft } from '../../server/src/notifications/notify.ts';
import type { RealtimeEvent } from '../../server/src/infra/realtime/realtime.plugin.ts';
import { depositAddress, depositOnChain, mine, pendingWithdrawal } from '../support/server-chain.ts';
import { codeAt, lastCodeFor, login, signUpWithTwoFactor } from '../support/server-flows.ts';
import { MINUTE, createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { act, bindDevice, listeningPort, open, openTrade, realtimeClientOf, sellOffer, trader, type Trader } from '../support/server-trades.ts';

/** A valid bitcoin address nobody on this platform owns. */
const OUTSIDE_BITCOIN = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

interface Told {
  user: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  /** The Beams user ids of the notification's push_publishes row (engineer B's worker sends it). */
  pushedTo: string[] | null;
}

describe.each(dbTargets)('notifications on %s', (target) => {
  let t: TestApp;
  const events: RealtimeEvent[] = [];
  const clients: PusherClient[] = [];
  beforeAll(async () => {
    t = await createTestApp(target);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    t.app.realtime.subscribe((event) => events.push(event));
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await t.close();
  });

  const bell = <T = NotificationList>(who: { token: string }, body: unknown) => t.post<T>('/api/user/notifications/', body, { token: who.token });
  const list = async (who: { token: string }) => {
    const answer = await bell(who, { type: 'list' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.info;
  };

  /** The newest notification id of the whole database: what "since" counts from. */
  const mark = async () => (await t.app.db.one<{ id: string | null }>('SELECT max(id)::text AS id FROM notifications')).id ?? '0';
  /** Every notification written since `since`, to anyone, with its push outbox row. */
  const toldSince = (since: string) =>
    t.app.db.query<Told>(
      `SELECT n.user_id AS user, n.kind, n.title, n.body, n.link, p.users AS "pushedTo"
       FROM notifications n LEFT JOIN push_publishes p ON p.publish_id = 'notification-' || n.id
       WHERE n.id > $1 ORDER BY n.id`,
      [since],
    );
  /** Who was told what: [user id, kind] pairs, and each pushed to exactly its own user's username. */
  async function whoSince(since: string, ...parties: Trader[]): Promise<Array<[string, string]>> {
    const told = await toldSince(since);
    for (const row of told) {
      const username = (await t.app.db.one<{ username: string }>('SELECT username FROM users WHERE id = $1', [row.user])).username;
      expect(row.pushedTo).toEqual([username]);
    }
    const names = new Map(parties.map((party) => [party.id, party.username]));
    return told.map((row) => [names.get(row.user) ?? `stranger ${row.user}`, row.kind]);
  }

  describe('trades: the statement that changes the trade tells the right party', () => {
    let seller: Trader;
    let buyer: Trader;
    let offer: number;
    beforeAll(async () => {
      seller = await trader(t, { BTC: '1' });
      buyer = await trader(t);
      offer = await sellOffer(t, seller);
      // With the built-in device API a trade's statement puts a web push in the outbox only for a party with a
      // device (notifications/notify.ts PushOutbox); the last test but one is about the others.
      await bindDevice(t, seller);
      await bindDevice(t, buyer);
    });

    it("tells the offer's owner (only) of a trade opened on their offer, live on their own channel only", async () => {
      const since = await mark();
      events.length = 0;
      const channel = await openTrade(t, buyer, offer, '970', 'SEPA'); // 0.01 BTC at 97,000 EUR
      expect(await whoSince(since, seller, buyer)).toEqual([[seller.username, 'trade_opened']]);
      const [told] = await toldSince(since);
      expect(told).toMatchObject({
        title: 'New trade on your offer',
        body:
          `${buyer.username} is buying 0.00990000 BTC for 970.00 EUR by SEPA on your offer. 0.01000000 BTC is held in escrow. ` +
          'Release the coin once the payment has arrived.',
        link: `/chat?channel=${encodeURIComponent(channel)}`,
      });

      const shown = await list(seller);
      expect(shown.count).toBe(1);
      expect(shown.items).toHaveLength(1);
      const item = shown.items[0] as NotificationItem;
      expect(item).toEqual({ id: item.id, title: told?.title, body: told?.body, created: t.clock.now().toISOString(), fresh: true, link: told?.link });
      expect(await list(buyer)).toEqual({ count: 0, items: [] });

      const bellEvents = events.filter((e) => e.event === 'notification' || e.event === 'unread');
      expect(bellEvents).toEqual([
        { channel: `private-user-${seller.username}`, event: 'notification', data: item },
        { channel: `private-user-${seller.username}`, event: 'unread', data: { count: 1 } },
      ]);
      await act(t, buyer, 'cancel', channel);
    });

    it('tells the owner of a buy offer, who buys, to pay when a seller takes it', async () => {
      const owner = await trader(t);
      const buyOffer = await sellOffer(t, owner, { offer_type: 'buy' });
      const taker = await trader(t, { BTC: '1' });
      await bindDevice(t, owner);
      await bindDevice(t, taker);
      const since = await mark();
      const channel = await openTrade(t, taker, buyOffer, '97', 'Revolut');
      expect(await whoSince(since, owner, taker)).toEqual([[owner.username, 'trade_opened']]);
      expect((await toldSince(since))[0]?.body).toBe(
        `${taker.username} is selling you 0.00099000 BTC for 97.00 EUR on your offer. Pay by Revolut within 30 minutes and mark it paid in the chat.`,
      );
      await act(t, owner, 'cancel', channel);
    });

    it('mark_paid tells the seller, release_coin the buyer', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      let since = await mark();
      expect((await act(t, buyer, 'mark_paid', channel)).status).toBe(200);
      expect(await whoSince(since, seller, buyer)).toEqual([[seller.username, 'payment_marked']]);
      expect((await toldSince(since))[0]).toMatchObject({
        title: 'Payment marked as sent',
        body: `${buyer.username} says they paid 97.00 EUR. Check that it has arrived, then release 0.00100000 BTC.`,
      });
      since = await mark();
      expect((await act(t, seller, 'release_coin', channel)).status).toBe(200);
      expect(await whoSince(since, seller, buyer)).toEqual([[buyer.username, 'coin_released']]);
      expect((await toldSince(since))[0]).toMatchObject({
        title: 'Coin released',
        body: `${seller.username} released 0.00099000 BTC to you. It is in your wallet, and the trade is completed.`,
      });
    });

    it('cancel tells the other party, whichever cancelled', async () => {
      for (const [canceller, other] of [
        [buyer, seller],
        [seller, buyer],
      ] as const) {
        const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
        const since = await mark();
        expect((await act(t, canceller, 'cancel', channel)).status).toBe(200);
        expect(await whoSince(since, seller, buyer)).toEqual([[other.username, 'trade_cancelled']]);
        expect((await toldSince(since))[0]?.body).toContain(`${canceller.username} cancelled the trade of 0.00099000 BTC for 97.00 EUR.`);
      }
    });

    it('raise_dispute tells the other party, with the reason', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      await act(t, buyer, 'mark_paid', channel);
      const since = await mark();
      expect((await act(t, seller, 'raise_dispute', channel, 'No payment arrived')).status).toBe(200);
      expect(await whoSince(since, seller, buyer)).toEqual([[buyer.username, 'dispute_raised']]);
      expect((await toldSince(since))[0]?.body).toMatch(new RegExp(`^${seller.username} raised a dispute .* Reason: No payment arrived$`));
    });

    it('the payment window running out tells both parties', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const since = await mark();
      t.clock.advance(t.config.paymentWindowMinutes * MINUTE + 1000);
      expect(await t.app.trades.sweep()).toBe(1);
      expect(await whoSince(since, seller, buyer)).toEqual([
        [buyer.username, 'trade_expired'],
        [seller.username, 'trade_expired'],
      ]);
      expect((await toldSince(since))[0]?.link).toBe(`/chat?channel=${encodeURIComponent(channel)}`);
    });

    it('an open the ledger refuses (the seller cannot cover it) tells nobody', async () => {
      const poor = await trader(t, { BTC: '0.0001' });
      const poorOffer = await sellOffer(t, poor);
      const since = await mark();
      expect((await open(t, buyer, poorOffer, '970', 'SEPA')).status).toBe(409);
      expect(await toldSince(since)).toEqual([]);
    });

    it('wakes the push worker once per announcement; a failing publisher or worker never fails the request', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const kick = vi.spyOn(t.app.push, 'kick');
      try {
        expect((await act(t, buyer, 'mark_paid', channel)).status).toBe(200);
        expect(kick).toHaveBeenCalledTimes(1);
      } finally {
        kick.mockRestore();
      }
      const publish = vi.spyOn(t.app.realtime, 'publish').mockImplementation((_channel, event) => {
        if (event === 'notification') throw new Error('realtime down');
      });
      const broken = vi.spyOn(t.app.push, 'kick').mockImplementation(() => {
        throw new Error('worker gone');
      });
      try {
        const since = await mark();
        expect(await act(t, seller, 'release_coin', channel)).toEqual({ status: 200, body: { success: true, info: 'Coin released. The trade is completed.' } });
        // Committed with the change, and in the push outbox, whatever happened after.
        expect(await whoSince(since, seller, buyer)).toEqual([[buyer.username, 'coin_released']]);
      } finally {
        publish.mockRestore();
        broken.mockRestore();
      }
    });

    it('a trader with no device bound: told on the bell, nothing in the push outbox, the push worker not woken', async () => {
      const deviceless = await trader(t);
      const channel = await openTrade(t, deviceless, offer, '97', 'SEPA');
      const kick = vi.spyOn(t.app.push, 'kick');
      try {
        const since = await mark();
        expect((await act(t, seller, 'cancel', channel)).status).toBe(200);
        const told = await toldSince(since);
        expect(told.map((row) => [row.user, row.kind, row.pushedTo])).toEqual([[deviceless.id, 'trade_cancelled', null]]);
        expect(kick).not.toHaveBeenCalled();
        expect((await list(deviceless)).count).toBe(1);
      } finally {
        kick.mockRestore();
      }
    });

    it('two cancels at once: one applies and exactly one notification is written, to the party who lost', async () => {
      const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
      const since = await mark();
      const [byBuyer, bySeller] = await Promise.all([act(t, buyer, 'cancel', channel), act(t, seller, 'cancel', channel)]);
      expect([byBuyer.status, bySeller.status].sort()).toEqual([200, 409]);
      const winner = byBuyer.status === 200 ? buyer : seller;
      const loser = winner === buyer ? seller : buyer;
      expect(await whoSince(since, seller, buyer)).toEqual([[loser.username, 'trade_cancelled']]);
    });
  });

  describe('chat: a message tells its recipient while they are offline, once per unread', () => {
    let seller: Trader;
    let buyer: Trader;
    let channel: string;
    beforeAll(async () => {
      seller = await trader(t, { BTC: '1' });
      buyer = await trader(t);
      channel = await openTrade(t, buyer, await sellOffer(t, seller), '97', 'SEPA');
    });
    const send = (who: Trader, text: string) =>
      t.post(`/api/market/chat/${channel}/`, { type: 'send_message', message_type: 'text', text }, { token: who.token });

    it('tells the offline seller of the first message; more messages add none until it is opened', async () => {
      let since = await mark();
      expect((await send(buyer, 'Hello, paying now')).status).toBe(200);
      expect(await whoSince(since, seller, buyer)).toEqual([[seller.username, 'chat_message']]);
      expect((await toldSince(since))[0]).toMatchObject({
        title: `New message from ${buyer.username}`,
        body: `${buyer.username}: Hello, paying now`,
        link: `/chat?channel=${encodeURIComponent(channel)}`,
      });
      const beforeOpening = await list(seller);
      const first = beforeOpening.items[0] as NotificationItem;
      // The seller's other unread one is the trade opened on their offer.
      expect(beforeOpening.count).toBe(2);
      expect((await send(buyer, 'Sent')).status).toBe(200);
      expect((await send(buyer, 'Did it arrive?')).status).toBe(200);
      expect(await whoSince(since, seller, buyer)).toEqual([[seller.username, 'chat_message']]);

      expect(await bell(seller, { type: 'open_one', id: first.id })).toEqual({ status: 200, body: { success: true, info: 1 } });
      since = await mark();
      expect((await send(buyer, 'Hello?')).status).toBe(200);
      expect(await whoSince(since, seller, buyer)).toEqual([[seller.username, 'chat_message']]);
    });

    it('tells nobody while the recipient has the app open (their user channel is occupied)', async () => {
      const client = realtimeClientOf(buyer, listeningPort(t));
      clients.push(client);
      const own = client.subscribe(`private-user-${buyer.username}`);
      await new Promise<void>((resolve) => own.bind('pusher:subscription_succeeded', () => resolve()));
      const since = await mark();
      expect((await send(seller, 'Waiting for your payment')).status).toBe(200);
      expect(await toldSince(since)).toEqual([]);
      client.disconnect();
    });
  });

  describe('wallets: deposits credited and withdrawals completed tell their owner', () => {
    it('a deposit from the chain, once credited (not when first seen)', async () => {
      const owner = await trader(t);
      const address = await depositAddress(t, owner.id, 'bitcoin');
      const since = await mark();
      await depositOnChain(t, 'bitcoin', address, '0.01');
      expect(await toldSince(since)).toEqual([]);
      await mine(t, DEPOSIT_CONFIRMATIONS);
      expect(await whoSince(since, owner)).toEqual([[owner.username, 'deposit_credited']]);
      expect((await toldSince(since))[0]).toMatchObject({
        title: 'Deposit credited',
        body: '0.01000000 BTC arrived on bitcoin and is now in your wallet, ready to trade or withdraw.',
        link: '/wallets/transactions',
      });
    });

    it('a withdrawal, once the chain has it in a block', async () => {
      const owner = await trader(t, { BTC: '1' });
      const since = await mark();
      await pendingWithdrawal(t, { userId: owner.id, ticker: 'BTC', network: 'bitcoin', address: OUTSIDE_BITCOIN, amount: '0.1', fee: '0.00005' });
      await mine(t);
      expect(await whoSince(since, owner)).toEqual([[owner.username, 'withdrawal_completed']]);
      expect((await toldSince(since))[0]).toMatchObject({
        title: 'Withdrawal completed',
        body: `0.10000000 BTC was sent on bitcoin to ${OUTSIDE_BITCOIN}. The transaction is in a block; the history shows its ID.`,
      });
    });

    it("an internal transfer tells its recipient, not the sender who just confirmed it", async () => {
      const sender = await trader(t, { BTC: '1' });
      const recipient = await trader(t);
      const address = await depositAddress(t, recipient.id, 'bitcoin');
      const since = await mark();
      const wallet = (body: unknown) => t.post('/api/user/wallet/', body, { token: sender.token });
      expect((await wallet({ type: 'preview_withdrawal', amount: '0.2', mode: 'crypto', recipient: address, ticker: 'BTC', network: 'bitcoin' })).status).toBe(200);
      expect((await wallet({ type: 'confirm_withdrawal' })).status).toBe(200);
      expect(await whoSince(since, sender, recipient)).toEqual([[recipient.username, 'deposit_credited']]);
      expect((await toldSince(since))[0]?.body).toBe(`${sender.username} sent you 0.20000000 BTC. It is in your wallet now.`);
    });
  });

  describe('security: sign-ins, password resets and two-factor changes tell the account owner', () => {
    it('a sign-in without two-factor, naming the device and the address', async () => {
      const owner = await trader(t);
      const password = 'correct-horse-9';
      const since = await mark();
      expect((await login(t, owner.username, password, { ip: '203.0.113.9' })).status).toBe(200);
      expect(await whoSince(since, owner)).toEqual([[owner.username, 'sign_in']]);
      expect((await toldSince(since))[0]).toMatchObject({
        title: 'New sign-in',
        body: 'Your account was signed in from vitest at 203.0.113.9. If this was not you, reset your password now and turn on two-factor authentication.',
        link: '/settings/security',
      });
      // A wrong password signs nobody in and tells nobody.
      const after = await mark();
      expect((await login(t, owner.username, 'wrong-horse-9')).status).toBe(400);
      expect(await toldSince(after)).toEqual([]);
    });

    it('two-factor on, a two-factor sign-in (not its password step), and two-factor off', async () => {
      const since = await mark();
      const owner = await signUpWithTwoFactor(t);
      const ownerTrader = { id: (await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [owner.username])).id, username: owner.username } as Trader;
      expect(await whoSince(since, ownerTrader)).toEqual([[owner.username, 'two_factor_changed']]);
      expect((await toldSince(since))[0]?.title).toBe('Two-factor authentication on');

      const step = await mark();
      const first = await login(t, owner.username, owner.password);
      expect(first.body.info).toMatchObject({ two_factor: true });
      expect(await toldSince(step)).toEqual([]);
      const interim = (first.body.info as { token: string }).token;
      const second = await t.post('/api/security/two_factor_login/', { token: interim, code: await codeAt(t, owner.secret), device: 'phone' });
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(await whoSince(step, ownerTrader)).toEqual([[owner.username, 'sign_in']]);
      expect((await toldSince(step))[0]?.body).toMatch(/^Your account was signed in from phone at /);

      t.clock.advance(2 * 30_000);
      const off = await mark();
      const disabled = await t.post('/api/security/two_factor/', { type: 'disable', code: await codeAt(t, owner.secret), password: owner.password }, { token: owner.token });
      expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
      expect(await whoSince(off, ownerTrader)).toEqual([[owner.username, 'two_factor_changed']]);
      expect((await toldSince(off))[0]?.title).toBe('Two-factor authentication off');
    });

    it('a password reset, and nothing for a reset refused for a wrong code', async () => {
      const owner = await trader(t);
      const { email } = await t.app.db.one<{ email: string }>('SELECT email FROM users WHERE id = $1', [owner.id]);
      expect((await t.post('/api/security/reset_password/', { type: 'request', email })).status).toBe(200);
      const code = lastCodeFor(t, email);
      const password = 'battery-staple-7';
      const since = await mark();
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      expect((await t.post('/api/security/reset_password/', { type: 'reset', email, code: wrong, password, confirmPassword: password })).status).toBe(400);
      expect(await toldSince(since)).toEqual([]);
      expect((await t.post('/api/security/reset_password/', { type: 'reset', email, code, password, confirmPassword: password })).status).toBe(200);
      expect(await whoSince(since, owner)).toEqual([[owner.username, 'password_changed']]);
      expect((await toldSince(since))[0]?.title).toBe('Password changed');
    });
  });

  describe('POST /api/user/notifications/', () => {
    let owner: Trader;
    let other: Trader;
    const drafts = (userId: string, n: number): NotificationDraft[] =>
      Array.from({ length: n }, (_, index) => ({ userId, kind: 'deposit_credited', title: `Deposit ${index + 1}`, body: `Body ${index + 1}`, link: '/wallets/transactions' }));
    beforeAll(async () => {
      owner = await trader(t);
      other = await trader(t);
      // Through the producers' own seam, one at a time so each has its own moment.
      for (const draft of drafts(owner.id, NOTIFICATIONS_LIST_LIMIT + 2)) {
        t.clock.advance(1000);
        await notify(t.app.db, [draft], t.clock.now());
      }
      await notify(t.app.db, drafts(other.id, 1), t.clock.now());
    });

    it(`list: the unread count and the newest ${NOTIFICATIONS_LIST_LIMIT}, newest first`, async () => {
      const shown = await list(owner);
      expect(shown.count).toBe(NOTIFICATIONS_LIST_LIMIT + 2);
      expect(shown.items).toHaveLength(NOTIFICATIONS_LIST_LIMIT);
      expect(shown.items.map((item) => item.title)).toEqual(Array.from({ length: NOTIFICATIONS_LIST_LIMIT }, (_, i) => `Deposit ${NOTIFICATIONS_LIST_LIMIT + 2 - i}`));
      const created = shown.items.map((item) => item.created);
      expect([...created].sort().reverse()).toEqual(created);
      expect(shown.items.every((item) => item.fresh && item.link === '/wallets/transactions')).toBe(true);
    });

    it("open_one: one of the caller's read, the new count answered; again changes nothing", async () => {
      const [newest] = (await list(owner)).items;
      expect(await bell(owner, { type: 'open_one', id: newest?.id })).toEqual({ status: 200, body: { success: true, info: NOTIFICATIONS_LIST_LIMIT + 1 } });
      expect(await bell(owner, { type: 'open_one', id: newest?.id })).toEqual({ status: 200, body: { success: true, info: NOTIFICATIONS_LIST_LIMIT + 1 } });
      const shown = await list(owner);
      expect(shown.count).toBe(NOTIFICATIONS_LIST_LIMIT + 1);
      expect(shown.items[0]).toMatchObject({ id: newest?.id, fresh: false });
      expect(shown.items[1]?.fresh).toBe(true);
    });

    it("open_one on someone else's notification, or one that does not exist: 404, and nothing changes", async () => {
      const theirs = (await list(other)).items[0] as NotificationItem;
      expect(theirs.fresh).toBe(true);
      const before = await list(owner);
      const notFound = { status: 404, body: { success: false, info: 'No such notification' } };
      expect(await bell(owner, { type: 'open_one', id: theirs.id })).toEqual(notFound);
      expect(await bell(owner, { type: 'open_one', id: 2 ** 52 })).toEqual(notFound);
      expect(await list(other)).toEqual({ count: 1, items: [theirs] });
      expect(await list(owner)).toEqual(before);
    });

    it("open_all: every one of the caller's read (older than the list too), nobody else's", async () => {
      expect(await bell(owner, { type: 'open_all' })).toEqual({ status: 200, body: { success: true, info: 0 } });
      const shown = await list(owner);
      expect(shown.count).toBe(0);
      expect(shown.items.some((item) => item.fresh)).toBe(false);
      const { count } = await t.app.db.one<{ count: number }>('SELECT count(*)::integer AS count FROM notifications WHERE user_id = $1 AND fresh', [owner.id]);
      expect(count).toBe(0);
      expect((await list(other)).count).toBe(1);
    });

    it('refuses a bad id or type with 400, and a caller without a session with 401', async () => {
      expect((await bell(owner, { type: 'open_one', id: 'x' })).status).toBe(400);
      expect((await bell(owner, { type: 'open_one', id: 0 })).status).toBe(400);
      expect((await bell(owner, { type: 'open_one' })).status).toBe(400);
      expect((await bell(owner, { type: 'delete' })).status).toBe(400);
      expect((await t.post('/api/user/notifications/', { type: 'list' })).status).toBe(401);
    });
  });
});
