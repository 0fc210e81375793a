/**
 * Hostile input over every call the server registers (issue 14, "Hostile input"). The table below has one
 * entry per registered route, checked against the routes of the app itself, so a new call cannot be
 * forgotten. Each call is made without a session, with another trader's ids and channels, with bodies that
 * fast-check generates from the call's own zod schema, and with those bodies broken. Never a 500; always the
 * call's answer shape (the `{success, info}` envelope, or the Beams / Pusher shape of the push and trigger
 * APIs); a refused body changes nothing in the database; every answer carries the security headers.
 */
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import type { Access } from '../../server/src/infra/http/call.ts';
import { loadCalls } from '../../server/src/infra/http/calls.ts';
import { findBadText, parseBody } from '../../server/src/infra/http/parse-body.ts';
import { stringToSign } from '../../packages/realtime/index.ts';
import { deviceInterestsBody, deviceMetadataBody, deviceRegistration, DEVICE_BODY_LIMIT_BYTES } from '../../packages/push-service/index.ts';
import { benchmarkAddress, bodiesOf, brokenBodiesOf, type BrokenBody, type JsonSchema } from '../support/hostile-arbitraries.ts';
import { beamsSdk, browserSubscription } from '../support/push.ts';
import { normaliseRoute, registeredRoutes } from '../support/route-tree.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { expectCatalogued } from '../support/refusals.ts';
import { login, newTrader, sessionIdOf } from '../support/server-flows.ts';
import { moderator, openTrade, operator, sellOffer, trader, type Trader } from '../support/server-trades.ts';

/** Seeded, so a failure reproduces; HOSTILE_SEED=<n> replays one. */
const SEED = Number(process.env.HOSTILE_SEED ?? 20_261_114);
const BROKEN_RUNS = 60;
const GENERATED_RUNS = 30;
const BODY_LIMIT_BYTES = 64 * 1024;
const REPORT_BODY_LIMIT_BYTES = 2 * 1024;
const FCM = 'https://fcm.googleapis.com/fcm/send/hostile';
const SESSION_EXPIRED = { success: false, code: 'session.expired', info: 'Session expired' };
const BAD_ADDRESS = { success: false, code: 'request.bad_address', info: 'The address of this call is not valid.' };
/** The same refusal for a parameter longer than the router reads (414). */
const ADDRESS_TOO_LONG = { ...BAD_ADDRESS, code: 'request.address_too_long' };
const isEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** What a refusal must never show: a stack, a driver's message, a validation library's name. */
const INTERNALS = /FST_|Error:|at \/|node_modules|SQL|syntax|ZodError|duplicate key|violates|relation "/;

/** The other traders' things the caller must never see. */
const SECRET = {
  terms: 'TERMS-OF-THE-OTHER-SELLER-7f3a',
  chat: 'CHAT-BETWEEN-OTHERS-91c2',
  reason: 'DISPUTE-REASON-OF-OTHERS-55d0',
  label: 'ALLOWLIST-LABEL-c4e1',
};

interface World {
  me: Trader & { password: string };
  /** Sells to `buyer`: their trade, its chat, their offer and notifications are not the caller's. */
  seller: Trader;
  buyer: Trader;
  mod: Trader;
  ops: Trader;
  sellerOffer: number;
  channel: string;
  sellerNotification: number;
  /** An address on the seller's withdrawal allowlist. */
  sellerAllowlisted: number;
  myDevice: string;
  sellerDevice: string;
  realtime: { id: string; key: string; secret: string };
}

/** `document`: a success is not JSON in the envelope (the OpenAPI document, the API reference page and its scripts); a refusal is. */
type AnswerShape = 'envelope' | 'document' | 'device-api' | 'trigger-api';

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** As registered (Fastify's pattern), without a trailing slash. */
  route: string;
  url: (w: World) => string;
  access: Access;
  answers: AnswerShape;
  /** The call's own request schema; absent for calls without a body. */
  schema?: z.core.$ZodType | JsonSchema;
  /** Whether the server refuses a parsed body (default: the zod schema through parseBody, as the routes do). */
  refuses?: (body: unknown) => boolean;
  bodyLimit?: number;
  /** It only reads: any answer leaves the database as it was. */
  readOnly?: boolean;
  /** A body it accepts ends the calling session. */
  endsSession?: boolean;
}

const refusedBy = (schema: z.core.$ZodType) => (body: unknown) => {
  try {
    parseBody(schema, body);
    return false;
  } catch {
    return true;
  }
};
/** The device API parses with zod directly, after the product's rule on NUL and lone surrogates. */
const deviceRefuses = (schema: z.core.$ZodType) => (body: unknown) => findBadText(body) !== undefined || !z.safeParse(schema, body).success;

/** Pusher's event body (docs/pusher-and-beams.md "Endpoints and limits"): the trigger API parses it by hand, so its shape is written here. */
const pusherEvent: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    data: { type: 'string', maxLength: 200 },
    channels: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9_\\-=@,.;]{1,40}$' }, minItems: 1, maxItems: 3 },
    socket_id: { type: 'string', pattern: '^\\d{1,5}\\.\\d{1,5}$' },
  },
  required: ['name', 'data', 'channels'],
};

const DEVICE = '/push/device_api/v1/instances/:instanceId';
const device = (suffix: string, of: (w: World) => string = (w) => w.myDevice) => (w: World) =>
  `/push/device_api/v1/instances/peerex/devices/web/${of(w)}${suffix}`;

/**
 * What a declaration does not say, by route: how the URL fills its parameters, whether any answer leaves the
 * database as it was, whether a body it accepts ends the session. A call missing here is still fuzzed, refused
 * without a session and walked with hostile paths; it only goes without these checks.
 */
const KNOWN: Record<string, Partial<Pick<Call, 'url' | 'readOnly' | 'endsSession'>>> = {
  '/api/health': { readOnly: true },
  '/api/config': { readOnly: true },
  '/api/ready': { readOnly: true },
  '/api/openapi.json': { readOnly: true },
  '/api/docs': { readOnly: true },
  '/api/docs/init.js': { readOnly: true },
  '/api/docs/scalar.js': { readOnly: true },
  '/api/security/logout': { endsSession: true },
  '/api/security/confirmation': { readOnly: true },
  '/api/user/overview': { readOnly: true },
  '/api/base/coins': { readOnly: true },
  '/api/market/traders': { readOnly: true },
  '/api/market/chat': { readOnly: true },
  '/api/market/chat/:channel': { url: (w) => `/api/market/chat/${w.channel}/` },
  '/api/push/beams-auth': { url: (w) => `/api/push/beams-auth/?user_id=${w.me.username}`, readOnly: true },
  '/api/realtime/auth': { readOnly: true },
  '/api/dev/outbox': { readOnly: true },
  '/api/operator/overview': { readOnly: true },
  '/api/operator/audit': { readOnly: true },
  '/api/operator/audit.csv': { readOnly: true },
  '/api/operator/fees.csv': { readOnly: true },
};

/** The server's own calls, from their declarations (the *.call.ts files under server/src): method, route, access and request schema. */
const DECLARED: Call[] = (await loadCalls()).map((call) => {
  const route = call.path.replace(/\{([^}]+)\}/g, ':$1').replace(/\/$/, '');
  return {
    method: call.method.toUpperCase() as Call['method'],
    route,
    url: () => call.path,
    access: call.access,
    // Not the envelope on success: the OpenAPI document, the reference page and its scripts.
    answers: call.answer.kind === 'text' || route === '/api/openapi.json' ? 'document' : 'envelope',
    ...(call.request ? { schema: call.request.schema } : {}),
    ...KNOWN[route],
  };
});

/** Every call the server registers: its own, and the packages' device API and trigger API, which parse by hand. */
const CALLS: Call[] = [
  ...DECLARED,
  { method: 'GET', route: `${DEVICE}/web-vapid-public-key`, url: () => '/push/device_api/v1/instances/peerex/web-vapid-public-key', access: 'device', answers: 'device-api', readOnly: true },
  {
    method: 'POST',
    route: `${DEVICE}/devices/web`,
    url: () => '/push/device_api/v1/instances/peerex/devices/web',
    access: 'device',
    answers: 'device-api',
    schema: deviceRegistration,
    refuses: deviceRefuses(deviceRegistration),
    bodyLimit: DEVICE_BODY_LIMIT_BYTES,
  },
  { method: 'DELETE', route: `${DEVICE}/devices/web/:deviceId`, url: device(''), access: 'device', answers: 'device-api' },
  {
    method: 'PUT',
    route: `${DEVICE}/devices/web/:deviceId/metadata`,
    url: device('/metadata'),
    access: 'device',
    answers: 'device-api',
    schema: deviceMetadataBody,
    refuses: deviceRefuses(deviceMetadataBody),
    bodyLimit: REPORT_BODY_LIMIT_BYTES,
  },
  { method: 'GET', route: `${DEVICE}/devices/web/:deviceId/interests`, url: device('/interests'), access: 'device', answers: 'device-api', readOnly: true },
  {
    method: 'PUT',
    route: `${DEVICE}/devices/web/:deviceId/interests`,
    url: device('/interests'),
    access: 'device',
    answers: 'device-api',
    schema: deviceInterestsBody,
    refuses: deviceRefuses(deviceInterestsBody),
  },
  { method: 'POST', route: `${DEVICE}/devices/web/:deviceId/interests/*`, url: device('/interests/hostile-interest'), access: 'device', answers: 'device-api' },
  { method: 'DELETE', route: `${DEVICE}/devices/web/:deviceId/interests/*`, url: device('/interests/hostile-interest'), access: 'device', answers: 'device-api' },
  { method: 'PUT', route: `${DEVICE}/devices/web/:deviceId/user`, url: device('/user'), access: 'device', answers: 'device-api' },
  {
    method: 'POST',
    route: '/push/reporting_api/v2/instances/:instanceId/events',
    url: () => '/push/reporting_api/v2/instances/peerex/events',
    access: 'device',
    answers: 'device-api',
    readOnly: true,
    bodyLimit: REPORT_BODY_LIMIT_BYTES,
  },
  { method: 'POST', route: '/apps/:appId/events', url: (w) => `/apps/${w.realtime.id}/events`, access: 'signed', answers: 'trigger-api', schema: pusherEvent, readOnly: true, bodyLimit: 1_048_576 },
  {
    method: 'POST',
    route: '/apps/:appId/batch_events',
    url: (w) => `/apps/${w.realtime.id}/batch_events`,
    access: 'signed',
    answers: 'trigger-api',
    schema: { type: 'object', properties: { batch: { type: 'array', items: pusherEvent, minItems: 1, maxItems: 3 } }, required: ['batch'] },
    readOnly: true,
    bodyLimit: 1_048_576,
  },
  { method: 'GET', route: '/apps/:appId/channels', url: (w) => `/apps/${w.realtime.id}/channels`, access: 'signed', answers: 'trigger-api', readOnly: true },
  { method: 'GET', route: '/apps/:appId/channels/:channel', url: (w) => `/apps/${w.realtime.id}/channels/private-${w.channel}`, access: 'signed', answers: 'trigger-api', readOnly: true },
  { method: 'GET', route: '/apps/:appId/channels/:channel/users', url: (w) => `/apps/${w.realtime.id}/channels/presence-x/users`, access: 'signed', answers: 'trigger-api', readOnly: true },
];

// ---------------------------------------------------------------------------------------------------------
// Checks every answer gets.

function expectSecurityHeaders(call: Call, response: LightMyRequestResponse, context: string) {
  expect(response.headers['x-content-type-options'], context).toBe('nosniff');
  expect(response.headers['referrer-policy'], context).toMatch(/\S/);
  if (call.route.startsWith('/api/') || call.route.startsWith('/push/')) {
    expect(response.headers['cache-control'], context).toBe('no-store');
  }
}

function bodyOf(response: LightMyRequestResponse): unknown {
  if (response.statusCode === 204) return undefined;
  try {
    return response.json();
  } catch {
    return response.body;
  }
}

/** Never a 500; the call's answer shape; a refusal in one sentence without internals. */
function expectAnswer(call: Call, response: LightMyRequestResponse, context: string) {
  const body = bodyOf(response);
  const where = `${context}: ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, where).toBeLessThan(500);
  expectSecurityHeaders(call, response, where);
  const refused = response.statusCode >= 400;
  // A path that is not valid percent-encoding is refused before any route: in the envelope, whatever the call.
  if (isEqual(body, BAD_ADDRESS) || isEqual(body, ADDRESS_TOO_LONG)) {
    expect([400, 414], where).toContain(response.statusCode);
    expectCatalogued(response.statusCode, body, where);
    return;
  }
  switch (call.answers) {
    case 'envelope':
      if (refused) {
        // The envelope with a code of the catalogue, answered with its status (tests/support/refusals.ts).
        expectCatalogued(response.statusCode, body, where);
        expect((body as { info: string }).info, where).not.toMatch(INTERNALS);
      } else if (call.route === '/api/realtime/auth') {
        // Every channel the product signs is private: the signature covers channel_data naming the session.
        expect(body, where).toEqual({ auth: expect.any(String), channel_data: expect.stringMatching(/^\{"session":"\d+"\}$/) });
      } else if (call.route === '/api/push/beams-auth') {
        expect(body, where).toEqual({ token: expect.any(String) });
      } else {
        expect(body, where).toMatchObject({ success: true });
      }
      break;
    case 'document':
      if (refused) {
        // The envelope with a code of the catalogue, answered with its status (tests/support/refusals.ts).
        expectCatalogued(response.statusCode, body, where);
        expect((body as { info: string }).info, where).not.toMatch(INTERNALS);
      }
      break;
    case 'device-api':
      if (refused) {
        expect(body, where).toEqual({ error: expect.any(String), description: expect.any(String) });
        expect((body as { description: string }).description, where).not.toMatch(INTERNALS);
      }
      break;
    case 'trigger-api':
      if (refused) expect(body, where).toEqual({ error: expect.any(String) });
      break;
  }
}

// ---------------------------------------------------------------------------------------------------------
// What a trader could see: every table, by row count and a hash of its rows, in one query.

async function snapshotOf(t: TestApp): Promise<Record<string, string>> {
  const tables = await t.app.db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  const sql = tables
    .map(({ name }) => `SELECT '${name}' AS name, count(*)::text || ':' || md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) AS state FROM "${name}" r`)
    .join(' UNION ALL ');
  const rows = await t.app.db.query<{ name: string; state: string }>(sql);
  return Object.fromEntries(rows.map((row) => [row.name, row.state]));
}

const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);

// ---------------------------------------------------------------------------------------------------------

describe.each(dbTargets)('hostile input on %s', (target) => {
  let t: TestApp;
  let w: World;
  const tokens = new Map<string, string>();

  /** A live session of `who`, signed in once and again after a call that ended it. */
  async function sessionOf(who: { username: string; password: string }): Promise<string> {
    const known = tokens.get(who.username);
    if (known) return known;
    const answer = await login(t, who.username, who.password);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const token = (answer.body.info as { token: string }).token;
    tokens.set(who.username, token);
    return token;
  }

  /** The request of `call` with the caller's credentials (`as` another trader's, or none). */
  async function requestOf(call: Call, raw: string | undefined, as: 'caller' | 'nobody' = 'caller'): Promise<InjectOptions> {
    const headers: Record<string, string> = {};
    let url = call.url(w);
    if (raw !== undefined) headers['content-type'] = 'application/json';
    if (as === 'caller') {
      if (call.access === 'session' || call.access === 'trader') headers.authorization = `Bearer ${await sessionOf(w.me)}`;
      if (call.access === 'moderator') headers.authorization = `Bearer ${await sessionOf({ username: w.mod.username, password: newTrader().password })}`;
      if (call.access === 'operator') headers.authorization = `Bearer ${await sessionOf({ username: w.ops.username, password: newTrader().password })}`;
      if (call.access === 'websocket') headers.authorization = `Bearer ${w.me.websocketToken}`;
      if (call.access === 'signed') url = signedUrl(call.method, url, raw ?? '');
      if (call.route.endsWith('/user') && call.access === 'device') headers.authorization = `Bearer ${await t.app.push.tokens.issue(w.me.username, await sessionIdOf(t, await sessionOf(w.me)))}`;
    }
    return { method: call.method, url, headers, remoteAddress: benchmarkAddress(), ...(raw !== undefined ? { payload: raw } : {}) };
  }

  /** Pusher's request signature (docs/pusher-and-beams.md "Request signing"), as the `pusher` SDK writes it. */
  function signedUrl(method: string, url: string, raw: string): string {
    const [path = '', search = ''] = url.split('?');
    const query = new Map(new URLSearchParams(search));
    query.set('auth_key', w.realtime.key);
    query.set('auth_timestamp', String(Math.floor(Date.now() / 1000)));
    query.set('auth_version', '1.0');
    if (raw !== '') query.set('body_md5', createHash('md5').update(raw, 'utf8').digest('hex'));
    const signature = createHmac('sha256', w.realtime.secret).update(stringToSign(method, path, query)).digest('hex');
    return `${path}?${new URLSearchParams([...query, ['auth_signature', signature]]).toString()}`;
  }

  beforeAll(async () => {
    t = await createTestApp(target, {
      env: { CHAT_MESSAGES_PER_MINUTE: '100000', WITHDRAWAL_CALLS_PER_MINUTE: '100000', LOGIN_LOCKOUT_FAILURES: '100000', LOGIN_ACCOUNT_FAILURES_PER_HOUR: '100000' },
    });
    const me = await trader(t, { BTC: '1' });
    const seller = await trader(t, { BTC: '1' });
    const buyer = await trader(t);
    const mod = await moderator(t);
    const ops = await operator(t);
    const sellerOffer = await sellOffer(t, seller, { terms: SECRET.terms });
    const channel = await openTrade(t, buyer, sellerOffer, '97', 'SEPA');
    expect((await t.post(`/api/market/chat/${channel}/`, { type: 'send_message', message_type: 'text', text: SECRET.chat }, { token: buyer.token })).status).toBe(200);
    const { id: sellerNotification } = await t.app.db.one<{ id: number }>('SELECT max(id)::int AS id FROM notifications WHERE user_id = $1', [seller.id]);
    const register = async (who: Trader, name: string) => {
      const sdk = beamsSdk(t.app, { ip: benchmarkAddress() });
      const registered = await sdk.registerDevice(browserSubscription(`${FCM}-${name}`).token);
      expect(registered.status).toBe(200);
      const id = (registered.body as { id: string }).id;
      expect((await sdk.setUserId(id, await t.app.push.tokens.issue(who.username, await sessionIdOf(t, who.token)))).status).toBe(200);
      return id;
    };
    const sellerAddress = (
      await t.post<Array<{ networks: Array<{ key: string; address: string }> }>>('/api/user/wallet/', { type: 'addresses' }, { token: buyer.token })
    ).body.info.flatMap((entry) => entry.networks).find((network) => network.key === 'bitcoin')?.address;
    const listed = await t.post<{ addresses: Array<{ id: number }> }>(
      '/api/security/withdrawal_allowlist/',
      { type: 'add', network: 'bitcoin', address: sellerAddress, label: SECRET.label, password: newTrader().password },
      { token: seller.token },
    );
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    w = {
      sellerAllowlisted: (listed.body.info.addresses[0] as { id: number }).id,
      me: { ...me, password: newTrader().password },
      seller,
      buyer,
      mod,
      ops,
      sellerOffer,
      channel,
      sellerNotification,
      myDevice: await register(me, 'me'),
      sellerDevice: await register(seller, 'seller'),
      realtime: t.app.realtime.settings.app,
    };
  }, 120_000);
  afterAll(() => t.close());

  it('has an entry for every route the server registers, and no entry for a route it does not', () => {
    const table = CALLS.map((call) => `${call.method} ${normaliseRoute(call.route)}`).sort();
    expect(new Set(table).size, 'one entry per route').toBe(table.length);
    expect(table).toEqual(registeredRoutes(t.app));
  });

  describe('without a session', () => {
    /**
     * A body each signed-in call would accept from its owner, where one is needed to show that the session is asked
     * first (infra/http/calls.ts checks it before the body for every signed-in access); `{}` for any other.
     */
    const FAIR_BODIES: Record<string, unknown> = {
      '/api/security/logout': {},
      '/api/security/two_factor': { type: 'status' },
      '/api/security/sessions': { type: 'list' },
      '/api/security/anti_phishing': { type: 'status' },
      '/api/security/withdrawal_allowlist': { type: 'status' },
      '/api/security/confirmation': { type: 'status' },
      '/api/user/overview': {},
      '/api/user/wallet': { type: 'list' },
      '/api/user/notifications': { type: 'list' },
      '/api/base/coins': {},
      '/api/market/offers': { type: 'list' },
      '/api/market/trade': { type: 'history' },
      '/api/market/traders': { type: 'profile', username: 'alice' },
      '/api/market/chat': { type: 'conversations' },
      '/api/market/chat/:channel': { type: 'messages' },
      '/api/market/moderation': { type: 'list' },
      '/api/operator/overview': { type: 'overview' },
      '/api/operator/audit': { type: 'list' },
      '/api/realtime/auth': { socket_id: '123.456', channel_name: 'private-user-alice' },
    };
    const guarded = CALLS.filter((call) => ['session', 'trader', 'moderator', 'operator', 'websocket'].includes(call.access));

    for (const call of guarded) {
      it(`${call.method} ${call.route}: 401 "Session expired" with no token, a made-up one, or a malformed header`, async () => {
        const before = await snapshotOf(t);
        const body = call.method === 'POST' ? JSON.stringify(FAIR_BODIES[call.route] ?? {}) : undefined;
        for (const authorization of [undefined, 'Bearer not-a-token-0123456789abcdef', 'Bearer ', 'Basic YWxpY2U6cGVlcmV4', `Bearer ${'\u00e9'.repeat(3)}`]) {
          const request = await requestOf(call, body, 'nobody');
          if (authorization !== undefined) request.headers = { ...request.headers, authorization };
          const response = await t.app.inject(request);
          expectAnswer(call, response, `${authorization ?? 'no token'}`);
          expect({ status: response.statusCode, body: bodyOf(response) }, authorization).toEqual({ status: 401, body: SESSION_EXPIRED });
        }
        expect(changedTables(before, await snapshotOf(t))).toEqual([]);
      });
    }

    it('the trigger API refuses an unsigned call, and the device API binds no device without a Beams token', async () => {
      for (const call of CALLS.filter((entry) => entry.access === 'signed')) {
        const response = await t.app.inject(await requestOf(call, call.method === 'POST' ? '{"name":"x","data":"{}","channels":["coin_price"]}' : undefined, 'nobody'));
        expectAnswer(call, response, call.route);
        expect(response.statusCode, call.route).toBe(401);
      }
      const bind = CALLS.find((entry) => entry.route.endsWith('/:deviceId/user')) as Call;
      const response = await t.app.inject(await requestOf(bind, undefined, 'nobody'));
      expectAnswer(bind, response, 'no Beams token');
      expect(response.statusCode).toBe(401);
    });

    it('the development helpers answer a request that came through a proxy with 404', async () => {
      for (const call of CALLS.filter((entry) => entry.route.startsWith('/api/dev/'))) {
        const request = await requestOf(call, '{}', 'nobody');
        const response = await t.app.inject({ ...request, remoteAddress: '127.0.0.1', headers: { ...request.headers, 'x-forwarded-for': '203.0.113.9' } });
        expectAnswer(call, response, call.route);
        expect(response.statusCode).toBe(404);
      }
    });
  });

  describe("another trader's ids and channels", () => {
    interface Foreign {
      name: string;
      call: string;
      request: (w: World) => { url?: string; body?: unknown; query?: string };
      /** 403 or 404, unless said otherwise. */
      statuses?: number[];
    }
    const route = (path: string) => CALLS.find((call) => call.route === path) as Call;
    const FOREIGN: Foreign[] = [
      ...(['messages', 'typing'] as const).map((type) => ({
        name: `chat ${type} in their trade's channel`,
        call: '/api/market/chat/:channel',
        request: () => ({ body: { type } }),
      })),
      { name: 'a chat message into their trade', call: '/api/market/chat/:channel', request: () => ({ body: { type: 'send_message', message_type: 'text', text: 'hello' } }) },
      ...(['cancel', 'mark_paid', 'release_coin'] as const).map((type) => ({
        name: `${type} on their trade`,
        call: '/api/market/trade',
        request: (w: World) => ({ body: { type, channel: w.channel } }),
      })),
      { name: 'a dispute on their trade', call: '/api/market/trade', request: (w) => ({ body: { type: 'raise_dispute', channel: w.channel, reason: 'mine now' } }) },
      { name: 'a rating of their trade', call: '/api/market/trade', request: (w) => ({ body: { type: 'rate', channel: w.channel, score: 1 } }) },
      { name: 'their offer in the edit form', call: '/api/market/offers', request: (w) => ({ body: { type: 'get', id: w.sellerOffer } }) },
      { name: 'pausing their offer', call: '/api/market/offers', request: (w) => ({ body: { type: 'toggle', id: w.sellerOffer } }) },
      {
        name: 'editing their offer',
        call: '/api/market/offers',
        request: (w) => ({
          body: { type: 'create', update: true, id: w.sellerOffer, offer_type: 'sell', coin: '1', currency: 'EUR', rate: '9', min_amount: '1', max_amount: '2', payment_methods: ['SEPA'], terms: 'taken over' },
        }),
      },
      { name: 'removing an address from their withdrawal allowlist', call: '/api/security/withdrawal_allowlist', request: (w) => ({ body: { type: 'remove', id: w.sellerAllowlisted } }) },
      { name: 'reading their notification', call: '/api/user/notifications', request: (w) => ({ body: { type: 'open_one', id: w.sellerNotification } }) },
      ...(['list', 'get'] as const).map((type) => ({
        name: `the dispute desk's ${type} as a trader`,
        call: '/api/market/moderation',
        request: (w: World) => ({ body: type === 'list' ? { type } : { type, channel: w.channel } }),
      })),
      { name: "their trade's realtime channel", call: '/api/realtime/auth', request: (w) => ({ body: { socket_id: '1.2', channel_name: `private-${w.channel}` } }) },
      { name: 'their private user channel', call: '/api/realtime/auth', request: (w) => ({ body: { socket_id: '1.2', channel_name: `private-user-${w.seller.username}` } }) },
      { name: "the moderators' channel", call: '/api/realtime/auth', request: () => ({ body: { socket_id: '1.2', channel_name: 'private-moderation' } }) },
      { name: "the operators' channel", call: '/api/realtime/auth', request: () => ({ body: { socket_id: '1.2', channel_name: 'private-operators' } }) },
      { name: 'the operator overview as a trader', call: '/api/operator/overview', request: () => ({ body: { type: 'overview' } }) },
      { name: 'the audit log as a trader', call: '/api/operator/audit', request: () => ({ body: { type: 'list' } }) },
      { name: 'the audit log as CSV as a trader', call: '/api/operator/audit.csv', request: () => ({}) },
      { name: 'the fee income as CSV as a trader', call: '/api/operator/fees.csv', request: () => ({}) },
      { name: 'a Beams token for their user id', call: '/api/push/beams-auth', request: (w) => ({ url: `/api/push/beams-auth/?user_id=${w.seller.username}` }) },
      {
        // The device id is the device's credential; binding someone else's device to oneself is a conflict.
        name: 'their browser bound to my user',
        call: `${DEVICE}/devices/web/:deviceId/user`,
        request: (w) => ({ url: device('/user', (x) => x.sellerDevice)(w) }),
        statuses: [409],
      },
    ];

    it('tries every kind of call that takes an id or a channel', () => {
      const covered = new Set(FOREIGN.map((foreign) => foreign.call));
      for (const path of ['/api/security/withdrawal_allowlist', '/api/market/chat/:channel', '/api/market/trade', '/api/market/offers', '/api/user/notifications', '/api/market/moderation', '/api/realtime/auth', '/api/push/beams-auth']) {
        expect(covered.has(path), path).toBe(true);
      }
    });

    for (const foreign of FOREIGN) {
      it(`${foreign.name}: refused, none of their data shown, nothing changed`, async () => {
        const call = route(foreign.call);
        const asked = foreign.request(w);
        const request = await requestOf(call, asked.body === undefined ? undefined : JSON.stringify(asked.body));
        // The staff calls are made by a trader here, not by the moderator or operator the table's fuzzing uses.
        if (call.access === 'moderator' || call.access === 'operator') request.headers = { ...request.headers, authorization: `Bearer ${await sessionOf(w.me)}` };
        if (asked.url) request.url = asked.url;
        const before = await snapshotOf(t);
        const response = await t.app.inject(request);
        expectAnswer(call, response, foreign.name);
        expect(foreign.statuses ?? [403, 404], response.body).toContain(response.statusCode);
        for (const secret of [...Object.values(SECRET), w.seller.token, w.buyer.token, w.seller.websocketToken]) {
          expect(response.body).not.toContain(secret);
        }
        expect(changedTables(before, await snapshotOf(t))).toEqual([]);
      });
    }
  });

  /** The raw body as the server's parser takes it, or why it is refused before any route code runs. */
  function judge(call: Call, raw: string): { refused: boolean } {
    if (Buffer.byteLength(raw, 'utf8') > (call.bodyLimit ?? BODY_LIMIT_BYTES)) return { refused: true };
    // Pusher's HTTP API reads its raw body with JSON.parse and checks each field by hand: no prediction.
    if (call.answers === 'trigger-api') return { refused: false };
    // Fastify refuses prototype poisoning outright (onProtoPoisoning and onConstructorPoisoning: 'error').
    if (/"__proto__"\s*:|"constructor"\s*:\s*\{\s*"prototype"/.test(raw)) return { refused: true };
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return { refused: true };
    }
    if (call.refuses) return { refused: call.refuses(value) };
    if (call.schema && '_zod' in call.schema) return { refused: refusedBy(call.schema)(value) };
    return { refused: false };
  }

  describe('bodies generated from each call\'s schema, then broken', () => {
    const fuzzed = CALLS.filter((call) => call.schema !== undefined);

    for (const call of fuzzed) {
      it(`${call.method} ${call.route}: never a 500, always its answer shape, and a refused body changes nothing`, async () => {
        let refusals = 0;
        await fc.assert(
          fc.asyncProperty(brokenBodiesOf(bodiesOf(call.schema as z.core.$ZodType)), async (broken: BrokenBody) => {
            const expected = judge(call, broken.raw);
            // The request first: it may sign the caller in again, which is not the body's doing.
            const request = await requestOf(call, broken.raw);
            const before = await snapshotOf(t);
            const response = await t.app.inject(request);
            const context = `${broken.breakage} (${broken.raw.slice(0, 200)})`;
            expectAnswer(call, response, context);
            if (expected.refused) expect(response.statusCode, `${context} must be refused`).toBeGreaterThanOrEqual(400);
            if (response.statusCode >= 400) refusals += 1;
            if (expected.refused || call.readOnly) expect(changedTables(before, await snapshotOf(t)), context).toEqual([]);
            if (call.endsSession && response.statusCode < 300) tokens.delete(w.me.username);
          }),
          { seed: SEED, numRuns: BROKEN_RUNS, endOnFailure: true, reporter: reportWithSeed },
        );
        // Most broken bodies are refused; an extra field or a missing optional one may still be a fair body.
        expect(refusals).toBeGreaterThan(BROKEN_RUNS / 3);
      }, 120_000);
    }

    it('no body at all and a body that is not JSON: the envelope, never a 500', async () => {
      for (const call of CALLS.filter((entry) => entry.method !== 'GET')) {
        for (const [contentType, payload] of [
          [undefined, undefined],
          ['application/json', ''],
          ['text/plain', 'type=list'],
          ['application/x-www-form-urlencoded', 'type=list&socket_id=1.2&channel_name=%00'],
          ['application/json; charset=latin1', '{"type":"list"}'],
          ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="type"\r\n\r\nlist\r\n--x--'],
        ] as const) {
          const request = await requestOf(call, payload);
          request.headers = { ...request.headers };
          delete (request.headers as Record<string, string>)['content-type'];
          if (contentType) (request.headers as Record<string, string>)['content-type'] = contentType;
          if (call.access === 'signed') request.url = signedUrl(call.method, call.url(w), payload ?? '');
          const before = await snapshotOf(t);
          const response = await t.app.inject(request);
          expectAnswer(call, response, `${call.method} ${call.route} with ${contentType ?? 'no content type'}`);
          if (response.statusCode >= 400 || call.readOnly) expect(changedTables(before, await snapshotOf(t)), call.route).toEqual([]);
          if (call.endsSession && response.statusCode < 300) tokens.delete(w.me.username);
        }
      }
    }, 120_000);
  });

  describe('hostile paths and query strings', () => {
    const ODD_SEGMENTS = ['%00', 'a%00b', '%ED%A0%80', '%FF%FE', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(5_000), '%F0%9F%92%A3', "'%3B--", '%E2%80%AE', ' '];

    for (const call of CALLS.filter((entry) => entry.route.includes(':') || entry.route.includes('*') || entry.method === 'GET')) {
      it(`${call.method} ${call.route}: odd parameters are answered in its shape, never a 500`, async () => {
        const before = await snapshotOf(t);
        for (const odd of ODD_SEGMENTS) {
          const fair = call.url(w);
          // Each parameter of the route in turn, and the query, holds the odd text.
          const variants = [`${fair}${fair.includes('?') ? '&' : '?'}user_id=${odd}&limit=${odd}&cursor=${odd}&info=${odd}&filter_by_prefix=${odd}`];
          if (call.route.includes(':channel')) variants.push(fair.replace(w.channel, odd).replace('presence-x', odd));
          if (call.route.includes(':deviceId')) variants.push(fair.replace(w.myDevice, odd));
          if (call.route.includes(':instanceId')) variants.push(fair.replace('/instances/peerex', `/instances/${odd}`));
          if (call.route.includes(':appId')) variants.push(fair.replace(`/apps/${w.realtime.id}`, `/apps/${odd}`));
          if (call.route.endsWith('*')) variants.push(fair.replace('hostile-interest', odd));
          for (const url of variants) {
            const body = call.method === 'POST' || call.method === 'PUT' ? '{}' : undefined;
            const request = await requestOf(call, body);
            request.url = call.access === 'signed' ? signedUrl(call.method, url, body ?? '') : url;
            const response = await t.app.inject(request);
            expectAnswer(call, response, `${call.method} ${url.slice(0, 160)}`);
          }
        }
        if (call.readOnly) expect(changedTables(before, await snapshotOf(t))).toEqual([]);
      }, 120_000);
    }
  });

  describe('bodies generated from each call\'s schema, sent as they are', () => {
    for (const call of CALLS.filter((entry) => entry.schema !== undefined)) {
      it(`${call.method} ${call.route}: never a 500, always its answer shape`, async () => {
        await fc.assert(
          fc.asyncProperty(bodiesOf(call.schema as z.core.$ZodType), async (body) => {
            const raw = JSON.stringify(body);
            const response = await t.app.inject(await requestOf(call, raw));
            expectAnswer(call, response, raw.slice(0, 300));
            if (call.endsSession && response.statusCode < 300) tokens.delete(w.me.username);
          }),
          { seed: SEED, numRuns: GENERATED_RUNS, endOnFailure: true, reporter: reportWithSeed },
        );
      }, 120_000);
    }
  });
});

/** fast-check's report, with the seed to replay it (HOSTILE_SEED) in front. */
function reportWithSeed<Ts>(details: fc.RunDetails<Ts>) {
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`HOSTILE_SEED=${String(details.seed)} replays this.\n${cause}\n${fc.defaultReportMessage(details) ?? ''}`);
}
