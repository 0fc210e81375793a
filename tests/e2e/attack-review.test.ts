/**
 * The reproductions of the second attack review (docs/rules.md), each once, against the product as `npm start` runs
 * it on a fresh data directory: reachable from other machines (HOST=0.0.0.0) behind one load balancer
 * (TRUST_PROXY=1, this test playing the balancer: it adds the client's address as the right-most X-Forwarded-For
 * entry), and, for DNS rebinding, on its default loopback HOST. Every attack fails; the owner's path still works.
 * The server suites test each rule in depth; this file shows the running product as a whole holds.
 */
import { hkdfSync, createHmac } from 'node:crypto';
import { request } from 'node:http';
import { generate } from 'otplib';
import Pusher from 'pusher';
import { SignJWT } from 'jose';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRADE_CHANNEL_HEADER } from '../../contracts/trade.ts';
import { beamsIssuer } from '../../server/src/push/instance.ts';
import { DEVICE_API, SDK_VERSION, browserSubscription } from '../support/push.ts';
import { DEMO_PASSWORD, startProduct, type Product } from './support.ts';

/** The APP_SECRET earlier versions fell back to, as their source published it. */
const PUBLISHED_SECRET = 'peerex-development-secret-do-not-use-in-production';
const derivedFromPublished = (purpose: string) => Buffer.from(hkdfSync('sha256', PUBLISHED_SECRET, 'peerex', purpose, 32));

let product: Product;
let port: number;

beforeAll(async () => {
  product = await startProduct({ HOST: '0.0.0.0', TRUST_PROXY: '1' });
  port = Number(new URL(product.baseUrl).port);
});
afterAll(() => product?.stop());

type Envelope<T = unknown> = { success: boolean; info: T };

/** A call as it reaches the server through the balancer: `client` is the address the balancer saw, `spoofed` what the client wrote itself. */
async function through(path: string, body: unknown, options: { client: string; spoofed?: string; token?: string }) {
  const response = await fetch(`${product.baseUrl}/api/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': [options.spoofed, options.client].filter(Boolean).join(', '),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Envelope };
}

/** A raw HTTP request, for the headers fetch() will not send as written (Host). */
function raw(options: { port: number; path: string; method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: options.port, path: options.path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const login = async (username: string, password = DEMO_PASSWORD) =>
  product.call<{ token: string; user: { websocket_token: string } }>('security/login/', { username, password, device: 'attack review' });

let registered = 0;
/** A fresh trader through the real signup (codes read from the product's mails), as a thief's second account is made. */
async function freshTrader(prefix: string) {
  registered += 1;
  const username = `${prefix}${registered}${Date.now() % 100_000}`;
  const email = `${username}@example.test`;
  await product.call('security/validate_email/', { type: 'request', email });
  await product.call('security/validate_email/', { type: 'verify', email, code: await product.codeFor(email) });
  const session = await product.call<{ token: string }>('security/register/', {
    email,
    username,
    password: 'thief-password-1',
    confirmPassword: 'thief-password-1',
    device: 'attack review',
  });
  return { username, token: session.token };
}

/** The newest offer of `owner` with this rate (a publish answers only its sentence). */
async function offerOf(owner: string, rate: string, token: string) {
  const list = await product.call<{ offers: Array<{ id: number; rate: string; user__username: string }> }>(
    'market/offers/',
    { type: 'list', page: 1, filters: { user__username__icontains: owner } },
    token,
  );
  const offer = list.offers.find((entry) => entry.user__username === owner && entry.rate === rate);
  if (!offer) throw new Error(`no offer of ${owner} at ${rate}`);
  return offer.id;
}

async function publish(token: string, owner: string, fields: Record<string, unknown>) {
  await product.call('market/offers/', { type: 'create', update: false, id: null, terms: null, ...fields }, token);
  return offerOf(owner, String(fields.rate), token);
}

/** A raw Pusher-protocol socket: its socket id once established, every frame it received, and how it closed. */
async function socket(headers: Record<string, string> = {}) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/app/peerex?protocol=7&client=js&version=8.6.0&flash=false`, { headers });
  const frames: Array<{ event: string; channel?: string; data?: unknown }> = [];
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as { event: string }));
  const socketId = await new Promise<string>((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused ${res.statusCode}`)));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { event: string; data: string };
      if (frame.event === 'pusher:connection_established') resolve((JSON.parse(frame.data) as { socket_id: string }).socket_id);
    });
  });
  const waitFor = async (match: (frame: { event: string; channel?: string }) => boolean) => {
    for (let i = 0; i < 100; i++) {
      const found = frames.find(match);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no such frame; got ${JSON.stringify(frames)}`);
  };
  return {
    ws,
    socketId,
    frames,
    closed,
    waitFor,
    /** Subscribes with whatever the product's auth endpoint signs for this websocket token. */
    async subscribe(channel: string, websocketToken: string) {
      const auth = await fetch(`${product.baseUrl}/api/realtime/auth/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${websocketToken}` },
        body: JSON.stringify({ socket_id: socketId, channel_name: channel }),
      });
      expect(auth.status).toBe(200);
      ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, ...((await auth.json()) as object) } }));
      await waitFor((frame) => frame.event === 'pusher_internal:subscription_succeeded' && frame.channel === channel);
    },
  };
}

describe('1. the secrets written in the old source sign nothing', () => {
  const published = () =>
    new Pusher({ appId: 'peerex', key: 'peerex', secret: derivedFromPublished('realtime-secret').toString('hex'), host: '127.0.0.1', port: String(port), useTLS: false });

  it('the trigger API refuses a listing of channels and a forged notification signed with it', async () => {
    const listing = await published().get({ path: '/channels' }).then((response) => response.status, (error: { status: number }) => error.status);
    expect(listing).toBe(401);
    const forged = await published()
      .trigger('private-user-alice', 'notification', { title: 'Security alert', body: 'Verify your account at https://evil.example' })
      .then((response) => response.status, (error: { status: number }) => error.status);
    expect(forged).toBe(401);
  });

  it('a subscription to a trader\'s channel signed with it is refused; the owner\'s own is accepted', async () => {
    const thief = await socket();
    const channel = 'private-user-alice';
    const signature = createHmac('sha256', derivedFromPublished('realtime-secret').toString('hex')).update(`${thief.socketId}:${channel}`).digest('hex');
    thief.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth: `peerex:${signature}` } }));
    expect(await thief.waitFor((frame) => frame.event === 'pusher:subscription_error')).toMatchObject({ channel, data: { status: 401 } });
    thief.ws.close();

    const owner = await socket();
    await owner.subscribe(channel, (await login('alice')).user.websocket_token);
    owner.ws.close();
  });

  it('a Beams token forged with it binds no device', async () => {
    // Everything a real token carries (docs/pusher-and-beams.md "Beams tokens" and docs/api.md "Web push (Beams-compatible)"), alice's live session included.
    const alice = await login('alice');
    const [session] = (await product.call<{ sessions: Array<{ id: number; current: boolean }> }>('security/sessions/', { type: 'list' }, alice.token)).sessions.filter(
      (entry) => entry.current,
    );
    const token = await new SignJWT({ sub: 'alice', sid: String(session?.id) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(beamsIssuer('peerex'))
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new Uint8Array(derivedFromPublished('beams token secret')));
    const device = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${product.baseUrl}${DEVICE_API}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json().catch(() => null)) as { id?: string } | null };
    };
    const registered = await device('POST', '/devices/web', { token: browserSubscription('https://fcm.googleapis.com/fcm/send/attack-review').token, metadata: { sdkVersion: SDK_VERSION } });
    expect(registered.status).toBe(200);
    const bound = await device('PUT', `/devices/web/${registered.body?.id}/user`, undefined, { authorization: `Bearer ${token}` });
    expect(bound.status).toBe(401);
  });

  it('a websocket opened by a page of another origin is refused; one from the product\'s own origin is not', async () => {
    await expect(socket({ origin: 'https://evil.example' })).rejects.toThrow('upgrade refused 403');
    const own = await socket({ origin: product.baseUrl });
    own.ws.close();
  });
});

describe('2. a stolen session cannot empty a wallet through a trade', () => {
  it('a trader just after a security change cannot sell; another seller\'s session cannot release without the password', async () => {
    const accomplice = await freshTrader('buyer');
    // A buy offer at a rate of 0.00001: 0.90 USD buys about a bitcoin.
    const bait = await publish(accomplice.token, accomplice.username, {
      offer_type: 'buy',
      coin: '1',
      currency: 'USD',
      rate: '0.00001',
      min_amount: '0.01',
      max_amount: '1',
      payment_methods: ['PayPal'],
    });

    // The victim turned her allowlist on and had just changed two-factor.
    const victim = await login('alice');
    await product.call('security/withdrawal_allowlist/', { type: 'enable' }, victim.token);
    const setup = await product.call<{ secret: string }>('security/two_factor/', { type: 'setup' }, victim.token);
    await product.call('security/two_factor/', { type: 'enable', code: await generate({ secret: setup.secret }), password: DEMO_PASSWORD }, victim.token);
    const sold = await product.post('market/trade/', { type: 'open', offer: bait, amount: '0.90', payment_method: 'PayPal', rate: '0.00001' }, victim.token);
    expect(sold.status).toBe(409);
    expect(await sold.json()).toEqual({ success: false, code: 'trade.selling_paused', info: 'Selling is paused for 24 hours after a security change.' });

    // bob made no security change: his session opens the sale, but the release asks for what a session alone lacks.
    const bob = await login('bob');
    const opened = await product.post('market/trade/', { type: 'open', offer: bait, amount: '0.90', payment_method: 'PayPal', rate: '0.00001' }, bob.token);
    expect(opened.status).toBe(200);
    const channel = opened.headers.get(TRADE_CHANNEL_HEADER) ?? '';
    await product.call('market/trade/', { type: 'mark_paid', channel }, accomplice.token);
    for (const proof of [{}, { password: 'guessed-password' }]) {
      const release = await product.post('market/trade/', { type: 'release_coin', channel, ...proof }, bob.token);
      expect(release.status).toBe(403);
      expect(await release.json()).toEqual({ success: false, code: 'release.password_required', info: 'Please confirm the release with your password.' });
    }
    const [before] = await product.call<Array<{ channel: string; status: string }>>('market/chat/', { type: 'conversations', search: accomplice.username }, bob.token);
    expect(before).toMatchObject({ channel, status: 'pending' });
    // The owner, with his password, releases.
    await product.call('market/trade/', { type: 'release_coin', channel, password: DEMO_PASSWORD }, bob.token);
    const [after] = await product.call<Array<{ status: string }>>('market/chat/', { type: 'conversations', search: accomplice.username }, bob.token);
    expect(after.status).toBe('completed');
  });
});

describe('3. behind the load balancer the client cannot pick its own address', () => {
  const spoof = (i: number) => `10.${i % 250}.${(i * 7) % 250}.${(i * 13) % 250}`;

  it('twelve wrong passwords from one client lock that client out, whatever X-Forwarded-For it writes; the owner elsewhere signs in', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      answers.push((await through('security/login/', { username: 'carol', password: 'wrong-password', device: 'x' }, { client: '198.51.100.7', spoofed: spoof(i) })).status);
    }
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(answers.slice(10)).toEqual([429, 429]);
    expect((await through('security/login/', { username: 'carol', password: DEMO_PASSWORD, device: 'x' }, { client: '198.51.100.8' })).status).toBe(200);
  });

  it('the per-address rate limit counts the client, and the sign-in history shows the address the balancer saw', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 75; i++) {
      statuses.push((await through('security/login/', { username: `nobody${i}`, password: 'x-password', device: 'x' }, { client: '198.51.100.10', spoofed: spoof(i) })).status);
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(10);

    const signedIn = await through('security/login/', { username: 'dave', password: DEMO_PASSWORD, device: 'x' }, { client: '198.51.100.9', spoofed: '8.8.8.8' });
    expect(signedIn.status).toBe(200);
    const bob = await login('bob');
    await through('security/login/', { username: 'bob', password: DEMO_PASSWORD, device: 'x' }, { client: '198.51.100.11', spoofed: '8.8.8.8' });
    const history = await product.call<{ sessions: Array<{ ip: string }> }>('security/sessions/', { type: 'list' }, bob.token);
    expect(history.sessions.map((session) => session.ip)).toContain('198.51.100.11');
    expect(history.sessions.map((session) => session.ip)).not.toContain('8.8.8.8');
  });
});

describe('4. ending a session ends its socket', () => {
  it('after "Sign out everywhere else" the thief\'s socket is closed with 4009 and hears nothing more; the owner\'s stays', async () => {
    const thiefSession = await login('bob');
    const ownerSession = await login('bob');
    const thief = await socket();
    await thief.subscribe('private-user-bob', thiefSession.user.websocket_token);
    const owner = await socket();
    await owner.subscribe('private-user-bob', ownerSession.user.websocket_token);

    const signedOut = await product.call<{ signed_out: number }>('security/sessions/', { type: 'sign_out_others' }, ownerSession.token);
    expect(signedOut.signed_out).toBeGreaterThanOrEqual(1);
    const code = await Promise.race([thief.closed, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 2000))]);
    expect(code).toBe(4009);
    // The owner's socket hears the notification of the sign-out; the thief's heard none of it.
    await owner.waitFor((frame) => frame.event === 'notification');
    expect(thief.frames.some((frame) => frame.event === 'notification')).toBe(false);
    expect(owner.ws.readyState).toBe(WebSocket.OPEN);
    owner.ws.close();
  });
});

describe('5-7. sellers, buy-offer owners and reputation', () => {
  it('5. an offer\'s conditions refuse a fresh account before any coin is frozen', async () => {
    const bob = await login('bob');
    const offer = await publish(bob.token, 'bob', {
      offer_type: 'sell',
      coin: '4',
      currency: 'USD',
      rate: '1.0007',
      min_amount: '10',
      max_amount: '5000',
      payment_methods: ['PayPal'],
      min_completed_trades: 5,
      require_two_factor: true,
    });
    const sybil = await freshTrader('sybil');
    const open = await product.post('market/trade/', { type: 'open', offer, amount: '5000', payment_method: 'PayPal', rate: '1.0007' }, sybil.token);
    expect(open.status).toBe(403);
    expect(await open.json()).toEqual({ success: false, code: 'trade.condition_unmet', info: 'This offer is for traders with at least 5 completed trades.' });
  });

  it('6. nobody fills a buy offer\'s owner\'s slots: the offer takes its cap, and its owner still buys elsewhere', async () => {
    const bob = await login('bob');
    const buyOffer = await publish(bob.token, 'bob', {
      offer_type: 'buy',
      coin: '4',
      currency: 'USD',
      rate: '1.0009',
      min_amount: '10',
      max_amount: '100',
      payment_methods: ['PayPal'],
    });
    const carol = await login('carol');
    const opens: number[] = [];
    for (let i = 0; i < 4; i++) {
      opens.push((await product.post('market/trade/', { type: 'open', offer: buyOffer, amount: '10', payment_method: 'PayPal', rate: '1.0009' }, carol.token)).status);
    }
    expect(opens).toEqual([200, 200, 200, 409]);
    const sellOffer = await publish(carol.token, 'carol', {
      offer_type: 'sell',
      coin: '4',
      currency: 'USD',
      rate: '1.0011',
      min_amount: '10',
      max_amount: '100',
      payment_methods: ['PayPal'],
    });
    const buying = await product.post('market/trade/', { type: 'open', offer: sellOffer, amount: '10', payment_method: 'PayPal', rate: '1.0011' }, bob.token);
    expect(buying.status).toBe(200);
  });

  it('7. eight trades of 0.02 USD with a second account add nothing to a reputation', async () => {
    const seller = await freshTrader('farm');
    const carol = await login('carol');
    const offer = await publish(carol.token, 'carol', {
      offer_type: 'sell',
      coin: '1',
      currency: 'USD',
      rate: '1.0013',
      min_amount: '0.01',
      max_amount: '1',
      payment_methods: ['PayPal'],
    });
    const before = await product.call<{ trades_count: number; rating: string; rated_by: number }>('market/traders/', { type: 'profile', username: 'carol' }, seller.token);
    for (let i = 0; i < 8; i++) {
      const opened = await product.post('market/trade/', { type: 'open', offer, amount: '0.02', payment_method: 'PayPal', rate: '1.0013' }, seller.token);
      expect(opened.status).toBe(200);
      const channel = opened.headers.get(TRADE_CHANNEL_HEADER) ?? '';
      await product.call('market/trade/', { type: 'mark_paid', channel }, seller.token);
      // The first release asks for the password; the rest ride its 10-minute window.
      await product.call('market/trade/', { type: 'release_coin', channel, ...(i === 0 ? { password: DEMO_PASSWORD } : {}) }, carol.token);
      const rated = await product.post('market/trade/', { type: 'rate', channel, score: 5 }, seller.token);
      expect(rated.status).toBe(409);
    }
    const after = await product.call<{ trades_count: number; rating: string; rated_by: number; account_age_days: number }>(
      'market/traders/',
      { type: 'profile', username: 'carol' },
      seller.token,
    );
    expect(after).toMatchObject({ trades_count: before.trades_count, rating: before.rating, rated_by: before.rated_by, account_age_days: 0 });
  });
});

describe('low: what anyone can send', () => {
  it('paths under the web app that are not files answer 404 in the envelope, with no error in the log', async () => {
    for (const path of ['/assets/', '/pages/', '/coins/', '/assets//', '/%2e%2e/package.json']) {
      const answer = await raw({ port, path });
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body), path).toMatchObject({ success: false });
      expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
    }
    expect(product.log()).not.toMatch(/unhandled error|ERROR/);
  });

  it('GET /api/config names the push endpoint under PUBLIC_URL whatever Host the request names', async () => {
    const answer = await raw({ port, path: '/api/config', headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
    expect(answer.status).toBe(200);
    const info = (JSON.parse(answer.body) as Envelope<{ push: { endpoint: string } }>).info;
    expect(info.push.endpoint.startsWith(product.baseUrl)).toBe(true);
  });

  it('look-alike staff names, device labels with line breaks and text that is not Unicode are refused or cleaned', async () => {
    const lookalike = await product.post('security/register/', { email: 'm0d@example.test', username: 'M0derator', password: 'secret-1', confirmPassword: 'secret-1' });
    expect(await lookalike.json()).toEqual({ success: false, code: 'account.username_reserved', info: 'This username is not available' });

    const forged = await product.call<{ token: string }>('security/login/', {
      username: 'carol',
      password: DEMO_PASSWORD,
      device: 'Chrome on Windows\r\n— this is you, no action needed',
    });
    const history = await product.call<{ sessions: Array<{ device: string }> }>('security/sessions/', { type: 'list' }, forged.token);
    expect(history.sessions.every((session) => !/[\r\n]/.test(session.device))).toBe(true);

    const surrogate = await product.post('market/offers/', { type: 'list', page: 1, filters: { user__username__icontains: 'ab\ud800cd' } }, forged.token);
    expect(surrogate.status).toBe(400);
  });

  it('the trigger API reads no large unsigned body and its refusals are not cached and tell no time', async () => {
    const answer = await raw({
      port,
      path: '/apps/peerex/events?auth_key=peerex&auth_timestamp=1&auth_version=1.0&body_md5=0&auth_signature=0',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', channels: ['a'], data: 'x'.repeat(1_000_000) }),
    });
    expect([401, 413]).toContain(answer.status);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).not.toMatch(/\b1\d{9}\b/);
  });

  it('a trader\'s unparseable body to the dispute desk is refused for the role, not parsed', async () => {
    const bob = await login('bob');
    const answer = await raw({
      port,
      path: '/api/market/moderation/',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bob.token}` },
      body: '{not json',
    });
    expect(answer.status).toBe(403);
  });
});

describe('8. DNS rebinding, against the product on its default loopback HOST', () => {
  let loopback: Product;
  beforeAll(async () => {
    loopback = await startProduct({ TRUST_PROXY: '1' });
  });
  afterAll(() => loopback?.stop());

  it('a request naming another host gets 403, even for the development helpers; localhost is answered', async () => {
    const loopbackPort = Number(new URL(loopback.baseUrl).port);
    // The simulated chain's helper: through a rebound name a web page could mint deposits with it.
    const mine = (host: string) =>
      raw({ port: loopbackPort, path: '/api/dev/chain/', method: 'POST', headers: { host, 'content-type': 'application/json' }, body: '{"type":"mine","blocks":1}' });
    const rebound = await mine(`rebind.attacker.example:${loopbackPort}`);
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ success: false });
    expect((await mine(`localhost:${loopbackPort}`)).status).toBe(200);
  });
});
