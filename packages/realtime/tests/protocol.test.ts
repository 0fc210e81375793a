import { createHmac } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type PusherClient from 'pusher-js';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltInRealtime } from '../server.ts';
import {
  connected,
  dataOf,
  eventually,
  nextEvent,
  pusherClient,
  RawClient,
  serverSdk,
  silentLog,
  startRealtime,
  subscribed,
  TEST_APP,
  type RealtimeServer,
} from './support/clients.ts';

/** Every pusher-js client and raw socket a test opens, closed after it. */
const opened: Array<PusherClient | RawClient> = [];
const track = <T extends PusherClient | RawClient>(client: T): T => (opened.push(client), client);
afterEach(() => {
  for (const client of opened.splice(0)) {
    if (client instanceof RawClient) client.ws.terminate();
    else client.disconnect();
  }
});

let server: RealtimeServer;
beforeAll(async () => {
  server = await startRealtime();
});
afterAll(() => server.close());

const client = (user?: { id: string; name: string }, secret?: string) => track(pusherClient({ port: server.port, user, secret }));
const raw = (path?: string) => track(RawClient.connect(server.port, path));

/** What pusher-js's connection emits as 'error': a pusher:error message's data, or a close wrapped by the handshake. */
type PusherError = { data?: { code?: number }; error?: { data?: { code?: number } } };
const errorCode = (error: PusherError) => error.data?.code ?? error.error?.data?.code;

/** A raw client past connection_established, with its socket id. */
async function rawConnected(path?: string) {
  const socket = raw(path);
  const established = await socket.next('pusher:connection_established');
  return { socket, socketId: dataOf<{ socket_id: string }>(established).socket_id };
}

describe('connecting', () => {
  it('gives pusher-js a socket id of two integers and an activity timeout', async () => {
    const socketId = await connected(client());
    expect(socketId).toMatch(/^\d+\.\d+$/);
    const { socket } = await rawConnected();
    expect(dataOf(socket.messages[0])).toMatchObject({ socket_id: expect.stringMatching(/^\d+\.\d+$/), activity_timeout: 30 });
  });

  it('gives every connection its own socket id', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => rawConnected().then(({ socketId }) => socketId)));
    expect(new Set(ids).size).toBe(20);
  });

  it('refuses an unknown app key with 4001, and pusher-js does not try again', async () => {
    let attempts = 0;
    const count = () => attempts++;
    server.http.server.on('upgrade', count);
    try {
      const stranger = track(pusherClient({ port: server.port, key: 'no-such-key' }));
      const codes: Array<number | undefined> = [];
      stranger.connection.bind('error', (error: PusherError) => codes.push(errorCode(error)));
      await eventually(() => stranger.connection.state === 'disconnected', 5000, 'pusher-js disconnected');
      // pusher-js's quickest retry is after one second; give it two.
      await delay(2000);
      expect(attempts).toBe(1);
      expect(stranger.connection.state).toBe('disconnected');
      expect(codes).toContain(4001);
    } finally {
      server.http.server.off('upgrade', count);
    }

    const socket = raw('/app/no-such-key?protocol=7');
    expect(dataOf(await socket.next('pusher:error'))).toMatchObject({ code: 4001 });
    expect((await socket.closed).code).toBe(4001);
  });

  it.each([
    ['a path with more after the key', `/app/${TEST_APP.key}/extra?protocol=7`, 4005],
    ['no protocol', `/app/${TEST_APP.key}`, 4008],
    ['a protocol that is not a number', `/app/${TEST_APP.key}?protocol=seven`, 4006],
    ['an unsupported protocol', `/app/${TEST_APP.key}?protocol=3`, 4007],
  ])('refuses %s with its code (%s)', async (_what, path, code) => {
    const socket = raw(path);
    expect(dataOf(await socket.next('pusher:error'))).toMatchObject({ code });
    expect((await socket.closed).code).toBe(code);
  });

  it('answers an upgrade outside /app/ with 400 when nobody else takes it', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/elsewhere`);
    const status = await new Promise<number | undefined>((resolve) => {
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode));
      socket.on('error', () => resolve(undefined));
    });
    expect(status).toBe(400);
  });
});

describe('public channels', () => {
  it('delivers a trigger to a pusher-js subscriber, data as it was given', async () => {
    const pusher = client();
    const { channel } = await subscribed(pusher, 'coin_price');
    const received = nextEvent(channel, 'price');
    await server.realtime.trigger('coin_price', 'price', { ticker: 'BTC', price: '97000.00' });
    expect(await received).toEqual({ ticker: 'BTC', price: '97000.00' });

    const text = nextEvent(channel, 'note');
    await server.realtime.trigger(['coin_price'], 'note', '{"not":"parsed"}');
    expect(await text).toBe('{"not":"parsed"}');
  });

  it('leaves out the connection named by socketId', async () => {
    const [sender, other] = [client(), client()];
    const senderId = await connected(sender);
    const [{ channel: mine }, { channel: theirs }] = await Promise.all([subscribed(sender, 'room-1'), subscribed(other, 'room-1')]);
    const seen: string[] = [];
    mine.bind('said', (data: { n: number }) => seen.push(`sender ${data.n}`));
    theirs.bind('said', (data: { n: number }) => seen.push(`other ${data.n}`));
    await server.realtime.trigger('room-1', 'said', { n: 1 }, { socketId: senderId });
    await server.realtime.trigger('room-1', 'said', { n: 2 });
    await eventually(() => seen.length === 3);
    expect(seen.sort()).toEqual(['other 1', 'other 2', 'sender 2']);
  });

  it('stops delivering after unsubscribe, and the channel is no longer occupied', async () => {
    const { socket } = await rawConnected();
    socket.send({ event: 'pusher:subscribe', data: { channel: 'room-2', auth: '' } });
    await socket.next('pusher_internal:subscription_succeeded');
    expect(await server.realtime.occupied(['room-2', 'room-3'])).toEqual(new Set(['room-2']));
    socket.send({ event: 'pusher:unsubscribe', data: { channel: 'room-2' } });
    await eventually(async () => (await server.realtime.occupied(['room-2'])).size === 0);
    await server.realtime.trigger('room-2', 'late', {});
    socket.send({ event: 'pusher:ping', data: {} });
    await socket.next('pusher:pong');
    expect(socket.messages.some((message) => message.event === 'late')).toBe(false);
  });

  it('accepts subscribe data sent as a JSON string, as other client libraries send it', async () => {
    const { socket } = await rawConnected();
    socket.send({ event: 'pusher:subscribe', data: JSON.stringify({ channel: 'room-4', auth: '' }) });
    expect(await socket.next('pusher_internal:subscription_succeeded')).toMatchObject({ channel: 'room-4' });
  });
});

describe('private channels', () => {
  it('subscribes with a good signature and receives events', async () => {
    const pusher = client();
    const { channel } = await subscribed(pusher, 'private-user-alice');
    const received = nextEvent(channel, 'unread');
    await server.realtime.trigger('private-user-alice', 'unread', { count: 3 });
    expect(await received).toEqual({ count: 3 });
  });

  it('refuses a bad signature with subscription_error and keeps the connection', async () => {
    const pusher = client(undefined, 'not-the-secret');
    const channel = pusher.subscribe('private-user-bob');
    const error = await nextEvent<{ type: string; status: number }>(channel, 'pusher:subscription_error');
    expect(error).toMatchObject({ type: 'AuthError', status: 401 });
    expect(pusher.connection.state).toBe('connected');
    expect(await server.realtime.occupied(['private-user-bob'])).toEqual(new Set());
    // The same connection still works.
    await subscribed(pusher, 'coin_price');
    expect(pusher.connection.state).toBe('connected');
  });

  it("refuses a signature made for another connection's socket id", async () => {
    const { socket } = await rawConnected();
    const { auth } = serverSdk(server.port).authorizeChannel('1234.1234', 'private-user-carol');
    socket.send({ event: 'pusher:subscribe', data: { channel: 'private-user-carol', auth } });
    const refused = await socket.next('pusher:subscription_error');
    expect(refused).toMatchObject({ channel: 'private-user-carol', data: { type: 'AuthError', status: 401 } });
  });

  it('checks private-encrypted- channels like private ones', async () => {
    const { socket, socketId } = await rawConnected();
    socket.send({ event: 'pusher:subscribe', data: { channel: 'private-encrypted-x', auth: `${TEST_APP.key}:${'0'.repeat(64)}` } });
    expect(await socket.next('pusher:subscription_error')).toMatchObject({ data: { type: 'AuthError' } });
    // The SDK would also want a master key (for the client's shared secret); the socket server needs only this.
    const auth = `${TEST_APP.key}:${createHmac('sha256', TEST_APP.secret).update(`${socketId}:private-encrypted-x`).digest('hex')}`;
    socket.send({ event: 'pusher:subscribe', data: { channel: 'private-encrypted-x', auth } });
    expect(await socket.next('pusher_internal:subscription_succeeded')).toMatchObject({ channel: 'private-encrypted-x' });
  });
});

describe('sessions named in a private subscription (the product ties each socket to the session that signed it)', () => {
  /** Close codes pusher-js reports for a client. */
  const closesOf = (pusher: PusherClient) => {
    const codes: number[] = [];
    pusher.connection.bind('error', (error: PusherError & { type?: string }) => {
      const code = errorCode(error);
      if (error.type === 'PusherError' && code !== undefined) codes.push(code);
    });
    return codes;
  };

  it('closes the sockets of an ended session with 4009, and pusher-js stays away; other sockets, and sockets signed with no session, stay', async () => {
    const thief = track(pusherClient({ port: server.port, session: 'session-1' }));
    const owner = track(pusherClient({ port: server.port, session: 'session-2' }));
    const integrator = client();
    const thiefCloses = closesOf(thief);
    const [{ channel: onThief }, { channel: onOwner }, { channel: onIntegrator }] = await Promise.all(
      [thief, owner, integrator].map((pusher) => subscribed(pusher, 'private-user-victim')),
    );
    expect(server.realtime.sessions().sort()).toEqual(['session-1', 'session-2']);
    const thiefHeard: unknown[] = [];
    onThief.bind('notification', (data: unknown) => thiefHeard.push(data));

    expect(server.realtime.endSessions(['session-1', 'nobody'])).toBe(1);
    await eventually(() => thiefCloses.includes(4009), 2000, 'the 4009 close');
    await eventually(() => thief.connection.state === 'disconnected', 2000, 'pusher-js disconnected');
    const heard = Promise.all([nextEvent(onOwner, 'notification'), nextEvent(onIntegrator, 'notification')]);
    await server.realtime.trigger('private-user-victim', 'notification', { title: 'After' });
    expect(await heard).toEqual([{ title: 'After' }, { title: 'After' }]);
    expect(thiefHeard).toEqual([]);
    // pusher-js takes 4009 as "refused": it does not come back by itself.
    await delay(1500);
    expect(thief.connection.state).toBe('disconnected');
    expect(server.realtime.sessions()).toEqual(['session-2']);
  });

  it('refuses (401) channel_data the signature does not cover, and a signature whose channel_data was dropped', async () => {
    const { socket, socketId } = await rawConnected();
    const sdk = serverSdk(server.port);
    const channel = 'private-user-dave';
    const signed = sdk.authorizeChannel(socketId, channel, { session: 'session-3' } as never);
    const bare = sdk.authorizeChannel(socketId, channel);
    for (const data of [
      { auth: signed.auth, channel_data: '{"session":"session-4"}' },
      { auth: signed.auth },
      { auth: bare.auth, channel_data: signed.channel_data },
      { auth: signed.auth, channel_data: { session: 'session-3' } },
    ]) {
      const from = socket.messages.length;
      socket.send({ event: 'pusher:subscribe', data: { channel, ...data } });
      expect(await socket.next('pusher:subscription_error', from)).toMatchObject({ channel, data: { type: 'AuthError', status: 401 } });
    }
    expect(server.realtime.sessions()).not.toContain('session-3');
    const from = socket.messages.length;
    socket.send({ event: 'pusher:subscribe', data: { channel, ...signed } });
    expect(await socket.next('pusher_internal:subscription_succeeded', from)).toMatchObject({ channel });
    expect(server.realtime.sessions()).toContain('session-3');
  });

  it('closes a socket open when its session ended that subscribes with a signature held since; a later socket is not concerned', async () => {
    const { socket, socketId } = await rawConnected();
    const held = serverSdk(server.port).authorizeChannel(socketId, 'private-user-erin', { session: 'session-5' } as never);
    expect(server.realtime.endSessions(['session-5'])).toBe(0);
    socket.send({ event: 'pusher:subscribe', data: { channel: 'private-user-erin', ...held } });
    expect((await socket.closed).code).toBe(4009);
    // A socket opened after the end holds no signature from before it: a new one naming the session subscribes
    // (only the product's auth endpoint decides whether to sign one, and it signs none for an ended session).
    const { socket: later, socketId: laterId } = await rawConnected();
    later.send({ event: 'pusher:subscribe', data: { channel: 'private-user-erin', ...serverSdk(server.port).authorizeChannel(laterId, 'private-user-erin', { session: 'session-5' } as never) } });
    expect(await later.next('pusher_internal:subscription_succeeded')).toMatchObject({ channel: 'private-user-erin' });
  });
});

describe('presence channels', () => {
  type Members = { count: number; me: { id: string; info: unknown }; each(callback: (member: { id: string; info: unknown }) => void): void };
  const ids = (members: Members) => {
    const out: string[] = [];
    members.each((member) => out.push(member.id));
    return out.sort();
  };

  it('lists the members, announces newcomers and leavers once per user, not per tab', async () => {
    const ann = client({ id: 'ann', name: 'Ann' });
    const { channel: annChannel, data } = await subscribed(ann, 'presence-trade-1');
    const first = data as Members;
    expect(first.count).toBe(1);
    expect(first.me).toEqual({ id: 'ann', info: { name: 'Ann' } });

    const added: string[] = [];
    const removed: string[] = [];
    annChannel.bind('pusher:member_added', (member: { id: string }) => added.push(member.id));
    annChannel.bind('pusher:member_removed', (member: { id: string }) => removed.push(member.id));

    const ben = client({ id: 'ben', name: 'Ben' });
    const { data: benData } = await subscribed(ben, 'presence-trade-1');
    expect(ids(benData as Members)).toEqual(['ann', 'ben']);
    await eventually(() => added.length === 1);
    expect(added).toEqual(['ben']);

    // Ben's second tab: Ann hears nothing; then Cy joins, and Ann hears only Cy.
    const benAgain = client({ id: 'ben', name: 'Ben' });
    const { data: secondTab } = await subscribed(benAgain, 'presence-trade-1');
    expect((secondTab as Members).count).toBe(2);
    const cy = client({ id: 'cy', name: 'Cy' });
    await subscribed(cy, 'presence-trade-1');
    await eventually(() => added.length === 2);
    expect(added).toEqual(['ben', 'cy']);

    // One of Ben's tabs closes: nothing. Cy leaves (unsubscribe), then Ben's last tab: both announced.
    ben.disconnect();
    cy.unsubscribe('presence-trade-1');
    await eventually(() => removed.length === 1);
    benAgain.disconnect();
    await eventually(() => removed.length === 2);
    expect(removed).toEqual(['cy', 'ben']);
    expect((annChannel as unknown as { members: Members }).members.count).toBe(1);
  });

  it('sends member_added with user_info to the others and not to the newcomer', async () => {
    const { socket: first, socketId: firstId } = await rawConnected();
    const sdk = serverSdk(server.port);
    const join = (socket: RawClient, socketId: string, userId: string) => {
      const signed = sdk.authorizeChannel(socketId, 'presence-room', { user_id: userId, user_info: { name: userId.toUpperCase() } });
      socket.send({ event: 'pusher:subscribe', data: { channel: 'presence-room', ...signed } });
    };
    join(first, firstId, 'u1');
    const succeeded = await first.next('pusher_internal:subscription_succeeded');
    expect(dataOf(succeeded)).toEqual({ presence: { ids: ['u1'], hash: { u1: { name: 'U1' } }, count: 1 } });

    const { socket: second, socketId: secondId } = await rawConnected();
    join(second, secondId, 'u2');
    expect(dataOf(await second.next('pusher_internal:subscription_succeeded'))).toEqual({
      presence: { ids: ['u1', 'u2'], hash: { u1: { name: 'U1' }, u2: { name: 'U2' } }, count: 2 },
    });
    expect(dataOf(await first.next('pusher_internal:member_added'))).toEqual({ user_id: 'u2', user_info: { name: 'U2' } });
    second.send({ event: 'pusher:ping' });
    await second.next('pusher:pong');
    expect(second.messages.some((message) => message.event === 'pusher_internal:member_added')).toBe(false);
  });

  it('refuses channel_data the signature does not cover', async () => {
    const { socket, socketId } = await rawConnected();
    const signed = serverSdk(server.port).authorizeChannel(socketId, 'presence-room', { user_id: 'honest' });
    socket.send({
      event: 'pusher:subscribe',
      data: { channel: 'presence-room', auth: signed.auth, channel_data: JSON.stringify({ user_id: 'admin' }) },
    });
    expect(await socket.next('pusher:subscription_error')).toMatchObject({ channel: 'presence-room', data: { type: 'AuthError', status: 401 } });
  });
});

describe('keeping connections alive', () => {
  it('answers pusher:ping with pusher:pong', async () => {
    const { socket } = await rawConnected();
    socket.send({ event: 'pusher:ping', data: {} });
    expect(await socket.next('pusher:pong')).toMatchObject({ event: 'pusher:pong' });
  });

  it('pings every activity period and cuts off a peer that does not answer', async () => {
    const brisk = await startRealtime({ activityTimeoutSeconds: 1 });
    try {
      const url = `ws://127.0.0.1:${brisk.port}/app/${TEST_APP.key}?protocol=7`;
      const lively = new WebSocket(url);
      const mute = new WebSocket(url, { autoPong: false });
      let pings = 0;
      lively.on('ping', () => pings++);
      const muteClosed = new Promise<number>((resolve) => mute.on('close', (code) => resolve(code)));
      // Terminated (no close frame: a dead peer would not read it) after at most two periods.
      expect(await muteClosed).toBe(1006);
      expect(pings).toBeGreaterThanOrEqual(1);
      expect(lively.readyState).toBe(WebSocket.OPEN);
      lively.close();
    } finally {
      await brisk.close();
    }
  });
});

describe('client events', () => {
  it('are refused with a 4301 message, never a 4301 close', async () => {
    const pusher = client();
    const { channel } = await subscribed(pusher, 'private-chat');
    const codes: Array<number | undefined> = [];
    pusher.connection.bind('error', (error: PusherError) => codes.push(errorCode(error)));
    channel.trigger('client-typing', { who: 'me' });
    await eventually(() => codes.length > 0);
    expect(codes).toEqual([4301]);
    // Still connected: another subscription goes through.
    await subscribed(pusher, 'coin_price');
    expect(pusher.connection.state).toBe('connected');
  });
});

describe('malformed frames', () => {
  it('are answered with pusher:error and the connection and server carry on', async () => {
    const { socket } = await rawConnected();
    const frames = ['not json', '{"event": 5}', 'null', '{"event":"pusher:subscribe","data":"nope"}', '{"event":"pusher:subscribe"}'];
    for (const frame of frames) socket.send(frame);
    socket.ws.send(Buffer.from([0xff, 0x00, 0x13]), { binary: true });
    await eventually(() => socket.messages.filter((message) => message.event === 'pusher:error').length === frames.length + 1);
    for (const message of socket.messages.filter((m) => m.event === 'pusher:error')) expect(dataOf(message)).toMatchObject({ code: null });

    socket.send({ event: 'pusher:subscribe', data: { channel: 'bad name!' } });
    expect(await socket.next('pusher:subscription_error')).toMatchObject({ channel: 'bad name!', data: { type: 'InvalidChannel', status: 400 } });
    socket.send({ event: 'pusher:unsubscribe', data: { channel: 'never-joined' } });
    socket.send({ event: 'pusher:ping' });
    await socket.next('pusher:pong');
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    await connected(client());
  });

  it('closes a connection whose frame is over the size limit (1009) and only that one', async () => {
    const { socket } = await rawConnected();
    socket.send({ event: 'pusher:ping', data: { padding: 'x'.repeat(20_000) } });
    expect((await socket.closed).code).toBe(1009);
    await connected(client());
  });
});

describe('limits', () => {
  it('caps subscriptions per connection', async () => {
    const capped = await startRealtime({ maxSubscriptionsPerConnection: 2 });
    try {
      const socket = track(RawClient.connect(capped.port));
      await socket.next('pusher:connection_established');
      for (const name of ['a', 'b', 'c']) socket.send({ event: 'pusher:subscribe', data: { channel: name } });
      expect(await socket.next('pusher:subscription_error')).toMatchObject({ channel: 'c', data: { type: 'LimitReached' } });
      expect(socket.messages.filter((m) => m.event === 'pusher_internal:subscription_succeeded').map((m) => m.channel)).toEqual(['a', 'b']);
    } finally {
      await capped.close();
    }
  });

  it('caps connections per address with 4100 when asked to', async () => {
    const capped = await startRealtime({ maxConnectionsPerAddress: 1 });
    try {
      const first = track(RawClient.connect(capped.port));
      await first.next('pusher:connection_established');
      const second = track(RawClient.connect(capped.port));
      expect((await second.closed).code).toBe(4100);
      await first.close();
      const third = track(RawClient.connect(capped.port));
      await third.next('pusher:connection_established');
    } finally {
      await capped.close();
    }
  });
});

describe('close()', () => {
  it('closes every socket with 4200 and pusher-js reconnects at once to the next server on the port', async () => {
    const first = await startRealtime();
    const socket = track(RawClient.connect(first.port));
    await socket.next('pusher:connection_established');
    const pusher = track(pusherClient({ port: first.port }));
    const oldId = await connected(pusher);
    const { channel } = await subscribed(pusher, 'coin_price');
    // pusher-js reports the close code as an error; 4200–4299 make it retry at once rather than after 1 s
    // (its connection.handleCloseEvent → 'retry' → retryIn(0); docs/pusher-and-beams.md "Close codes").
    const codes: Array<number | undefined> = [];
    pusher.connection.bind('error', (error: PusherError) => codes.push(errorCode(error)));

    const next = await createBuiltInRealtime({ app: TEST_APP, log: silentLog });
    const closing = first.realtime.close();
    next.attach(first.http.server);
    expect((await socket.closed).code).toBe(4200);
    await closing;
    expect(first.realtime.stats()).toEqual({ connections: 0, channels: 0 });

    await eventually(() => pusher.connection.state === 'connected' && pusher.connection.socket_id !== oldId);
    // It subscribes again by itself; the new server then delivers.
    await eventually(async () => (await next.occupied(['coin_price'])).size === 1);
    const received = nextEvent(channel, 'price');
    await next.trigger('coin_price', 'price', { ticker: 'ETH' });
    expect(await received).toEqual({ ticker: 'ETH' });
    expect([...new Set(codes)]).toEqual([4200]);

    pusher.disconnect();
    await next.close();
    await first.http.close();
  });
});
