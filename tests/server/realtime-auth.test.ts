import Pusher from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAppConfig } from '../../contracts/chat.ts';
import { BUILT_IN_APP_ID, BUILT_IN_KEY } from '../../server/src/infra/realtime/settings.ts';
import { createTestApp, TEST_WALLET_XPUBS, type TestApp } from '../support/server.ts';
import { TEST_VAPID_KEYS } from '../support/push.ts';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import { sessionIdOf } from '../support/server-flows.ts';
import { disputedTrade, moderator, openTrade, sellOffer, trader, type Trader } from '../support/server-trades.ts';

const SOCKET = '1234.5678';

describe('GET /api/config', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind one trusted proxy, so Fastify would believe the proxy's X-Forwarded-Host: the endpoint must not.
    t = await createTestApp('pglite', { env: { PUBLIC_URL: 'https://peerex.example', TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  it('tells the web app, without a session, that the socket is the built-in one on this origin, and that the push service is at PUBLIC_URL', async () => {
    for (const headers of [
      { host: 'peerex.example' },
      { host: 'localhost:3000', 'x-forwarded-host': 'phish.example', 'x-forwarded-proto': 'http' },
      { host: '127.0.0.1:9999', 'x-forwarded-host': 'phish.example:8443' },
    ]) {
      const answer = await t.app.inject({ method: 'GET', url: '/api/config', headers });
      expect(answer.statusCode).toBe(200);
      const body = answer.json();
      expect(webAppConfig.safeParse(body.info).success).toBe(true);
      expect(body, JSON.stringify(headers)).toEqual({
        success: true,
        info: {
          realtime: { key: BUILT_IN_KEY, cluster: null, ws_host: null, ws_port: null, force_tls: false },
          push: { instance_id: 'peerex', endpoint: 'https://peerex.example/push' },
          flow_atlas: { open_to: 'everyone', live: true },
        },
      });
    }
  });

  it('opens the flow atlas to moderators only in production, to everyone with FLOW_ATLAS=on, and live nowhere there', async () => {
    const production = { NODE_ENV: 'production', ...TEST_WALLET_XPUBS, ...TEST_VAPID_KEYS };
    const closed = await createTestApp('pglite', { env: production });
    const open = await createTestApp('pglite', { env: { ...production, FLOW_ATLAS: 'on' } });
    try {
      expect((await closed.get<{ flow_atlas: unknown }>('/api/config')).body.info.flow_atlas).toEqual({ open_to: 'moderators', live: false });
      expect((await open.get<{ flow_atlas: unknown }>('/api/config')).body.info.flow_atlas).toEqual({ open_to: 'everyone', live: false });
    } finally {
      await Promise.all([closed.close(), open.close()]);
    }
  });

  it('names an external server when PUSHER_HOST is set, and hosted Pusher by its cluster', async () => {
    const soketi = await createTestApp('pglite', {
      env: { PUSHER_APP_ID: 'app', PUSHER_KEY: 'public-key', PUSHER_SECRET: 'secret', PUSHER_HOST: 'soketi.example', PUSHER_PORT: '6001' },
    });
    const hosted = await createTestApp('pglite', { env: { PUSHER_APP_ID: '1', PUSHER_KEY: 'k', PUSHER_SECRET: 's', PUSHER_CLUSTER: 'eu' } });
    try {
      expect((await soketi.get<{ realtime: unknown }>('/api/config')).body.info.realtime).toEqual({
        key: 'public-key',
        cluster: null,
        ws_host: 'soketi.example',
        ws_port: 6001,
        force_tls: false,
      });
      expect((await hosted.get<{ realtime: unknown }>('/api/config')).body.info.realtime).toEqual({
        key: 'k',
        cluster: 'eu',
        ws_host: null,
        ws_port: null,
        force_tls: true,
      });
      // No socket server runs then: nothing answers the trigger API on this port.
      expect((await soketi.app.inject({ method: 'POST', url: `/apps/${BUILT_IN_APP_ID}/events` })).statusCode).toBe(404);
    } finally {
      await soketi.close();
      await hosted.close();
    }
  });
});

describe('POST /api/realtime/auth/', () => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  let stranger: Trader;
  let channel: string;
  let sdk: Pusher;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    seller = await trader(t, { BTC: '1' });
    buyer = await trader(t);
    stranger = await trader(t);
    channel = await openTrade(t, buyer, await sellOffer(t, seller), '97', 'SEPA');
    const { app } = t.app.realtime.settings;
    sdk = new Pusher({ appId: app.id, key: app.key, secret: app.secret, host: 'localhost' });
  });
  afterAll(() => t.close());

  /** As pusher-js sends it: form-encoded, socket_id first. */
  const authorize = (token: string | undefined, channelName: string, as: 'form' | 'json' = 'form') =>
    t.app.inject({
      method: 'POST',
      url: '/api/realtime/auth/',
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        'content-type': as === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
      },
      payload:
        as === 'form'
          ? `socket_id=${encodeURIComponent(SOCKET)}&channel_name=${encodeURIComponent(channelName)}`
          : JSON.stringify({ socket_id: SOCKET, channel_name: channelName }),
    });

  /**
   * What the pusher SDK signs for `who`'s session: `socket_id:channel:channel_data`, channel_data naming the session,
   * so that the built-in server ties the socket to it and closes it when the session ends.
   */
  const signedFor = async (who: Trader, name: string) => {
    const signed = sdk.authorizeChannel(SOCKET, name, { session: await sessionIdOf(t, who.token) } as unknown as Pusher.PresenceChannelData);
    expect(signed.channel_data).toMatch(/^\{"session":"\d+"\}$/);
    return signed;
  };

  it("signs a trade's channel for its buyer and its seller, form-encoded or JSON, as the pusher SDK would", async () => {
    for (const who of [buyer, seller]) {
      const expected = await signedFor(who, `private-${channel}`);
      for (const as of ['form', 'json'] as const) {
        const answer = await authorize(who.websocketToken, `private-${channel}`, as);
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toEqual(expected);
      }
    }
  });

  it("signs a trader's own user channel, with the websocket token or the session token", async () => {
    for (const token of [buyer.websocketToken, buyer.token]) {
      const answer = await authorize(token, `private-user-${buyer.username}`);
      expect(answer.json()).toEqual(await signedFor(buyer, `private-user-${buyer.username}`));
    }
  });

  it("refuses (403) a stranger on a trade's channel, another trader's user channel, and anything the product does not use", async () => {
    const refused = { success: false, code: 'realtime.channel_not_allowed', info: 'You may not listen on this channel.' };
    for (const [who, name] of [
      [stranger, `private-${channel}`],
      [buyer, `private-user-${seller.username}`],
      [buyer, `private-user-${buyer.username.toUpperCase()}`],
      [buyer, `private-${'A'.repeat(22)}`],
      [buyer, `presence-${channel}`],
      [buyer, `private-encrypted-${channel}`],
      [buyer, 'coin_price'],
      [buyer, `private-${channel}x`],
    ] as const) {
      const answer = await authorize(who.websocketToken, name);
      expect(answer.statusCode, name).toBe(403);
      expect(answer.json()).toEqual(refused);
    }
  });

  it("signs private-moderation for moderators only, and a trade's channel for a moderator once it was disputed (open or settled)", async () => {
    const mod = await moderator(t);
    const refused = { success: false, code: 'realtime.channel_not_allowed', info: 'You may not listen on this channel.' };
    expect((await authorize(mod.websocketToken, 'private-moderation')).json()).toEqual(await signedFor(mod, 'private-moderation'));
    for (const who of [buyer, seller, stranger]) {
      const answer = await authorize(who.websocketToken, 'private-moderation');
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual(refused);
    }
    // Never disputed: none of a moderator's business.
    expect((await authorize(mod.websocketToken, `private-${channel}`)).statusCode).toBe(403);
    const offer = await sellOffer(t, seller);
    const disputed = await disputedTrade(t, { buyer, seller, offer });
    expect((await authorize(mod.websocketToken, `private-${disputed}`)).json()).toEqual(await signedFor(mod, `private-${disputed}`));
    expect((await authorize(stranger.websocketToken, `private-${disputed}`)).statusCode).toBe(403);
    const settled = await t.post('/api/market/moderation/', { type: 'resolve', channel: disputed, outcome: 'refund', resolution: 'No payment' }, { token: mod.token });
    expect(settled.status).toBe(200);
    expect((await authorize(mod.websocketToken, `private-${disputed}`)).statusCode).toBe(200);
    // A role taken back ends the session, so its socket credential signs nothing more.
    expect((await setUserRole(t.app.db, mod.username, 'trader')).ok).toBe(true);
    expect((await authorize(mod.websocketToken, 'private-moderation')).statusCode).toBe(401);
    expect((await authorize(mod.websocketToken, `private-${disputed}`)).statusCode).toBe(401);
  });

  it('refuses (401) without a token, with an unknown one, and once the session ended', async () => {
    const expired = { success: false, code: 'session.expired', info: 'Session expired' };
    for (const token of [undefined, 'not-a-token', 'x'.repeat(43)]) {
      const answer = await authorize(token, `private-${channel}`);
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual(expired);
    }
    const leaving = await trader(t);
    await t.post('/api/security/logout/', { device: 'test' }, { token: leaving.token });
    expect((await authorize(leaving.websocketToken, `private-user-${leaving.username}`)).statusCode).toBe(401);
  });

  it('refuses a body without a socket id or channel, or with a socket id pusher would not make (400)', async () => {
    const post = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/realtime/auth/',
        headers: { authorization: `Bearer ${buyer.websocketToken}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    expect((await post(`channel_name=private-${channel}`)).json()).toEqual({ success: false, code: 'request.invalid_field', info: 'socket_id is required' });
    expect((await post(`socket_id=${SOCKET}`)).statusCode).toBe(400);
    expect((await post(`socket_id=abc&channel_name=private-${channel}`)).json()).toEqual({ success: false, code: 'request.invalid_field', info: 'socket_id must look like 123.456' });
  });
});

describe('a deployment with an external realtime server', () => {
  it('signs private channels as Pusher checks them, without channel_data (the external server closes no session\'s sockets)', async () => {
    const secret = 'secret-of-the-external-server';
    const t = await createTestApp('pglite', { env: { PUSHER_APP_ID: 'app', PUSHER_KEY: 'k', PUSHER_SECRET: secret, PUSHER_HOST: 'soketi.example' } });
    try {
      const who = await trader(t);
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/realtime/auth/',
        headers: { authorization: `Bearer ${who.websocketToken}`, 'content-type': 'application/json' },
        payload: { socket_id: SOCKET, channel_name: `private-user-${who.username}` },
      });
      const external = new Pusher({ appId: 'app', key: 'k', secret, host: 'soketi.example' });
      expect(answer.json()).toEqual(external.authorizeChannel(SOCKET, `private-user-${who.username}`));
      expect(answer.json()).not.toHaveProperty('channel_data');
    } finally {
      await t.close();
    }
  });

  it("may open sockets to that server's origin, and only to it besides their own", async () => {
    const t = await createTestApp('pglite', {
      env: { PUSHER_APP_ID: 'app', PUSHER_KEY: 'k', PUSHER_SECRET: 's', PUSHER_HOST: 'soketi.example', PUSHER_PORT: '443' },
    });
    try {
      const csp = String((await t.app.inject({ method: 'GET', url: '/api/config' })).headers['content-security-policy']);
      expect(csp).toContain("connect-src 'self' wss://soketi.example:443");
    } finally {
      await t.close();
    }
  });
});
