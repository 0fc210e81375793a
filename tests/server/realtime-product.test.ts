import PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, PriceEvent, TradeEvent } from '../../contracts/chat.ts';
import type { Conversation } from '../../contracts/trade.ts';
import { createTestApp, type TestApp } from '../support/server.ts';
import { act, conversationsOf, listeningPort, openTrade, realtimeClientOf, sellOffer, trader, type Trader } from '../support/server-trades.ts';

/** Resolves with the first value `subscribe` hands its callback, or fails after `ms`. */
function next<T>(subscribe: (resolve: (value: T) => void) => void, what: string, ms = 5000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    subscribe((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/**
 * The product as a browser meets it: unmodified pusher-js (its Node build) against the built-in server on the
 * product's own port, authorized by POST /api/realtime/auth/ with the trader's websocket token.
 */
describe('realtime through the product (pusher-js against the built-in server)', () => {
  let t: TestApp;
  let port: number;
  let seller: Trader;
  let buyer: Trader;
  let stranger: Trader;
  let channel: string;
  const clients: PusherClient[] = [];

  const connect = (who: Trader) => {
    const client = realtimeClientOf(who, port);
    clients.push(client);
    return client;
  };
  const subscribed = (client: PusherClient, name: string) => {
    const channelObject = client.subscribe(name);
    return next<void>((resolve) => channelObject.bind('pusher:subscription_succeeded', () => resolve()), `${name} subscribed`).then(
      () => channelObject,
    );
  };

  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = listeningPort(t);
    seller = await trader(t, { BTC: '1' });
    buyer = await trader(t);
    stranger = await trader(t);
    channel = await openTrade(t, buyer, await sellOffer(t, seller), '97', 'SEPA');
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await t.close();
  });

  it("marks a trader online in the partner's conversations while their user channel is open", async () => {
    expect((await conversationsOf(t, seller)).body.info.find((c) => c.channel === channel)?.online).toBe(false);
    const client = connect(buyer);
    await subscribed(client, `private-user-${buyer.username}`);
    expect((await conversationsOf(t, seller)).body.info.find((c) => c.channel === channel)?.online).toBe(true);
    client.unsubscribe(`private-user-${buyer.username}`);
    await expect.poll(async () => (await conversationsOf(t, seller)).body.info.find((c) => c.channel === channel)?.online).toBe(false);
  });

  it("delivers the partner's messages, typing and the trade's events live on its private channel", async () => {
    const client = connect(buyer);
    const trade = await subscribed(client, `private-${channel}`);
    const message = next<ChatMessage>((resolve) => trade.bind('new_message', resolve), 'new_message');
    const sent = await t.post<ChatMessage>(`/api/market/chat/${channel}/`, { type: 'send_message', message_type: 'text', text: 'Sent the money' }, { token: seller.token });
    expect(await message).toEqual(sent.body.info);

    const typing = next<{ username: string }>((resolve) => trade.bind('typing', resolve), 'typing');
    await t.post(`/api/market/chat/${channel}/`, { type: 'typing' }, { token: seller.token });
    expect(await typing).toEqual({ username: seller.username });

    const marked = next<TradeEvent>((resolve) => trade.bind('payment_marked', resolve), 'payment_marked');
    await act(t, buyer, 'mark_paid', channel);
    expect(await marked).toMatchObject({ channel, status: 'pending', buyer_paid: true, dispute_raised: false, message: { sender: null } });
  });

  it("pushes conversation changes on the trader's own channel", async () => {
    const client = connect(seller);
    const own = await subscribed(client, `private-user-${seller.username}`);
    const changed = next<Conversation>((resolve) => own.bind('conversation', resolve), 'conversation');
    await act(t, seller, 'release_coin', channel);
    expect(await changed).toMatchObject({ channel, status: 'completed', partner: buyer.username, partner_type: 'buyer' });
  });

  it("refuses a stranger on a trade's channel: the subscription fails with 403 and the socket stays up", async () => {
    const client = connect(stranger);
    const refused = client.subscribe(`private-${channel}`);
    const error = await next<{ status: number }>((resolve) => refused.bind('pusher:subscription_error', resolve), 'subscription_error');
    expect(error.status).toBe(403);
    await subscribed(client, `private-user-${stranger.username}`);
    expect(client.connection.state).toBe('connected');
  });

  it('publishes every coin on coin_price at each price tick', async () => {
    const client = connect(buyer);
    const prices = await subscribed(client, 'coin_price');
    const received: PriceEvent[] = [];
    const coins = (await t.app.db.query<{ ticker: string }>('SELECT ticker FROM coins')).length;
    const all = next<void>((resolve) => prices.bind('price', (event: PriceEvent) => received.push(event) === coins && resolve()), 'prices');
    await t.app.prices.tick();
    await all;
    expect(new Set(received.map((event) => event.ticker)).size).toBe(coins);
    for (const event of received) expect(event.price).toBe(t.app.prices.current().get(event.ticker));
  });
});
