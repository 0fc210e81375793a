import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import Pusher from 'pusher';
import PusherClient from 'pusher-js';
import { WebSocket } from 'ws';
import { createBuiltInRealtime, type BuiltInRealtime, type BuiltInRealtimeOptions } from '../../server.ts';

/** The app of these suites; the key and secret are the ones Pusher's documentation signs its worked examples with, so a signature can be checked by hand against it. */
export const TEST_APP = { id: '3', key: '278d425bdf160c739803', secret: '7ad3773142a6692b25b8' };

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export const silentLog = { info() {}, warn() {}, error() {}, debug() {} };

/** A built-in realtime server on a bare Fastify (the way the product mounts it), on 127.0.0.1 and a free port. */
export interface RealtimeServer {
  realtime: BuiltInRealtime;
  http: FastifyInstance;
  port: number;
  close(): Promise<void>;
}

export async function startRealtime(options: Partial<BuiltInRealtimeOptions> = {}, port = 0): Promise<RealtimeServer> {
  const realtime = await createBuiltInRealtime({ app: TEST_APP, log: silentLog, ...options });
  const http = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  await http.register(realtime.httpApi);
  realtime.attach(http.server);
  await http.listen({ port, host: '127.0.0.1' });
  return {
    realtime,
    http,
    port: (http.server.address() as AddressInfo).port,
    async close() {
      await realtime.close();
      await http.close();
    },
  };
}

/** The `pusher` server SDK, pointed at a built-in server: it signs channels and calls the HTTP API. */
export const serverSdk = (port: number, secret = TEST_APP.secret) =>
  new Pusher({ appId: TEST_APP.id, key: TEST_APP.key, secret, host: '127.0.0.1', port: String(port), useTLS: false });

/** Presence users sign as `{user_id, user_info:{name}}`. */
export interface ClientOptions {
  port: number;
  user?: { id: string; name: string };
  /** Signs with another secret (a refused subscription). */
  secret?: string;
  key?: string;
  /** Private channels are signed with channel_data naming this session, as the product's auth endpoint signs them. */
  session?: string;
}

/**
 * Unmodified pusher-js (its Node build) against a built-in server; channel authorization is signed locally
 * with the SDK's `authorizeChannel`, as the product's auth endpoint does.
 */
export function pusherClient({ port, user, secret, key = TEST_APP.key, session }: ClientOptions): PusherClient {
  const signer = serverSdk(port, secret);
  return new PusherClient(key, {
    cluster: 'x',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    channelAuthorization: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        try {
          const presence = channelName.startsWith('presence-') && user ? { user_id: user.id, user_info: { name: user.name } } : undefined;
          const tied = channelName.startsWith('private-') && session ? ({ session } as unknown as Pusher.PresenceChannelData) : undefined;
          callback(null, signer.authorizeChannel(socketId, channelName, presence ?? tied));
        } catch (error) {
          callback(error as Error, null);
        }
      },
    },
  });
}

export function connected(client: PusherClient): Promise<string> {
  if (client.connection.state === 'connected') return Promise.resolve(client.connection.socket_id);
  return new Promise((resolve, reject) => {
    const onState = ({ current }: { current: string }) => {
      if (current === 'connected') {
        client.connection.unbind('state_change', onState);
        resolve(client.connection.socket_id);
      } else if (current === 'failed' || current === 'disconnected') {
        client.connection.unbind('state_change', onState);
        reject(new Error(`pusher-js went ${current}`));
      }
    };
    client.connection.bind('state_change', onState);
  });
}

/** Resolves with the data of the next `event` on `channel` (a pusher-js Channel), or rejects after `ms`. */
export function nextEvent<T = unknown>(channel: { bind: Function; unbind: Function }, event: string, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      channel.unbind(event, handler);
      reject(new Error(`no ${event} within ${ms} ms`));
    }, ms);
    const handler = (data: T) => {
      clearTimeout(timer);
      channel.unbind(event, handler);
      resolve(data);
    };
    channel.bind(event, handler);
  });
}

/** Subscribes and waits for pusher:subscription_succeeded; returns the channel and what it succeeded with. */
export async function subscribed(client: PusherClient, name: string) {
  const channel = client.subscribe(name);
  const data = await nextEvent<unknown>(channel, 'pusher:subscription_succeeded');
  return { channel, data };
}

/** Polls until `check` holds (for state that arrives by another process or through Redis). */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what} did not hold within ${ms} ms`);
    await delay(20);
  }
}

/** A bare `ws` client that keeps every frame it receives, and how it was closed. */
export class RawClient {
  readonly messages: Array<{ event: string; channel?: string; data?: unknown }> = [];
  closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];
  readonly ws: WebSocket;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (raw) => {
      this.messages.push(JSON.parse(raw.toString()));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.ws.on('error', () => {});
  }

  static connect(port: number, path = `/app/${TEST_APP.key}?protocol=7&client=js&version=8.6.0&flash=false`) {
    return new RawClient(`ws://127.0.0.1:${port}${path}`);
  }

  send(message: unknown) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first received frame (from `from` on) whose event is `event`. */
  async next(event: string, from = 0, ms = 5000) {
    const until = Date.now() + ms;
    for (;;) {
      const found = this.messages.slice(from).find((message) => message.event === event);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no ${event} within ${ms} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  close() {
    this.ws.close();
    return this.closed;
  }
}

export const dataOf = <T = Record<string, unknown>>(message: { data?: unknown }): T =>
  (typeof message.data === 'string' ? JSON.parse(message.data) : message.data) as T;
