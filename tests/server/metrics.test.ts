import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import parsePrometheusTextFormat, { type PrometheusFamily, type PrometheusSample } from 'parse-prometheus-text-format';
import type PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainAdapter, ChainProgress } from '../../server/src/chain/adapter.ts';
import { CHAIN_PROGRESS_FRESH_MS } from '../../server/src/chain/chain.plugin.ts';
import { CHAIN_NETWORKS } from '../../server/src/wallets/networks.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { depositAddress, driverOf, mine, wrappedChain } from '../support/server-chain.ts';
import { TRADE_OUTCOMES } from '../../server/src/trades/trades.ts';
import {
  act,
  bindDevice,
  disputedTrade,
  listeningPort,
  moderationCall,
  moderator,
  openTrade,
  realtimeClientOf,
  sellOffer,
  trader,
  type Trader,
} from '../support/server-trades.ts';

/**
 * GET /metrics (docs/operators.md "Monitoring"): its answer read back by a Prometheus text-format parser (a port
 * of Prometheus's own, as prom2json reads it), the series the product adds moving with what happens, and who is
 * answered: this machine without METRICS_TOKEN, the token's holder with it, nobody else.
 */

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const OUTSIDE = '203.0.113.9';
const TOKEN = 'a-metrics-token-of-enough-length';

interface Scrape {
  status: number;
  contentType: unknown;
  /** Each family as the parser reads the whole answer: its type and help (the parser throws on a malformed line). */
  families: Map<string, PrometheusFamily>;
  /** Every sample line by its name (`…_bucket`, `…_count` and `…_sum` apart), with all its labels. */
  lines: Map<string, PrometheusSample[]>;
}

/**
 * The parser folds the samples of a histogram that has labels into one (its `flattenMetrics` keeps no label
 * set), so the samples are also read from the answer without the histograms' TYPE lines: then each `_bucket`,
 * `_sum` and `_count` line is a sample of its own name with every label it has, as the text writes it.
 */
async function scrape(t: TestApp, headers: Record<string, string> = {}, remoteAddress?: string): Promise<Scrape> {
  const response = await t.app.inject({ method: 'GET', url: '/metrics', headers, ...(remoteAddress ? { remoteAddress } : {}) });
  expect(response.statusCode, response.body).toBe(200);
  const families = new Map(parsePrometheusTextFormat(response.body).map((family) => [family.name, family]));
  const untyped = response.body.split('\n').filter((line) => !/^# TYPE \S+ histogram$/.test(line)).join('\n');
  const lines = new Map<string, PrometheusSample[]>();
  for (const family of parsePrometheusTextFormat(untyped)) lines.set(family.name, [...(lines.get(family.name) ?? []), ...family.metrics]);
  return { status: response.statusCode, contentType: response.headers['content-type'], families, lines };
}

/** The samples named `name` whose labels include `labels`. */
function samples(scraped: Scrape, name: string, labels: Record<string, string> = {}): PrometheusSample[] {
  return (scraped.lines.get(name) ?? []).filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value));
}

/** The one value of a counter or gauge with these labels; undefined when there is no such series. */
function valueOf(scraped: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples(scraped, name, labels);
  expect(found.length, `${name} ${JSON.stringify(labels)}: at most one series`).toBeLessThanOrEqual(1);
  return found[0]?.value === undefined ? undefined : Number(found[0].value);
}

/** A valid address of `network` whose key is nobody's on Peerex. */
const outsider = (network: 'bitcoin') => CHAIN_NETWORKS[network].addressOf(secp256k1.getPublicKey(sha256(new TextEncoder().encode(`${network}:metrics`)), true));

describe.each(dbTargets)('GET /metrics (%s)', (target) => {
  let t: TestApp;
  let seller: Trader & { password: string };
  let buyer: Trader & { password: string };

  beforeAll(async () => {
    t = await createTestApp(target);
    seller = await trader(t, { BTC: '2' });
    buyer = await trader(t);
  });
  afterAll(() => t.close());

  it('answers this machine in the Prometheus text format, with the process\'s default metrics and the product\'s', async () => {
    const scraped = await scrape(t);
    expect(scraped.contentType).toBe(CONTENT_TYPE);
    // prom-client's defaults describe the process.
    expect(scraped.families.get('process_cpu_user_seconds_total')?.type).toBe('COUNTER');
    expect(scraped.families.get('nodejs_heap_size_used_bytes')?.type).toBe('GAUGE');
    expect(scraped.families.get('nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');
    expect(scraped.families.get('http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(scraped.families.get('peerex_trades_total')?.type).toBe('COUNTER');
    expect(scraped.families.get('peerex_withdrawals_total')?.type).toBe('COUNTER');
    // Every outcome has its series from the start, at 0 in a new app.
    for (const outcome of ['opened', 'completed', 'cancelled', 'expired', 'disputed', 'settled']) {
      expect(valueOf(scraped, 'peerex_trades_total', { outcome }), outcome).toBe(0);
    }
    for (const outcome of ['confirmed', 'completed', 'refunded']) expect(valueOf(scraped, 'peerex_withdrawals_total', { outcome }), outcome).toBe(0);
    expect(scraped.families.get('peerex_push_queue_depth')?.type).toBe('GAUGE');
  });

  it('times each request under its route pattern, never its URL', async () => {
    const channel = await openTrade(t, buyer, await sellOffer(t, seller), '97', 'SEPA');
    const asked = await t.post(`/api/market/chat/${channel}/`, { type: 'messages' }, { token: buyer.token });
    expect(asked.status).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/no-such-call/12345' });

    const scraped = await scrape(t);
    const chat = { method: 'POST', route: '/api/market/chat/:channel/', status: '200' };
    expect(valueOf(scraped, 'http_request_duration_seconds_count', chat)).toBeGreaterThanOrEqual(1);
    expect(valueOf(scraped, 'http_request_duration_seconds_bucket', { ...chat, le: '+Inf' })).toBe(valueOf(scraped, 'http_request_duration_seconds_count', chat));
    expect(valueOf(scraped, 'http_request_duration_seconds_sum', chat)).toBeGreaterThan(0);
    const routes = ['_bucket', '_count', '_sum'].flatMap((suffix) => samples(scraped, `http_request_duration_seconds${suffix}`).map((sample) => sample.labels?.route ?? ''));
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.some((route) => route.includes(channel))).toBe(false);
    expect(routes.some((route) => route.includes('12345'))).toBe(false);
    // A request no route took is one series, whatever its URL.
    expect(valueOf(scraped, 'http_request_duration_seconds_count', { method: 'GET', route: '(none)', status: '404' })).toBeGreaterThanOrEqual(1);
  });

  it('counts trades by outcome as each change is announced: opened, completed, cancelled, expired, disputed, settled', async () => {
    const before = await scrape(t);
    const count = (scraped: Scrape, outcome: string) => valueOf(scraped, 'peerex_trades_total', { outcome }) ?? Number.NaN;

    const completed = await openTrade(t, buyer, await sellOffer(t, seller), '97', 'SEPA');
    expect((await act(t, buyer, 'mark_paid', completed)).status).toBe(200);
    expect((await act(t, seller, 'release_coin', completed)).status).toBe(200);
    const cancelled = await openTrade(t, buyer, await sellOffer(t, seller), '97', 'SEPA');
    expect((await act(t, buyer, 'cancel', cancelled)).status).toBe(200);
    // A refused action announces nothing and counts nothing.
    expect((await act(t, buyer, 'cancel', cancelled)).status).toBe(409);
    const disputed = await disputedTrade(t, { buyer, seller, offer: await sellOffer(t, seller) });
    const settled = { type: 'resolve', channel: disputed, outcome: 'refund', resolution: 'No payment arrived' };
    expect((await moderationCall(t, await moderator(t), settled)).status).toBe(200);
    // The payment window, on a trade left unpaid past it (and any other an earlier test left pending).
    await openTrade(t, buyer, await sellOffer(t, seller), '97', 'SEPA');
    t.clock.advance(31 * MINUTE);
    const expired = await t.app.trades.sweep();
    expect(expired).toBeGreaterThanOrEqual(1);

    const after = await scrape(t);
    const moved = Object.fromEntries(TRADE_OUTCOMES.map((outcome) => [outcome, count(after, outcome) - count(before, outcome)]));
    // mark_paid, a step and not an outcome, moved nothing.
    expect(moved).toEqual({ opened: 4, completed: 1, cancelled: 1, expired, disputed: 1, settled: 1 });
  });

  it('counts withdrawals confirmed, then completed when the chain confirms them', async () => {
    const count = (scraped: Scrape, outcome: string) => valueOf(scraped, 'peerex_withdrawals_total', { outcome }) ?? Number.NaN;
    const before = await scrape(t);
    const wallet = (body: Record<string, unknown>) => t.post<string>('/api/user/wallet/', body, { token: seller.token });
    const previewed = await wallet({ type: 'preview_withdrawal', amount: '0.01', mode: 'crypto', recipient: outsider('bitcoin'), ticker: 'BTC', network: 'bitcoin' });
    expect(previewed.status, JSON.stringify(previewed.body)).toBe(200);
    expect((await wallet({ type: 'confirm_withdrawal' })).status).toBe(200);

    const confirmed = await scrape(t);
    expect(count(confirmed, 'confirmed') - count(before, 'confirmed')).toBe(1);
    expect(count(confirmed, 'completed') - count(before, 'completed')).toBe(0);

    // The watcher broadcasts it, a block confirms it, the watcher completes it.
    expect(await t.app.chain.sync()).toMatchObject({ broadcast: 1 });
    await mine(t);
    const completed = await scrape(t);
    expect(count(completed, 'completed') - count(before, 'completed')).toBe(1);
    expect(count(completed, 'refunded') - count(before, 'refunded')).toBe(0);
  });

  it("reports the chain watcher's lag per network, read from its cursor and the chain, kept a few seconds", async () => {
    await t.app.chain.sync();
    const level = await scrape(t);
    expect(valueOf(level, 'peerex_chain_watcher_lag', { network: 'bitcoin' })).toBe(0);
    expect(valueOf(level, 'peerex_chain_node_up', { network: 'bitcoin' })).toBe(1);

    // Two transfers reach the chain; the watcher has not read them yet.
    const address = await depositAddress(t, buyer.id, 'bitcoin');
    await driverOf(t).deposit({ network: 'bitcoin', address, amount: '0.001' });
    await driverOf(t).deposit({ network: 'bitcoin', address, amount: '0.002' });
    // The last scrape's reading is kept a few seconds while the watcher's cursor stays put.
    expect(valueOf(await scrape(t), 'peerex_chain_watcher_lag', { network: 'bitcoin' })).toBe(0);
    t.clock.advance(CHAIN_PROGRESS_FRESH_MS);
    const behind = await scrape(t);
    expect(valueOf(behind, 'peerex_chain_watcher_lag', { network: 'bitcoin' })).toBe(2);
    expect(valueOf(behind, 'peerex_chain_watcher_lag', { network: 'litecoin' })).toBe(0);

    await t.app.chain.sync();
    expect(valueOf(await scrape(t), 'peerex_chain_watcher_lag', { network: 'bitcoin' })).toBe(0);
  });

  it('reports the web push queue until the worker delivers it', async () => {
    await t.app.push.drain();
    const empty = await scrape(t);
    expect(valueOf(empty, 'peerex_push_queue_depth', { stage: 'publish' })).toBe(0);
    expect(valueOf(empty, 'peerex_push_queue_depth', { stage: 'delivery' })).toBe(0);

    // An open tells the offer's owner: a notification, and its web push queued for the owner's browser (the worker is
    // off in tests).
    await bindDevice(t, seller);
    await openTrade(t, buyer, await sellOffer(t, seller), '97', 'SEPA');
    expect(valueOf(await scrape(t), 'peerex_push_queue_depth', { stage: 'publish' })).toBeGreaterThan(0);
    await t.app.push.drain();
    expect(valueOf(await scrape(t), 'peerex_push_queue_depth', { stage: 'publish' })).toBe(0);
  });

  it(target === 'postgres' ? "reports PostgreSQL's pool" : 'reports no pool on PGlite, which has one connection', async () => {
    const scraped = await scrape(t);
    if (target === 'postgres') {
      expect(valueOf(scraped, 'peerex_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(valueOf(scraped, 'peerex_db_pool_idle')).toBeGreaterThanOrEqual(0);
      // Queries queue while the pool opens a connection for them, as the scrape's own may.
      expect(valueOf(scraped, 'peerex_db_pool_waiting')).toBeGreaterThanOrEqual(0);
    } else {
      expect(scraped.families.has('peerex_db_pool_connections')).toBe(false);
      expect(scraped.families.has('peerex_db_pool_waiting')).toBe(false);
    }
  });
});

describe('GET /metrics: a chain that does not answer', () => {
  let t: TestApp;
  let ethereumDown = false;
  let ethereumAsked = 0;
  beforeAll(async () => {
    const wrapped = wrappedChain({});
    const chainAdapter: ChainAdapter = {
      ...wrapped.adapter,
      progress: async (network, cursor) => {
        if (network === 'bitcoin') throw new Error('connect ECONNREFUSED 127.0.0.1:8332');
        // A node that never answers: the scrape stops waiting for it.
        if (network === 'litecoin') return new Promise<ChainProgress>(() => {});
        // An adapter that cannot tell.
        if (network === 'tron') return { lastBlock: null, head: null, lag: null };
        if (network === 'ethereum') ethereumAsked += 1;
        if (network === 'ethereum' && ethereumDown) throw new Error('connect ECONNREFUSED 127.0.0.1:8545');
        return driverOf(t).progress(network, cursor);
      },
    };
    t = await createTestApp('pglite', { chainAdapter });
    wrapped.bind(t);
  });
  afterAll(() => t.close());

  it("says the node is down and leaves its lag out, without failing the scrape or the other networks' lines", async () => {
    const scraped = await scrape(t);
    expect(valueOf(scraped, 'peerex_chain_node_up', { network: 'bitcoin' })).toBe(0);
    expect(valueOf(scraped, 'peerex_chain_watcher_lag', { network: 'bitcoin' })).toBeUndefined();
    expect(valueOf(scraped, 'peerex_chain_node_up', { network: 'litecoin' })).toBe(0);
    expect(valueOf(scraped, 'peerex_chain_watcher_lag', { network: 'litecoin' })).toBeUndefined();
    expect(valueOf(scraped, 'peerex_chain_node_up', { network: 'tron' })).toBeUndefined();
    expect(valueOf(scraped, 'peerex_chain_node_up', { network: 'ethereum' })).toBe(1);
    expect(valueOf(scraped, 'peerex_chain_watcher_lag', { network: 'ethereum' })).toBe(0);
  });

  it("asks a node once for a scrape and the operator's overview a few seconds apart, and again after", async () => {
    t.clock.advance(CHAIN_PROGRESS_FRESH_MS);
    const before = ethereumAsked;
    expect(valueOf(await scrape(t), 'peerex_chain_watcher_lag', { network: 'ethereum' })).toBe(0);
    t.clock.advance(CHAIN_PROGRESS_FRESH_MS - 1);
    expect(await t.app.chain.progress('ethereum')).toMatchObject({ lag: 0 });
    expect(ethereumAsked - before).toBe(1);
    t.clock.advance(1);
    await scrape(t);
    expect(ethereumAsked - before).toBe(2);
  });

  it('drops the last scrape\'s lag once the node stops answering, rather than repeat it', async () => {
    expect(valueOf(await scrape(t), 'peerex_chain_watcher_lag', { network: 'ethereum' })).toBe(0);
    ethereumDown = true;
    t.clock.advance(CHAIN_PROGRESS_FRESH_MS);
    const scraped = await scrape(t);
    expect(valueOf(scraped, 'peerex_chain_node_up', { network: 'ethereum' })).toBe(0);
    expect(valueOf(scraped, 'peerex_chain_watcher_lag', { network: 'ethereum' })).toBeUndefined();
  });
});

describe('GET /metrics: websockets of the built-in realtime server', () => {
  let t: TestApp;
  let port: number;
  let who: Trader;
  let client: PusherClient | undefined;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = listeningPort(t);
    who = await trader(t);
  });
  afterAll(async () => {
    client?.disconnect();
    await t.close();
  });

  it('counts open websockets and their channels at each scrape', async () => {
    const gauges = async () => {
      const scraped = await scrape(t);
      return { connections: valueOf(scraped, 'peerex_realtime_connections'), channels: valueOf(scraped, 'peerex_realtime_channels') };
    };
    expect(await gauges()).toEqual({ connections: 0, channels: 0 });

    client = realtimeClientOf(who, port);
    const channel = client.subscribe(`private-user-${who.username}`);
    await new Promise<void>((resolve) => channel.bind('pusher:subscription_succeeded', () => resolve()));
    expect(await gauges()).toEqual({ connections: 1, channels: 1 });

    client.disconnect();
    await expect.poll(gauges).toEqual({ connections: 0, channels: 0 });
  });
});

describe('GET /metrics: with hosted Pusher', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { PUSHER_HOST: '127.0.0.1', PUSHER_PORT: '9', PUSHER_APP_ID: '1', PUSHER_KEY: 'key', PUSHER_SECRET: 'secret' } });
  });
  afterAll(() => t.close());

  it('has no websocket gauges: the hosted server counts its own', async () => {
    const scraped = await scrape(t);
    expect(scraped.families.has('peerex_realtime_connections')).toBe(false);
    expect(scraped.families.has('peerex_realtime_channels')).toBe(false);
    expect(scraped.families.has('peerex_trades_total')).toBe(true);
  });
});

describe('GET /metrics: who is answered', () => {
  const refusal = async (t: TestApp, options: { headers?: Record<string, string>; remoteAddress?: string }) => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', ...options });
    return {
      status: response.statusCode,
      code: response.json<{ code?: string }>().code,
      challenge: response.headers['www-authenticate'],
      counted: response.body.includes('peerex_trades_total'),
    };
  };

  describe('without METRICS_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('pglite');
    });
    afterAll(() => t.close());

    it('refuses another machine with 401 and the sentence that says to set METRICS_TOKEN', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: OUTSIDE });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.json()).toEqual({
        success: false,
        code: 'operator.metrics_token_required',
        info: 'GET /metrics answers only this machine: set METRICS_TOKEN on the server and scrape with "Authorization: Bearer <METRICS_TOKEN>".',
      });
      // A token is no way in while the server has none.
      expect(await refusal(t, { remoteAddress: OUTSIDE, headers: { authorization: `Bearer ${TOKEN}` } })).toMatchObject({ status: 401 });
    });

    it('refuses a request a local proxy passed on, whatever it says of its client', async () => {
      const proxied: Record<string, string>[] = [{ 'x-forwarded-for': OUTSIDE }, { 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }, { 'x-real-ip': '127.0.0.1' }];
      for (const header of proxied) {
        expect(await refusal(t, { headers: header }), JSON.stringify(header)).toEqual({
          status: 401,
          code: 'operator.metrics_token_required',
          challenge: 'Bearer realm="metrics"',
          counted: false,
        });
      }
    });

    it('answers this machine, over IPv4 or IPv6 loopback', async () => {
      for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        expect((await scrape(t, {}, remoteAddress)).contentType, remoteAddress).toBe(CONTENT_TYPE);
      }
    });
  });

  describe('without METRICS_TOKEN, with TRUST_PROXY set', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('pglite', { env: { TRUST_PROXY: 'loopback' } });
    });
    afterAll(() => t.close());

    it('refuses even this machine: a proxy of ours stands in front, so nothing is known to be local', async () => {
      expect(await refusal(t, {})).toMatchObject({ status: 401, code: 'operator.metrics_token_required', counted: false });
      expect(await refusal(t, { headers: { 'x-forwarded-for': '127.0.0.1' } })).toMatchObject({ status: 401, code: 'operator.metrics_token_required' });
    });
  });

  describe('with METRICS_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('pglite', { env: { METRICS_TOKEN: TOKEN, TRUST_PROXY: '1' } });
    });
    afterAll(() => t.close());

    it('refuses this machine too without the token, or with another one', async () => {
      const refused = { status: 401, code: 'operator.metrics_token_refused', challenge: 'Bearer realm="metrics"', counted: false };
      expect(await refusal(t, {})).toEqual(refused);
      expect(await refusal(t, { remoteAddress: OUTSIDE })).toEqual(refused);
      for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ', `Bearer ${TOKEN} extra`]) {
        expect(await refusal(t, { headers: { authorization } }), authorization).toEqual(refused);
      }
    });

    it('answers the token from anywhere, through a proxy too', async () => {
      expect((await scrape(t, { authorization: `Bearer ${TOKEN}` }, OUTSIDE)).contentType).toBe(CONTENT_TYPE);
      expect((await scrape(t, { authorization: `bearer ${TOKEN}`, 'x-forwarded-for': OUTSIDE })).contentType).toBe(CONTENT_TYPE);
    });
  });
});
