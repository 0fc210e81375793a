import Fastify from 'fastify';
import type { IncomingMessage } from 'node:http';
import PusherClient from 'pusher-js';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config.ts';
import { clientAddress, proxyTrust, upgradeClientAddress } from '../../server/src/infra/http/client-address.ts';
import { BUILT_IN_KEY } from '../../server/src/infra/realtime/settings.ts';
import { dataOf, eventually, nextEvent } from '../../packages/realtime/tests/support/clients.ts';
import { listeningPort } from '../support/server-trades.ts';
import { createTestApp, type TestApp } from '../support/server.ts';

/**
 * The built-in realtime server's limits as the product configures them (REALTIME_MAX_FRAME_BYTES,
 * REALTIME_MAX_SUBSCRIPTIONS, REALTIME_MAX_CONNECTIONS_PER_ADDRESS), over real websockets on the product's
 * port, and what pusher-js does past each: never a retry at once, never given up for good where a later
 * try can succeed.
 */

const SOCKET_PATH = `/app/${BUILT_IN_KEY}?protocol=7&client=js&version=8.6.0&flash=false`;

type Frame = { event: string; channel?: string; data?: unknown };

/** A bare socket with chosen headers (X-Forwarded-For), keeping every frame and how it closed. */
class Socket {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly ws: WebSocket;
  constructor(port: number, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(`ws://127.0.0.1:${port}${SOCKET_PATH}`, { headers });
    this.ws.on('message', (raw) => this.frames.push(JSON.parse(raw.toString()) as Frame));
    this.ws.on('error', () => {});
    this.closed = new Promise((resolve) => this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }
  send(frame: unknown) {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }
  async next(event: string, what = event): Promise<Frame> {
    let found: Frame | undefined;
    await eventually(() => (found = this.frames.find((frame) => frame.event === event)) !== undefined, 5000, what);
    return found!;
  }
  /** Resolves once connection_established arrived, or fails with the frames it got instead. */
  async established() {
    await this.next('pusher:connection_established', `connection_established (got ${JSON.stringify(this.frames)})`);
    return this;
  }
}

const opened: Array<Socket | PusherClient> = [];
const open = (port: number, headers?: Record<string, string>) => {
  const socket = new Socket(port, headers);
  opened.push(socket);
  return socket;
};
const closeAll = async () => {
  for (const client of opened.splice(0)) {
    if (client instanceof Socket) {
      client.ws.terminate();
      await client.closed;
    } else client.disconnect();
  }
};
afterEach(closeAll);

/** Whether a socket got in (connection_established) or was closed first. */
const admitted = (socket: Socket): Promise<boolean> =>
  Promise.race([socket.established().then(() => true, () => false), socket.closed.then(() => false)]);

/**
 * Opens sockets until `count` are in. The previous test's sockets are closed by then on the client's side, but
 * the server may not have seen every close yet: a refusal meanwhile is tried again.
 */
async function hold(port: number, count: number): Promise<Socket[]> {
  const held: Socket[] = [];
  await eventually(
    async () => {
      const socket = open(port);
      if (await admitted(socket)) held.push(socket);
      return held.length === count;
    },
    5000,
    `${count} connections held`,
  );
  return held;
}

/** What pusher-js's connection emits as 'error': a pusher:error's data, or one wrapped by the handshake. */
type PusherError = { data?: { code?: number }; error?: { data?: { code?: number } } };
const errorCode = (error: PusherError) => error.data?.code ?? error.error?.data?.code;

function pusherJs(port: number): PusherClient {
  const client = new PusherClient(BUILT_IN_KEY, { cluster: 'peerex', wsHost: '127.0.0.1', wsPort: port, forceTLS: false, enabledTransports: ['ws'] });
  opened.push(client);
  return client;
}

describe('configuration', () => {
  it('has working defaults: 10 KB frames, 100 subscriptions a connection, 50 connections an address', () => {
    expect(loadConfig({}).realtimeLimits).toEqual({ maxFrameBytes: 10_240, maxSubscriptionsPerConnection: 100, maxConnectionsPerAddress: 50 });
  });

  it('reads each limit from its variable, 0 connections meaning no limit', () => {
    const config = loadConfig({ REALTIME_MAX_FRAME_BYTES: '4096', REALTIME_MAX_SUBSCRIPTIONS: '7', REALTIME_MAX_CONNECTIONS_PER_ADDRESS: '0' });
    expect(config.realtimeLimits).toEqual({ maxFrameBytes: 4096, maxSubscriptionsPerConnection: 7, maxConnectionsPerAddress: 0 });
  });

  it.each([
    ['REALTIME_MAX_FRAME_BYTES', 'ten'],
    ['REALTIME_MAX_FRAME_BYTES', '100'],
    ['REALTIME_MAX_SUBSCRIPTIONS', '0'],
    ['REALTIME_MAX_CONNECTIONS_PER_ADDRESS', '-1'],
  ])('refuses %s=%s at boot, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('the client address of a websocket upgrade', () => {
  it('is the one the HTTP rate limits count, without TRUST_PROXY, with a hop count and with a list of proxies', async () => {
    const cases = [
      { socket: '127.0.0.1', forwardedFor: undefined },
      { socket: '127.0.0.1', forwardedFor: '203.0.113.9' },
      { socket: '10.0.0.2', forwardedFor: '203.0.113.9, 10.0.0.1' },
      { socket: '10.0.0.2', forwardedFor: ' 198.51.100.4 ,203.0.113.9' },
      { socket: '::ffff:127.0.0.1', forwardedFor: undefined },
      { socket: '127.0.0.1', forwardedFor: '2001:db8:1:2:aaaa::1' },
      { socket: '2001:db8:1:2:bbbb::7', forwardedFor: undefined },
      { socket: '192.0.2.50', forwardedFor: '203.0.113.9' },
    ];
    for (const trustProxy of ['', '1', '2', '127.0.0.1,10.0.0.0/8']) {
      const trust = proxyTrust(loadConfig({ TRUST_PROXY: trustProxy }).trustProxy);
      const http = Fastify({ trustProxy: trust });
      http.get('/', async (request) => clientAddress(request));
      for (const { socket, forwardedFor } of cases) {
        const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
        const answer = await http.inject({ method: 'GET', url: '/', remoteAddress: socket, headers });
        const upgrade = { headers, socket: { remoteAddress: socket } } as unknown as IncomingMessage;
        expect(upgradeClientAddress(upgrade, trust), `${socket} ${forwardedFor} TRUST_PROXY=${trustProxy}`).toBe(answer.body);
      }
      await http.close();
    }
  });
});

describe('limits of the built-in realtime server in the product', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite', {
      env: { REALTIME_MAX_FRAME_BYTES: '2048', REALTIME_MAX_SUBSCRIPTIONS: '3', REALTIME_MAX_CONNECTIONS_PER_ADDRESS: '3' },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = listeningPort(t);
  });
  afterAll(async () => {
    await closeAll();
    await t.close();
  });

  it('closes a connection whose frame is over REALTIME_MAX_FRAME_BYTES with 1009, and only that one', async () => {
    const bystander = await open(port).established();
    const socket = await open(port).established();
    const frame = (size: number) => {
      const text = JSON.stringify({ event: 'pusher:ping', data: { padding: '' } });
      return JSON.stringify({ event: 'pusher:ping', data: { padding: 'x'.repeat(size - text.length) } });
    };
    expect(Buffer.byteLength(frame(2048))).toBe(2048);
    socket.send(frame(2048));
    await socket.next('pusher:pong', 'a pong to a frame of exactly the limit');
    socket.send(frame(2049));
    expect((await socket.closed).code).toBe(1009);
    bystander.send({ event: 'pusher:ping' });
    await bystander.next('pusher:pong');
  });

  it('pusher-js, closed for a frame too large, reconnects after a second rather than at once', async () => {
    const client = pusherJs(port);
    await eventually(() => client.connection.state === 'connected', 5000, 'pusher-js connected');
    const firstSocketId = client.connection.socket_id;
    const retries: number[] = [];
    client.connection.bind('connecting_in', (seconds: number) => retries.push(seconds));
    client.send_event('pusher:ping', { padding: 'x'.repeat(4096) });
    await eventually(() => client.connection.state === 'connected' && client.connection.socket_id !== firstSocketId, 10_000, 'pusher-js reconnected');
    expect(retries).toEqual([1]);
  });

  it('refuses a subscription over REALTIME_MAX_SUBSCRIPTIONS with LimitReached, keeping the connection and its channels', async () => {
    const socket = await open(port).established();
    for (const channel of ['limits-a', 'limits-b', 'limits-c', 'limits-d']) socket.send({ event: 'pusher:subscribe', data: { channel } });
    const refused = await socket.next('pusher:subscription_error');
    expect(refused).toMatchObject({ channel: 'limits-d', data: { type: 'LimitReached', status: 429 } });
    const succeeded = () => socket.frames.filter((frame) => frame.event === 'pusher_internal:subscription_succeeded').map((frame) => frame.channel);
    expect(succeeded()).toEqual(['limits-a', 'limits-b', 'limits-c']);

    // The channels it holds still deliver, and one given up makes room for another.
    t.app.realtime.publish('limits-b', 'hello', { n: 1 });
    await eventually(() => socket.frames.some((frame) => frame.event === 'hello' && frame.channel === 'limits-b'), 5000, 'an event on a held channel');
    socket.send({ event: 'pusher:unsubscribe', data: { channel: 'limits-a' } });
    socket.send({ event: 'pusher:subscribe', data: { channel: 'limits-d' } });
    await eventually(() => succeeded().includes('limits-d'), 5000, 'limits-d subscribed once there was room');
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('tells pusher-js which channel was refused, on that channel, and pusher-js stays connected', async () => {
    const client = pusherJs(port);
    const channels = ['limits-1', 'limits-2', 'limits-3'].map((name) => client.subscribe(name));
    await Promise.all(channels.map((channel) => nextEvent(channel, 'pusher:subscription_succeeded')));
    const error = await nextEvent<{ type: string; status: number }>(client.subscribe('limits-4'), 'pusher:subscription_error');
    expect(error).toMatchObject({ type: 'LimitReached', status: 429 });
    expect(client.connection.state).toBe('connected');
  });

  it('refuses a connection over REALTIME_MAX_CONNECTIONS_PER_ADDRESS with pusher:error 4100 and a 4100 close', async () => {
    const held = await hold(port, 3);
    const over = open(port);
    expect(dataOf(await over.next('pusher:error'))).toMatchObject({ code: 4100 });
    expect(over.frames.map((frame) => frame.event)).toEqual(['pusher:error']);
    expect((await over.closed).code).toBe(4100);
    // Without TRUST_PROXY, a header the client writes is no other address.
    const disguised = open(port, { 'x-forwarded-for': '203.0.113.77' });
    expect((await disguised.closed).code).toBe(4100);

    held[0].ws.close();
    await held[0].closed;
    await eventually(() => admitted(open(port)), 5000, 'a slot freed by a close');
  });

  it('pusher-js over the cap retries every second (4100), never at once nor for good, and gets in when a slot frees', async () => {
    const held = await hold(port, 3);
    const client = pusherJs(port);
    const codes: Array<number | undefined> = [];
    const retries: number[] = [];
    client.connection.bind('error', (error: PusherError) => codes.push(errorCode(error)));
    client.connection.bind('connecting_in', (seconds: number) => retries.push(seconds));
    await eventually(() => codes.length >= 2, 10_000, 'two refused attempts');
    expect(codes.slice(0, 2)).toEqual([4100, 4100]);
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(new Set(retries)).toEqual(new Set([1]));
    expect(client.connection.state).not.toBe('disconnected');

    held[0].ws.close();
    await eventually(() => client.connection.state === 'connected', 10_000, 'pusher-js connected once a slot freed');
  });
});

describe('connections per address behind TRUST_PROXY', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { TRUST_PROXY: '1', REALTIME_MAX_CONNECTIONS_PER_ADDRESS: '1' } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = listeningPort(t);
  });
  afterAll(async () => {
    await closeAll();
    await t.close();
  });

  it("counts each client by the address the proxy added (X-Forwarded-For's right-most), an IPv6 client by its /64", async () => {
    // This test's sockets play the load balancer (the one trusted hop): what it appends is the client's address.
    const from = (forwardedFor: string) => open(port, { 'x-forwarded-for': forwardedFor });
    await from('203.0.113.1').established();
    await from('203.0.113.1, 203.0.113.2').established();
    expect((await from('203.0.113.1').closed).code).toBe(4100);
    // A client writing other addresses in front of its own is still itself.
    expect((await from('10.9.9.9, 198.51.100.7, 203.0.113.1').closed).code).toBe(4100);

    await from('2001:db8:1:2::1').established();
    expect((await from('2001:db8:1:2:ffff::9').closed).code).toBe(4100);
    await from('2001:db8:1:3::1').established();
    // And a socket straight from this machine, with no header, is one client more: its own address.
    await open(port).established();
  });
});
