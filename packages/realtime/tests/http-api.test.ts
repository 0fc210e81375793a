import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import type PusherClient from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commonPrefix, createHostedRealtime } from '../hosted.ts';
import { EVENT_BODY_BYTES, parseSignedQuery, stringToSign } from '../http-api.ts';
import { MAX_EVENT_DATA_BYTES, sign } from '../protocol.ts';
import {
  connected,
  eventually,
  nextEvent,
  pusherClient,
  serverSdk,
  startRealtime,
  subscribed,
  TEST_APP,
  type RealtimeServer,
} from './support/clients.ts';

const opened: PusherClient[] = [];
afterEach(() => opened.splice(0).forEach((client) => client.disconnect()));

let server: RealtimeServer;
beforeAll(async () => {
  server = await startRealtime();
});
afterAll(() => server.close());

const client = (user?: { id: string; name: string }) => {
  const pusher = pusherClient({ port: server.port, user });
  opened.push(pusher);
  return pusher;
};

/** A call signed by the SDK's own signer, sent with fetch: for bodies the SDK itself would refuse to send. */
async function signedCall(method: 'GET' | 'POST', path: string, body?: unknown, port = server.port) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const query = serverSdk(port).createSignedQueryString({ method, path, body: text });
  const response = await fetch(`http://127.0.0.1:${port}${path}?${query}`, {
    method,
    body: text,
    headers: text ? { 'content-type': 'application/json' } : {},
  });
  return { status: response.status, body: await response.json() };
}

/** The status and JSON body of a refused SDK call. */
async function refusal(call: Promise<unknown>) {
  const error = (await call.then(
    () => {
      throw new Error('the call was not refused');
    },
    (reason: unknown) => reason,
  )) as { status: number; body: string };
  return { status: error.status, body: JSON.parse(error.body) as unknown };
}

describe('request signing (docs/pusher-and-beams.md "Request signing")', () => {
  const WORKED = {
    body: '{"name":"foo","channels":["project-3"],"data":"{\\"some\\":\\"data\\"}"}',
    query: 'auth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_version=1.0&body_md5=ec365a775a4cd0599faeb73354201b6f',
    signature: 'da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c',
  };

  it("reproduces Pusher's worked example: body hash, string to sign, signature", () => {
    expect(createHash('md5').update(WORKED.body).digest('hex')).toBe('ec365a775a4cd0599faeb73354201b6f');
    const text = stringToSign('post', '/apps/3/events', parseSignedQuery(`${WORKED.query}&auth_signature=${WORKED.signature}`));
    expect(text).toBe(`POST\n/apps/3/events\n${WORKED.query}`);
    expect(sign(TEST_APP.secret, text)).toBe(WORKED.signature);
  });

  it('accepts the worked example as a request when the clock says 2012', async () => {
    const then = await startRealtime({ now: () => 1353088179_000 + 30_000 });
    try {
      const pusher = pusherClient({ port: then.port });
      opened.push(pusher);
      const { channel } = await subscribed(pusher, 'project-3');
      const received = nextEvent(channel, 'foo');
      const response = await fetch(`http://127.0.0.1:${then.port}/apps/3/events?${WORKED.query}&auth_signature=${WORKED.signature}`, {
        method: 'POST',
        body: WORKED.body,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
      expect(await received).toEqual({ some: 'data' });
    } finally {
      await then.close();
    }
  });

  it('refuses a wrong secret, a wrong key, a changed body, an old timestamp with 401 and a JSON error', async () => {
    expect(await refusal(serverSdk(server.port, 'wrong-secret').trigger('x', 'e', {}))).toEqual({
      status: 401,
      body: { error: expect.stringContaining('Invalid signature') },
    });

    const path = '/apps/3/events';
    const body = JSON.stringify({ name: 'e', channels: ['x'], data: '{}' });
    const query = serverSdk(server.port).createSignedQueryString({ method: 'POST', path, body });
    const post = (url: string, text: string) =>
      fetch(`http://127.0.0.1:${server.port}${url}`, { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });

    expect((await post(`${path}?${query}`, body)).status).toBe(200);
    const tampered = await post(`${path}?${query}`, body.replace('"e"', '"f"'));
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual({ error: expect.stringContaining('body_md5') });
    expect((await post(`${path}?${query.replace(TEST_APP.key, 'another-key')}`, body)).status).toBe(401);
    expect((await post(`${path}?${query.replace(/auth_signature=[0-9a-f]+/, '')}`, body)).status).toBe(401);

    const later = await startRealtime({ now: () => Date.now() + 601_000 });
    try {
      const stale = await refusal(serverSdk(later.port).trigger('x', 'e', {}));
      expect(stale).toEqual({ status: 401, body: { error: expect.stringContaining('Timestamp expired') } });
    } finally {
      await later.close();
    }
  });

  it('answers 404 for an unknown app id', async () => {
    const other = new (await import('pusher')).default({ appId: '4', key: TEST_APP.key, secret: TEST_APP.secret, host: '127.0.0.1', port: String(server.port), useTLS: false });
    expect(await refusal(other.trigger('x', 'e', {}))).toEqual({ status: 404, body: { error: expect.any(String) } });
  });
});

describe('what an unsigned caller can make the trigger API do', () => {
  const path = '/apps/3/events';
  const body = JSON.stringify({ name: 'e', channels: ['x'], data: '{}' });
  /** The SDK's own signed query for `body`, with any parameters replaced afterwards. */
  const query = (replace: Record<string, string> = {}) => {
    const params = new URLSearchParams(serverSdk(server.port).createSignedQueryString({ method: 'POST', path, body }));
    for (const [key, value] of Object.entries(replace)) params.set(key, value);
    return params.toString();
  };
  const post = (search: string, text = body) =>
    fetch(`http://127.0.0.1:${server.port}${path}?${search}`, { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });

  it('refuses before reading the body: a request that announces 1 MB and never sends it is answered 401 at once', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(
          `POST ${path}?${query({ auth_signature: '0'.repeat(64) })} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n`,
        );
      });
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
        if (received.includes('\r\n\r\n') && received.includes('}')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toContain('Invalid signature');
  });

  it('checks the cheap things first: key, version and timestamp before the signature, the signature before the body', async () => {
    const stale = String(Math.floor(Date.now() / 1000) - 3600);
    const refusedWith = async (search: string, text?: string) => {
      const response = await post(search, text);
      return { status: response.status, error: ((await response.json()) as { error: string }).error };
    };
    // Each carries a wrong signature and a wrong body too: the first check that fails is the one named.
    const broken = { auth_signature: 'f'.repeat(64), body_md5: '0'.repeat(32) };
    expect(await refusedWith(query({ ...broken, auth_key: 'another-key' }))).toEqual({ status: 401, error: 'Unknown auth_key' });
    expect(await refusedWith(query({ ...broken, auth_version: '2.0' }))).toEqual({ status: 401, error: 'auth_version must be 1.0' });
    expect(await refusedWith(query({ ...broken, auth_timestamp: stale }))).toEqual({ status: 401, error: expect.stringContaining('Timestamp expired') });
    expect(await refusedWith(query(broken))).toEqual({ status: 401, error: expect.stringContaining('Invalid signature') });
    expect(await refusedWith(query(), body.replace('"e"', '"f"'))).toEqual({ status: 401, error: 'body_md5 does not match the body' });
  });

  it("answers 401s with Cache-Control: no-store and without the server's clock", async () => {
    const stale = await post(query({ auth_timestamp: '1353088179' }));
    expect(stale.status).toBe(401);
    expect(stale.headers.get('cache-control')).toBe('no-store');
    const error = ((await stale.json()) as { error: string }).error;
    expect(error).toContain('Timestamp expired');
    expect(error).not.toMatch(/\d{9,}/);
    expect((await post(query({ auth_signature: '0'.repeat(64) }))).headers.get('cache-control')).toBe('no-store');
  });

  it('caps a signed body at what one event of 10 KB needs (413 past it); a full 10 KB event still publishes', async () => {
    const huge = JSON.stringify({ name: 'e', channels: ['x'], data: '{}', padding: 'p'.repeat(EVENT_BODY_BYTES) });
    expect(await signedCall('POST', path, JSON.parse(huge))).toEqual({ status: 413, body: { error: expect.any(String) } });
    // Data of JSON text, every character escaped again inside the body: the largest a real event's body gets.
    const quoted = `"${'"'.repeat(MAX_EVENT_DATA_BYTES - 2)}"`;
    expect((await serverSdk(server.port).trigger('x', 'e', quoted)).status).toBe(200);
  });
});

describe('POST /apps/:id/events', () => {
  it('delivers an SDK trigger to pusher-js subscribers of every channel named', async () => {
    const pusher = client();
    const [{ channel: a }, { channel: b }] = await Promise.all([subscribed(pusher, 'news-a'), subscribed(pusher, 'private-news-b')]);
    const received = Promise.all([nextEvent(a, 'headline'), nextEvent(b, 'headline')]);
    const response = await serverSdk(server.port).trigger(['news-a', 'private-news-b'], 'headline', { title: 'Hello' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(await received).toEqual([{ title: 'Hello' }, { title: 'Hello' }]);
  });

  it('leaves out the socket_id given', async () => {
    const [sender, other] = [client(), client()];
    const senderId = await connected(sender);
    const [{ channel: mine }, { channel: theirs }] = await Promise.all([subscribed(sender, 'room'), subscribed(other, 'room')]);
    const seen: string[] = [];
    mine.bind('said', (data: { n: number }) => seen.push(`sender ${data.n}`));
    theirs.bind('said', (data: { n: number }) => seen.push(`other ${data.n}`));
    await serverSdk(server.port).trigger('room', 'said', { n: 1 }, { socket_id: senderId });
    await serverSdk(server.port).trigger('room', 'said', { n: 2 });
    await eventually(() => seen.length === 3);
    expect(seen.sort()).toEqual(['other 1', 'other 2', 'sender 2']);
  });

  it('answers the counts asked for with info', async () => {
    const [ann, ben] = [client({ id: 'ann', name: 'Ann' }), client({ id: 'ann', name: 'Ann' })];
    await Promise.all([subscribed(ann, 'presence-desk'), subscribed(ben, 'presence-desk')]);
    const response = await serverSdk(server.port).trigger(['presence-desk', 'empty-desk'], 'ping', {}, { info: 'subscription_count,user_count' });
    expect(await response.json()).toEqual({
      channels: { 'presence-desk': { subscription_count: 2, user_count: 1 }, 'empty-desk': { subscription_count: 0 } },
    });
  });

  it('refuses data over 10 KB with 413 and more than 100 channels with 400', async () => {
    const big = await refusal(serverSdk(server.port).trigger('x', 'e', 'x'.repeat(10_241)));
    expect(big).toEqual({ status: 413, body: { error: expect.stringContaining('too large') } });
    // Exactly 10 KB of data passes.
    expect((await serverSdk(server.port).trigger('x', 'e', 'x'.repeat(10_238))).status).toBe(200);

    const many = Array.from({ length: 101 }, (_, i) => `c${i}`);
    expect(await signedCall('POST', '/apps/3/events', { name: 'e', data: '{}', channels: many })).toEqual({
      status: 400,
      body: { error: expect.stringContaining('100 channels') },
    });
    expect((await signedCall('POST', '/apps/3/events', { name: 'e', data: '{}', channels: ['bad name'] })).status).toBe(400);
    expect((await signedCall('POST', '/apps/3/events', { name: 'e', data: '{}', channels: ['x'], socket_id: 'abc' })).status).toBe(400);
    expect((await signedCall('POST', '/apps/3/events', { data: '{}', channels: ['x'] })).status).toBe(400);
  });
});

describe('POST /apps/:id/batch_events', () => {
  it('delivers every event of an SDK triggerBatch', async () => {
    const pusher = client();
    const [{ channel: a }, { channel: b }] = await Promise.all([subscribed(pusher, 'batch-a'), subscribed(pusher, 'batch-b')]);
    const received = Promise.all([nextEvent(a, 'one'), nextEvent(b, 'two')]);
    const response = await serverSdk(server.port).triggerBatch([
      { channel: 'batch-a', name: 'one', data: { n: 1 } },
      { channel: 'batch-b', name: 'two', data: { n: 2 } },
    ]);
    expect(response.status).toBe(200);
    expect(await received).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('refuses more than 10 events, and a batch with one bad event whole', async () => {
    const eleven = Array.from({ length: 11 }, () => ({ channel: 'x', name: 'e', data: '{}' }));
    expect(await signedCall('POST', '/apps/3/batch_events', { batch: eleven })).toEqual({
      status: 400,
      body: { error: expect.stringContaining('10 events') },
    });
    const pusher = client();
    const { channel } = await subscribed(pusher, 'batch-c');
    let delivered = 0;
    channel.bind('e', () => delivered++);
    const mixed = await signedCall('POST', '/apps/3/batch_events', {
      batch: [
        { channel: 'batch-c', name: 'e', data: '{}' },
        { channel: 'batch-c', name: 'e', data: 'x'.repeat(10_241) },
      ],
    });
    expect(mixed.status).toBe(413);
    const sentinel = nextEvent(channel, 'sentinel');
    await serverSdk(server.port).trigger('batch-c', 'sentinel', {});
    await sentinel;
    expect(delivered).toBe(0);
  });
});

describe('GET /apps/:id/channels…', () => {
  beforeAll(async () => {
    const [ann, ben, watcher] = [client({ id: 'ann', name: 'Ann' }), client({ id: 'ben', name: 'Ben' }), client()];
    await Promise.all([
      subscribed(ann, 'presence-lobby'),
      subscribed(ben, 'presence-lobby'),
      subscribed(watcher, 'presence-lobby'.replace('presence-', 'list-')),
      subscribed(ann, 'list-two'),
      subscribed(ben, 'list-two'),
    ]);
    // These clients stay for the describe block: take them out of afterEach's reach.
    opened.splice(0);
  });

  it('lists occupied channels, by prefix, with counts when asked', async () => {
    const sdk = serverSdk(server.port);
    const all = (await (await sdk.get({ path: '/channels' })).json()) as { channels: Record<string, unknown> };
    expect(Object.keys(all.channels)).toEqual(expect.arrayContaining(['presence-lobby', 'list-lobby', 'list-two']));

    const listed = await (await sdk.get({ path: '/channels', params: { filter_by_prefix: 'list-', info: 'subscription_count' } })).json();
    expect(listed).toEqual({ channels: { 'list-lobby': { subscription_count: 1 }, 'list-two': { subscription_count: 2 } } });

    const presence = await (await sdk.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })).json();
    expect(presence).toEqual({ channels: { 'presence-lobby': { user_count: 2 } } });
    expect((await refusal(sdk.get({ path: '/channels', params: { info: 'user_count' } }))).status).toBe(400);
  });

  it('describes one channel', async () => {
    const sdk = serverSdk(server.port);
    const lobby = await (await sdk.get({ path: '/channels/presence-lobby', params: { info: 'subscription_count,user_count' } })).json();
    expect(lobby).toEqual({ occupied: true, subscription_count: 2, user_count: 2 });
    expect(await (await sdk.get({ path: '/channels/nobody-here' })).json()).toEqual({ occupied: false });
    expect((await refusal(sdk.get({ path: '/channels/list-two', params: { info: 'user_count' } }))).status).toBe(400);
  });

  it("lists a presence channel's users, and refuses other channels", async () => {
    const sdk = serverSdk(server.port);
    const { users } = (await (await sdk.get({ path: '/channels/presence-lobby/users' })).json()) as { users: Array<{ id: string }> };
    expect(users.map((user) => user.id).sort()).toEqual(['ann', 'ben']);
    expect((await refusal(sdk.get({ path: '/channels/list-two/users' }))).status).toBe(400);
  });
});

describe('the hosted publisher (the pusher SDK) against the built-in server', () => {
  const hosted = () => createHostedRealtime({ app: TEST_APP, host: '127.0.0.1', port: server.port, useTLS: false });

  it('triggers like the built-in trigger: a string stays a string, 150 channels go in two calls', async () => {
    const pusher = client();
    const { channel: first } = await subscribed(pusher, 'fan-000');
    const { channel: last } = await subscribed(pusher, 'fan-149');
    const received = Promise.all([nextEvent(first, 'text'), nextEvent(last, 'text')]);
    const channels = Array.from({ length: 150 }, (_, i) => `fan-${String(i).padStart(3, '0')}`);
    await hosted().trigger(channels, 'text', '{"looks":"like json"}');
    expect(await received).toEqual(['{"looks":"like json"}', '{"looks":"like json"}']);
  });

  it('answers occupied() from one channel list under the common prefix', async () => {
    const pusher = client();
    await subscribed(pusher, 'private-user-dora');
    expect(await hosted().occupied(['private-user-dora', 'private-user-eve'])).toEqual(new Set(['private-user-dora']));
    expect(await hosted().occupied([])).toEqual(new Set());
    expect(commonPrefix(['private-user-dora', 'private-user-eve', 'private-user-ed'])).toBe('private-user-');
    expect(commonPrefix(['a-1', 'b-1'])).toBe('');
  });
});
