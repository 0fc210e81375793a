import PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../contracts/chat.ts';
import { createTestApp, type TestApp } from '../support/server.ts';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import {
  conversationsOf,
  listeningPort,
  moderator,
  openTrade,
  realtimeClientOf,
  sellOffer,
  signedInAgain,
  trader,
  type Trader,
} from '../support/server-trades.ts';

/** Two server processes need one database and one Redis: checked whenever both are given (CI has them). */
// Without them the suite is reported as skipped: an empty `describe.each([])` would fail the file as having no tests.
const redisUrl = process.env.DATABASE_URL ? process.env.REDIS_URL : undefined;

describe.skipIf(redisUrl === undefined)('two server processes behind one Redis behave as one realtime server', () => {
  let first: TestApp;
  let second: TestApp;
  let secondPort: number;
  let seller: Trader;
  let buyer: Trader;
  let channel: string;
  const clients: PusherClient[] = [];

  beforeAll(async () => {
    first = await createTestApp('postgres', { env: { REDIS_URL: redisUrl ?? '', MAX_OPEN_TRADES: '100' } });
    second = await createTestApp('pglite', { env: { REDIS_URL: redisUrl ?? '', DATABASE_URL: first.config.databaseUrl ?? '' } });
    await second.app.listen({ host: '127.0.0.1', port: 0 });
    secondPort = listeningPort(second);
    seller = await trader(first, { BTC: '1' });
    buyer = await trader(first);
    channel = await openTrade(first, buyer, await sellOffer(first, seller), '97', 'SEPA');
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await second?.close();
    await first?.close();
  });

  /** The buyer's browser, connected to the second process. */
  const buyerOnSecond = () => {
    const client = realtimeClientOf(buyer, secondPort);
    clients.push(client);
    return client;
  };
  const subscribed = (client: PusherClient, name: string) =>
    new Promise<ReturnType<PusherClient['subscribe']>>((resolve, reject) => {
      const subscription = client.subscribe(name);
      subscription.bind('pusher:subscription_succeeded', () => resolve(subscription));
      subscription.bind('pusher:subscription_error', reject);
    });

  it('delivers a message sent through the first process to a socket on the second, once', async () => {
    const client = buyerOnSecond();
    const trade = await subscribed(client, `private-${channel}`);
    const received: ChatMessage[] = [];
    trade.bind('new_message', (message: ChatMessage) => received.push(message));
    const sent = await first.post<ChatMessage>(
      `/api/market/chat/${channel}/`,
      { type: 'send_message', message_type: 'text', text: 'Across processes' },
      { token: seller.token },
    );
    expect(sent.status).toBe(200);
    await expect.poll(() => received.length).toBe(1);
    expect(received).toEqual([sent.body.info]);
    // Nothing more arrives: the first process's own copy is not delivered a second time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toHaveLength(1);
  });

  /** A socket on the second process listening on its user channel, with what it heard and how it was closed. */
  const listening = async (who: Trader) => {
    const client = realtimeClientOf(who, secondPort);
    clients.push(client);
    const heard: string[] = [];
    const closes: number[] = [];
    client.connection.bind('error', (error: { type?: string; data?: { code?: unknown } }) => {
      if (error.type === 'PusherError' && typeof error.data?.code === 'number') closes.push(error.data.code);
    });
    const channel = await subscribed(client, `private-user-${who.username}`);
    channel.bind('notification', (item: { title: string }) => heard.push(item.title));
    return { client, heard, closes };
  };

  it("closes the thief's socket on the second process when the owner signs out everywhere else on the first, before he hears of it", async () => {
    const owner = await trader(first);
    const thief = await signedInAgain(first, owner);
    const [ownerSocket, thiefSocket] = [await listening(owner), await listening(thief)];
    expect((await first.post('/api/security/sessions/', { type: 'sign_out_others' }, { token: owner.token })).status).toBe(200);
    await expect.poll(() => thiefSocket.closes, { timeout: 2000, interval: 20 }).toContain(4009);
    await expect.poll(() => ownerSocket.heard).toContain('Signed out everywhere else');
    expect(thiefSocket.heard).toEqual([]);
    expect(ownerSocket.client.connection.state).toBe('connected');
  });

  it("closes a moderator's sockets on every process when the command line takes the role back", async () => {
    const mod = await moderator(first);
    const socket = await listening(mod);
    expect((await setUserRole(first.app.db, mod.username, 'trader')).ok).toBe(true);
    await expect.poll(() => socket.closes, { timeout: 2000, interval: 20 }).toContain(4009);
  });

  it("knows on the first process that the buyer is online on the second, and when they leave", async () => {
    const online = async () => (await conversationsOf(first, seller)).body.info.find((c) => c.channel === channel)?.online;
    const client = buyerOnSecond();
    await subscribed(client, `private-user-${buyer.username}`);
    await expect.poll(online).toBe(true);
    client.disconnect();
    await expect.poll(online).toBe(false);
  });
});
