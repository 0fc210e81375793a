/**
 * Ending a session ends it everywhere (docs/rules.md "Sessions"): logout, "sign out everywhere else", a password
 * reset and a role change close that session's realtime sockets (4009) and unbind its push devices, and a Beams
 * token issued to it binds nothing more. The thief here holds a second session of the victim's account; each test
 * also shows the owner's own socket and device going on.
 */
import PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userChannelName } from '../../contracts/chat.ts';
import type { LoginResponse } from '../../contracts/security.ts';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import { beamsSdk, browserSubscription } from '../support/push.ts';
import { RawClient } from '../../packages/realtime/tests/support/clients.ts';
import { createTestApp, dbTargets, MINUTE, type DbTarget, type TestApp } from '../support/server.ts';
import { lastCodeFor, login, sessionIdOf, signUp } from '../support/server-flows.ts';
import { listeningPort, moderator, realtimeClientOf, signedInAgain, trader, type Trader } from '../support/server-trades.ts';

/** The contract's bound: a socket of an ended session is closed within this. */
const CLOSED_WITHIN_MS = 2000;
const SESSION_ENDED = 4009;
const FCM = 'https://fcm.googleapis.com/fcm/send/session-endings';

interface LiveSocket {
  client: PusherClient;
  /** Titles of the `notification` events it heard, in order. */
  heard: string[];
  /** Close codes pusher-js reported. */
  closes: number[];
}

/** An account and how to sign in to it: the owner's session, and the details a thief would have stolen. */
async function account(t: TestApp) {
  const signedUp = await signUp(t);
  const { id } = await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [signedUp.username]);
  const owner: Trader = { id, username: signedUp.username, token: signedUp.token, websocketToken: signedUp.user.websocket_token };
  return { owner, email: signedUp.email, password: signedUp.password };
}

/**
 * An app listening on a port (pusher-js needs one) for the describe block that calls this, handed to `started`;
 * answers the opener of live sockets on it, which are closed with it.
 */
function appPerBlock(target: DbTarget, started: (t: TestApp) => void) {
  let t: TestApp | undefined;
  let port = 0;
  const clients: PusherClient[] = [];
  beforeAll(async () => {
    t = await createTestApp(target);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = listeningPort(t);
    started(t);
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await t?.close();
  });

  /** A browser of `who` listening on `channel` (default: their own user channel) through unmodified pusher-js. */
  return async function liveSocket(who: Trader, channel = userChannelName(who.username)): Promise<LiveSocket> {
    const client = realtimeClientOf(who, port);
    clients.push(client);
    const socket: LiveSocket = { client, heard: [], closes: [] };
    client.connection.bind('error', (error: { type?: string; data?: { code?: unknown } }) => {
      if (error.type === 'PusherError' && typeof error.data?.code === 'number') socket.closes.push(error.data.code);
    });
    const subscription = client.subscribe(channel);
    subscription.bind('notification', (item: { title: string }) => socket.heard.push(item.title));
    await new Promise((resolve, reject) => {
      subscription.bind('pusher:subscription_succeeded', resolve);
      subscription.bind('pusher:subscription_error', reject);
    });
    return socket;
  };
}

/** A raw websocket on the app's realtime server, past connection_established, with its socket id. */
async function rawSocket(t: TestApp) {
  const port = listeningPort(t);
  const raw = RawClient.connect(port, `/app/${t.app.realtime.settings.app.key}?protocol=7&client=js&version=8.6.0&flash=false`);
  const established = await raw.next('pusher:connection_established');
  return { raw, socketId: (JSON.parse(established.data as string) as { socket_id: string }).socket_id };
}

/** What /api/realtime/auth/ signs for `who` on `socketId`: the signature and the channel_data naming their session. */
async function signed(t: TestApp, who: Trader, socketId: string, channel: string) {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/api/realtime/auth/',
    headers: { authorization: `Bearer ${who.websocketToken}` },
    payload: { socket_id: socketId, channel_name: channel },
  });
  expect(answer.statusCode).toBe(200);
  return answer.json<{ auth: string; channel_data: string }>();
}

describe.each(dbTargets)('ending a session on %s', (target) => {
  let t: TestApp;
  const liveSocket = appPerBlock(target, (started) => (t = started));

  /** A notification on `username`'s channel, as the bell publishes one. */
  const notifyLive = (username: string, title: string) =>
    t.app.realtime.publish(userChannelName(username), 'notification', { id: 1, title, body: '', created: new Date().toISOString(), fresh: true, link: null });

  /** Closed by the server with 4009 within the contract's bound, and pusher-js stays away. */
  async function expectEnded(socket: LiveSocket) {
    await expect.poll(() => socket.closes, { timeout: CLOSED_WITHIN_MS, interval: 20 }).toContain(SESSION_ENDED);
    await expect.poll(() => socket.client.connection.state, { timeout: CLOSED_WITHIN_MS, interval: 20 }).toBe('disconnected');
  }

  /** `socket` hears a notification published now, and `ended` does not (they would hear it in the same delivery). */
  async function onlyHears(socket: LiveSocket, ended: LiveSocket, username: string, title: string) {
    notifyLive(username, title);
    await expect.poll(() => socket.heard).toContain(title);
    // Both sockets are on this process: a frame for the ended one would have gone out with the live one's.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ended.heard).not.toContain(title);
  }

  it("'sign out everywhere else' closes the thief's socket before it hears anything more; the owner's goes on", async () => {
    const { owner } = await account(t);
    const thief = await signedInAgain(t, owner);
    const ownerSocket = await liveSocket(owner);
    const thiefSocket = await liveSocket(thief);
    notifyLive(owner.username, 'Before');
    await expect.poll(() => thiefSocket.heard).toContain('Before');

    const answer = await t.post<{ signed_out: number }>('/api/security/sessions/', { type: 'sign_out_others' }, { token: owner.token });
    expect(answer.body.info.signed_out).toBe(1);
    await expectEnded(thiefSocket);
    // The owner is told, on her socket only: the notification was published after the thief's socket closed.
    await expect.poll(() => ownerSocket.heard).toContain('Signed out everywhere else');
    expect(thiefSocket.heard).toEqual(['Before']);
    await onlyHears(ownerSocket, thiefSocket, owner.username, 'After');
    expect(ownerSocket.closes).toEqual([]);
    // The thief's credentials sign no new subscription either.
    expect((await t.app.inject({ method: 'POST', url: '/api/realtime/auth/', headers: { authorization: `Bearer ${thief.websocketToken}` }, payload: { socket_id: '1.2', channel_name: userChannelName(owner.username) } })).statusCode).toBe(401);
  });

  it('a password reset closes every socket of the account before "Password changed" is published', async () => {
    const { owner, email } = await account(t);
    const thief = await signedInAgain(t, owner);
    const ownerSocket = await liveSocket(owner);
    const thiefSocket = await liveSocket(thief);
    t.clock.advance(2 * MINUTE);
    expect((await t.post('/api/security/reset_password/', { type: 'request', email })).status).toBe(200);
    await t.app.mailer.settled();
    const password = 'brand-new-pass-1';
    const reset = await t.post('/api/security/reset_password/', { type: 'reset', email, code: lastCodeFor(t, email), password, confirmPassword: password });
    expect(reset.status).toBe(200);
    await expectEnded(thiefSocket);
    await expectEnded(ownerSocket);
    expect(thiefSocket.heard).not.toContain('Password changed');
    // Signed in again with the new password, the owner hears what comes next.
    const again = (await login(t, owner.username, password)).body.info as Extract<LoginResponse, { two_factor: false }>;
    const ownerAgain = await liveSocket({ ...owner, token: again.token, websocketToken: again.user.websocket_token });
    await onlyHears(ownerAgain, thiefSocket, owner.username, 'After the reset');
  });

  it("a logout closes that session's sockets; the owner's other session keeps hearing", async () => {
    const { owner } = await account(t);
    const laptop = await signedInAgain(t, owner);
    const ownerSocket = await liveSocket(owner);
    const laptopSocket = await liveSocket(laptop);
    expect((await t.post('/api/security/logout/', { device: 'vitest' }, { token: laptop.token })).status).toBe(200);
    await expectEnded(laptopSocket);
    await onlyHears(ownerSocket, laptopSocket, owner.username, 'After the logout');
  });

  it("a role change from the command line closes the moderator's sockets (the database tells this process); others stay", async () => {
    const mod = await moderator(t);
    const bystander = await trader(t);
    const desk = await liveSocket(mod, 'private-moderation');
    const own = await liveSocket(mod);
    const bystanderSocket = await liveSocket(bystander);
    // As `npm run user:role` does it: on the database, with no call to this server.
    expect((await setUserRole(t.app.db, mod.username, 'trader')).ok).toBe(true);
    await expectEnded(desk);
    await expectEnded(own);
    await onlyHears(bystanderSocket, own, bystander.username, 'After the role change');
  });

  it('a signature asked for before the session ended but used after it subscribes nothing: the socket is closed', async () => {
    const { owner } = await account(t);
    const thief = await signedInAgain(t, owner);
    const { raw, socketId } = await rawSocket(t);
    const channel = userChannelName(owner.username);
    const { auth, channel_data: channelData } = await signed(t, thief, socketId, channel);
    expect(JSON.parse(channelData)).toEqual({ session: await sessionIdOf(t, thief.token) });

    expect((await t.post('/api/security/sessions/', { type: 'sign_out_others' }, { token: owner.token })).status).toBe(200);
    raw.send({ event: 'pusher:subscribe', data: { channel, auth, channel_data: channelData } });
    expect((await raw.closed).code).toBe(SESSION_ENDED);
    expect(raw.messages.map((message) => message.event)).not.toContain('pusher_internal:subscription_succeeded');
  });

  it('a subscription whose channel_data was altered, added or dropped is refused (401), the socket staying', async () => {
    const { owner } = await account(t);
    const other = await account(t);
    const { raw, socketId } = await rawSocket(t);
    const channel = userChannelName(owner.username);
    const genuine = await signed(t, owner, socketId, channel);
    const otherSession = await sessionIdOf(t, other.owner.token);
    const forged = [
      { auth: genuine.auth, channel_data: JSON.stringify({ session: otherSession }) },
      { auth: genuine.auth, channel_data: `${genuine.channel_data} ` },
      { auth: genuine.auth },
      { auth: genuine.auth, channel_data: JSON.parse(genuine.channel_data) as unknown },
    ];
    for (const [i, data] of forged.entries()) {
      const from = raw.messages.length;
      raw.send({ event: 'pusher:subscribe', data: { channel, ...data } });
      const refused = await raw.next('pusher:subscription_error', from);
      expect(refused.channel, `forgery ${i}`).toBe(channel);
      expect(refused.data).toMatchObject({ type: 'AuthError', status: 401 });
    }
    const from = raw.messages.length;
    raw.send({ event: 'pusher:subscribe', data: { channel, ...genuine } });
    expect((await raw.next('pusher_internal:subscription_succeeded', from)).channel).toBe(channel);
    await raw.close();
  });

  describe('push devices', () => {
    /** A browser registered on the device API (one address per call, clear of the registration limit). */
    async function registered(name: string) {
      const sdk = beamsSdk(t.app, { ip: `198.51.100.${Math.floor(Math.random() * 250) + 1}` });
      const answer = await sdk.registerDevice(browserSubscription(`${FCM}-${name}-${Math.random()}`).token);
      expect(answer.status).toBe(200);
      return { sdk, id: answer.body.id };
    }
    const beamsTokenOf = async (who: Trader) =>
      (
        await t.app.inject({ method: 'GET', url: `/api/push/beams-auth/?user_id=${who.username}`, headers: { authorization: `Bearer ${who.token}` } })
      ).json<{ token: string }>().token;
    const deviceRow = (id: string) =>
      t.app.db.one<{ user_id: string | null; session_id: string | null; queued: number }>(
        'SELECT user_id, session_id, (SELECT count(*)::int FROM push_deliveries WHERE device_id = d.id) AS queued FROM push_devices d WHERE id = $1',
        [id],
      );
    const queueFor = (deviceId: string) =>
      t.app.db.query(
        `INSERT INTO push_deliveries (device_id, payload, ttl_seconds, next_attempt_at, created_at) VALUES ($1, '{}'::jsonb, 60, $2, $2)`,
        [deviceId, t.clock.now()],
      );

    it("'sign out everywhere else' unbinds the thief's devices and drops their queue; his earlier Beams token binds nothing", async () => {
      const { owner } = await account(t);
      const thief = await signedInAgain(t, owner);
      const ownerDevice = await registered('owner');
      const thiefDevice = await registered('thief');
      expect((await ownerDevice.sdk.setUserId(ownerDevice.id, await beamsTokenOf(owner))).status).toBe(200);
      expect((await thiefDevice.sdk.setUserId(thiefDevice.id, await beamsTokenOf(thief))).status).toBe(200);
      const heldToken = await beamsTokenOf(thief);
      await queueFor(ownerDevice.id);
      await queueFor(thiefDevice.id);
      expect(await deviceRow(thiefDevice.id)).toEqual({ user_id: owner.id, session_id: await sessionIdOf(t, thief.token), queued: 1 });

      expect((await t.post('/api/security/sessions/', { type: 'sign_out_others' }, { token: owner.token })).status).toBe(200);
      expect(await deviceRow(thiefDevice.id)).toEqual({ user_id: null, session_id: null, queued: 0 });
      expect(await deviceRow(ownerDevice.id)).toEqual({ user_id: owner.id, session_id: await sessionIdOf(t, owner.token), queued: 1 });
      // The token handed to the ended session binds neither his old device nor a new one.
      const fresh = await registered('thief-again');
      for (const [sdk, id] of [[thiefDevice.sdk, thiefDevice.id], [fresh.sdk, fresh.id]] as const) {
        const refused = await sdk.setUserId(id, heldToken);
        expect(refused).toEqual({ status: 401, body: { error: 'Unauthorized', description: 'The session this Beams token was issued to has ended; sign in again' } });
      }
      expect((await deviceRow(fresh.id)).user_id).toBeNull();
      // The owner's token of her live session still binds a new browser.
      const another = await registered('owner-again');
      expect((await another.sdk.setUserId(another.id, await beamsTokenOf(owner))).status).toBe(200);
    });

    it('a logout, a password reset and a role change unbind the devices of the sessions they end', async () => {
      const { owner, email } = await account(t);
      const laptop = await signedInAgain(t, owner);
      const onLaptop = await registered('laptop');
      const onPhone = await registered('phone');
      expect((await onLaptop.sdk.setUserId(onLaptop.id, await beamsTokenOf(laptop))).status).toBe(200);
      expect((await onPhone.sdk.setUserId(onPhone.id, await beamsTokenOf(owner))).status).toBe(200);
      expect((await t.post('/api/security/logout/', { device: 'vitest' }, { token: laptop.token })).status).toBe(200);
      expect((await deviceRow(onLaptop.id)).user_id).toBeNull();
      expect((await deviceRow(onPhone.id)).user_id).toBe(owner.id);

      t.clock.advance(2 * MINUTE);
      await t.post('/api/security/reset_password/', { type: 'request', email });
      await t.app.mailer.settled();
      const password = 'brand-new-pass-2';
      expect((await t.post('/api/security/reset_password/', { type: 'reset', email, code: lastCodeFor(t, email), password, confirmPassword: password })).status).toBe(200);
      expect((await deviceRow(onPhone.id)).user_id).toBeNull();

      const mod = await moderator(t);
      const modDevice = await registered('moderator');
      expect((await modDevice.sdk.setUserId(modDevice.id, await beamsTokenOf(mod))).status).toBe(200);
      expect((await setUserRole(t.app.db, mod.username, 'trader')).ok).toBe(true);
      expect(await deviceRow(modDevice.id)).toEqual({ user_id: null, session_id: null, queued: 0 });
    });

    it('a Beams token of a session that went idle binds nothing, nor does one naming another account\'s session', async () => {
      const { owner } = await account(t);
      const stranger = await trader(t);
      const device = await registered('idle');
      const token = await beamsTokenOf(owner);
      t.clock.advance(t.config.sessionIdleDays * 24 * 60 * MINUTE);
      expect((await device.sdk.setUserId(device.id, token)).status).toBe(401);
      // A fresh session of the same account binds; the stranger's token binds the device to the stranger only.
      const again = await signedInAgain(t, owner);
      expect((await device.sdk.setUserId(device.id, await beamsTokenOf(again))).status).toBe(200);
      const strangerAgain = await signedInAgain(t, stranger);
      expect((await device.sdk.setUserId(device.id, await beamsTokenOf(strangerAgain))).status).toBe(409);
      expect((await deviceRow(device.id)).user_id).toBe(owner.id);
    });
  });
});

/** PostgreSQL only: its LISTEN connection can be lost, PGlite's cannot. */
const onPostgres = process.env.DATABASE_URL ? ['postgres' as const] : [];

describe.each(onPostgres)('a process whose LISTEN connection was lost, on %s', (target) => {
  let t: TestApp;
  const liveSocket = appPerBlock(target, (started) => (t = started));

  it('asks once back which sessions ended meanwhile: their sockets close, and an unused signature for one is refused', async () => {
    const { owner } = await account(t);
    const thief = await signedInAgain(t, owner);
    const holder = await signedInAgain(t, owner);
    const thiefSocket = await liveSocket(thief, userChannelName(owner.username));
    // Another socket holds a signature for the holder's session, not used yet.
    const { raw, socketId } = await rawSocket(t);
    const held = await signed(t, holder, socketId, userChannelName(owner.username));

    // The listening connection dies, and both sessions end behind this process's back (no call to it) while
    // nobody listens: their NOTIFYs reach no one.
    const listening = `SELECT pid FROM pg_stat_activity WHERE application_name = 'peerex-listen' AND datname = current_database()`;
    expect(await t.app.db.query(`SELECT pg_terminate_backend(pid) FROM (${listening}) l`)).toHaveLength(1);
    await expect.poll(async () => (await t.app.db.query(listening)).length, { interval: 5 }).toBe(0);
    const endBehindItsBack = async (...who: Trader[]) =>
      t.app.db.query('UPDATE sessions SET revoked_at = $2 WHERE id = ANY($1::bigint[])', [await Promise.all(who.map((one) => sessionIdOf(t, one.token))), t.clock.now()]);
    await endBehindItsBack(thief, holder);
    // Back a second later, it catches up: the thief's socket is closed…
    await expect.poll(() => thiefSocket.closes, { timeout: 10_000, interval: 50 }).toContain(SESSION_ENDED);
    // …and the signature held for the other ended session subscribes nothing.
    raw.send({ event: 'pusher:subscribe', data: { channel: userChannelName(owner.username), ...held } });
    expect((await raw.closed).code).toBe(SESSION_ENDED);
    // Listening again: an ending now is heard at once.
    const later = await signedInAgain(t, owner);
    const laterSocket = await liveSocket(later, userChannelName(owner.username));
    await endBehindItsBack(later);
    await expect.poll(() => laterSocket.closes, { timeout: CLOSED_WITHIN_MS, interval: 20 }).toContain(SESSION_ENDED);
  });
});
