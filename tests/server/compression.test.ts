/**
 * Compressed delivery (issue 16): API answers above the threshold compressed per request, answers that carry
 * a secret never (BREACH), bodies sent compressed never inflated; the web app's files sent as the build
 * compressed them (tests/server/health.test.ts "the built web app").
 */
import Fastify from 'fastify';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_COMPRESSION_THRESHOLD_BYTES, apiCompressionPlugin, SECRET_ANSWER } from '../../server/src/infra/api-compression.plugin.ts';
import { routeTreeOf } from '../support/route-tree.ts';
import { createTestApp, type TestApp } from '../support/server.ts';
import { publishOffer } from '../support/server-flows.ts';
import { trader, type Trader } from '../support/server-trades.ts';

const LIST = { type: 'list', filters: {} };

describe('API answers', () => {
  let t: TestApp;
  let me: Trader;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    me = await trader(t);
    // Enough offers for Browse Offers' page to pass the threshold.
    for (let i = 0; i < 6; i += 1) await publishOffer(t, me.token);
  });
  afterAll(() => t.close());

  const listWith = (acceptEncoding?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/market/offers/',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
      payload: LIST,
    });

  it('compresses one above the threshold with brotli, or gzip, as the client accepts, and says it varies', async () => {
    const plain = await listWith();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(API_COMPRESSION_THRESHOLD_BYTES);

    const br = await listWith('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('no-store');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());

    const gzip = await listWith('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('sends a small one as it is', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('never inflates a body sent compressed: it is refused as not JSON, whatever it would inflate to', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/market/offers/',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify(LIST)),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ success: false, code: 'request.malformed_json', info: expect.any(String) });
  });

  it('leaves out every call whose answer carries a secret (tokens, TOTP secret, channel signature)', () => {
    // @fastify/compress adds its `onSend` hook to each route it compresses; SECRET_ANSWER keeps it off.
    const hooks = new Map(routeTreeOf(t.app).map((route) => [route.call, route.onSend]));
    expect(hooks.size).toBeGreaterThan(20);
    const hooksOf = (path: string) => {
      expect(hooks.has(path), path).toBe(true);
      return hooks.get(path) ?? '';
    };
    for (const call of [
      'POST /api/security/login',
      'POST /api/security/two_factor_login',
      'POST /api/security/register',
      'POST /api/security/two_factor',
      'POST /api/realtime/auth',
      'GET /api/push/beams-auth',
    ]) {
      expect(hooksOf(call), call).not.toContain('"onSend()"');
    }
    for (const call of ['POST /api/market/offers', 'POST /api/user/wallet', 'POST /api/market/chat/:channel']) expect(hooksOf(call), call).toContain('"onSend()"');
  });
});

describe('SECRET_ANSWER', () => {
  it('keeps an answer uncompressed however large, where the same answer on another route is compressed', async () => {
    const app = Fastify();
    await app.register(apiCompressionPlugin);
    const answer = { token: 'x'.repeat(40), padding: 'p'.repeat(4 * API_COMPRESSION_THRESHOLD_BYTES) };
    app.get('/secret', SECRET_ANSWER, async () => answer);
    app.get('/public', async () => answer);
    await app.ready();
    const get = (url: string) => app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
    expect((await get('/secret')).headers['content-encoding']).toBeUndefined();
    expect((await get('/public')).headers['content-encoding']).toBe('br');
    await app.close();
  });
});
