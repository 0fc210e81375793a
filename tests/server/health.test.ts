import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';

describe.each(dbTargets)('GET/POST /api/health on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('answers GET once migrated, naming the database', async () => {
    expect(await t.get('/api/health')).toEqual({
      status: 200,
      body: { success: true, info: { status: 'ok', database: target } },
    });
  });

  it('answers POST the same, with or without the trailing slash', async () => {
    for (const path of ['/api/health', '/api/health/']) {
      const answer = await t.post(path);
      expect(answer.status).toBe(200);
      expect(answer.body.info).toEqual({ status: 'ok', database: target });
    }
  });

  it('answers 503 with a sentence when the database is gone', async () => {
    const broken = await createTestApp(target);
    await broken.app.db.close();
    const answer = await broken.get('/api/health');
    expect(answer).toEqual({ status: 503, body: { success: false, info: 'The database is not available.' } });
    // app.close() closes the database a second time, which must be harmless.
    await broken.close();
  });
});

describe.each(dbTargets)('GET /api/ready on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('answers ready, naming the database, with no Redis configured', async () => {
    expect(await t.get('/api/ready')).toEqual({
      status: 200,
      body: { success: true, info: { status: 'ready', database: target, redis: 'not configured' } },
    });
  });

  it('answers 503 with a sentence when the database is gone', async () => {
    const broken = await createTestApp(target);
    await broken.app.db.close();
    expect(await broken.get('/api/ready')).toEqual({ status: 503, body: { success: false, info: 'The database is not available.' } });
    await broken.close();
  });
});

/** With REDIS_URL set (CI), readiness also asks Redis. */
const redisUrls = process.env.REDIS_URL ? [process.env.REDIS_URL] : [];
describe.each(redisUrls)('GET /api/ready with Redis at %s', (redisUrl) => {
  it('answers ready while Redis answers, 503 once it does not, and ready again when it is back', async () => {
    const t = await createTestApp('pglite', { env: { REDIS_URL: redisUrl } });
    try {
      expect((await t.get('/api/ready')).body).toEqual({ success: true, info: { status: 'ready', database: 'pglite', redis: 'ok' } });
      const redis = t.app.sharedRedis!;
      redis.disconnect(true);
      expect(await t.get('/api/ready')).toEqual({ status: 503, body: { success: false, info: 'Redis is not available.' } });
      // Health stays about this process and its database: a Redis outage does not make it fail.
      expect((await t.get('/api/health')).status).toBe(200);
      await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
      expect((await t.get('/api/ready')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('unknown paths', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('answers an unknown API call with a 404 envelope', async () => {
    expect(await t.post('/api/security/nothing/', {})).toEqual({
      status: 404,
      body: { success: false, info: 'There is no such API call.' },
    });
    expect((await t.get('/api/user/overview/')).status).toBe(404);
  });

  it('answers 404 for pages when no web app is built', async () => {
    expect((await t.get('/offers')).status).toBe(404);
  });

  it('accepts the spec paths with and without their trailing slash', async () => {
    expect((await t.post('/api/user/overview')).body.info).toBe('Session expired');
    expect((await t.post('/api/user/overview/')).body.info).toBe('Session expired');
  });
});

describe('the built web app', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'peerex-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>Peerex</title><div id="root"></div>');
    await writeFile(join(dist, 'assets', 'index-abc123.js'), 'console.log("peerex")');
    // What the build's precompress step writes beside each file (vite.config.ts).
    await writeFile(join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log("peerex")'));
    await writeFile(join(dist, 'assets', 'index-abc123.js.gz'), gzipSync('console.log("peerex")'));
    await writeFile(join(dist, 'index.html.br'), brotliCompressSync('<!doctype html><title>Peerex</title><div id="root"></div>'));
    // The build's route pages (vite.config.ts routePages): each page route's copy of index.html.
    await mkdir(join(dist, 'pages'));
    const routes = { '/': '_app.index', '/offers/create': '_app.offers.create', '/offers/$id': '_app.offers.$id', '/login': '_public.login' };
    for (const name of Object.values(routes)) {
      await writeFile(join(dist, 'pages', `${name}.html`), `<!doctype html><title>Peerex</title><meta name="page" content="${name}"><div id="root"></div>`);
    }
    await writeFile(join(dist, 'pages', 'pages.json'), JSON.stringify(Object.entries(routes).map(([path, name]) => ({ path, page: `pages/${name}.html` }))));
    await mkdir(join(dist, 'coins'));
    await writeFile(join(dist, 'coins', 'btc.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp('pglite', { env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves index.html at / and for every page path (history fallback)', async () => {
    for (const path of ['/', '/offers', '/offers/12', '/wallets/deposit?coin=1']) {
      const response = await t.app.inject({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('serves files, with long caching only for hashed assets', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const coin = await t.app.inject({ method: 'GET', url: '/coins/btc.svg' });
    expect(coin.statusCode).toBe(200);
    expect(coin.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(coin.headers['cache-control']).toBe('no-cache');
  });

  it('sends the compressed copy the browser accepts, as it was built, varying on Accept-Encoding', async () => {
    const url = '/assets/index-abc123.js';
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload).toEqual(brotliCompressSync('console.log("peerex")'));
    const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("peerex")');
    // A page path gets index.html the same way, revalidated on every visit.
    const page = await t.app.inject({ method: 'GET', url: '/offers', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    // A file the build did not compress (too small) is sent as it is.
    const coin = await t.app.inject({ method: 'GET', url: '/coins/btc.svg', headers: { 'accept-encoding': 'br, gzip' } });
    expect(coin.statusCode).toBe(200);
    expect(coin.headers['content-encoding']).toBeUndefined();
  });

  it('answers each page path with its route\'s page, a literal segment before a parameter, and others with index.html', async () => {
    const pageOf = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      return /<meta name="page" content="([^"]+)">/.exec(response.body)?.[1] ?? 'index.html';
    };
    expect(await pageOf('/')).toBe('_app.index');
    expect(await pageOf('/login')).toBe('_public.login');
    expect(await pageOf('/login/?next=%2Foffers')).toBe('_public.login');
    expect(await pageOf('/offers/create')).toBe('_app.offers.create');
    expect(await pageOf('/offers/42')).toBe('_app.offers.$id');
    expect(await pageOf('/offers/42/more')).toBe('index.html');
    expect(await pageOf('/no-such-page')).toBe('index.html');
  });

  it('keeps missing files and API paths as 404s, not index.html', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/assets/gone-123.js' });
    expect(missing.statusCode).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ success: false, code: 'request.no_such_call', info: 'There is no such API call.' });
    const post = await t.app.inject({ method: 'POST', url: '/offers' });
    expect(post.statusCode).toBe(404);
  });
});
