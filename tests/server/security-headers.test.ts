import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, request as httpsRequest, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/server.ts';
import { signUp } from '../support/server-flows.ts';
import { localhostCertificate } from '../support/push.ts';
import { STRICT_TRANSPORT_SECURITY } from '../../server/src/infra/security-headers.plugin.ts';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | undefined): Map<string, string[]> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words): words is [string, ...string[]] => words[0] !== undefined && words[0] !== '')
      .map(([name, ...values]) => [name, values]),
  );
}

describe('security headers', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'peerex-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Peerex</title><script type="module" src="/assets/index-abc123.js"></script>');
    writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'console.log("peerex")');
    t = await createTestApp('pglite', { env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('put a strict Content-Security-Policy on pages: scripts from this origin only, no framing', async () => {
    for (const url of ['/', '/login', '/offers/12']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const csp = directives(page.headers['content-security-policy'] as string);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(page.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval|upgrade-insecure-requests/);
      expect(page.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('set nosniff and a Referrer-Policy on every answer: a page, a static asset, an API answer, a refusal and a 404', async () => {
    const trader = await signUp(t);
    const answers = {
      page: await get('/'),
      asset: await get('/assets/index-abc123.js'),
      missingAsset: await get('/assets/gone.js'),
      health: await get('/api/health'),
      signedIn: await t.app.inject({ method: 'POST', url: '/api/user/overview/', headers: { authorization: `Bearer ${trader.token}` } }),
      refused: await t.app.inject({ method: 'POST', url: '/api/user/overview/' }),
      unknownCall: await t.app.inject({ method: 'POST', url: '/api/no/such/call/' }),
    };
    expect(answers.asset.statusCode).toBe(200);
    expect(answers.signedIn.statusCode).toBe(200);
    expect(answers.refused.statusCode).toBe(401);
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.headers['x-content-type-options'], name).toBe('nosniff');
      expect(answer.headers['referrer-policy'], name).toBe('no-referrer');
      expect(answer.headers['content-security-policy'], name).toContain("frame-ancestors 'none'");
    }
  });

  it('forbid storing API answers (tokens, balances), while hashed assets stay cacheable', async () => {
    const trader = await signUp(t);
    const overview = await t.app.inject({ method: 'POST', url: '/api/user/overview/', headers: { authorization: `Bearer ${trader.token}` } });
    expect(overview.headers['cache-control']).toBe('no-store');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/security/login/',
      payload: { username: trader.username, password: trader.password },
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ method: 'POST', url: '/api/market/offers/', headers: { authorization: `Bearer ${trader.token}` }, payload: { type: 'nope' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect((await get('/assets/index-abc123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/')).headers['cache-control']).toBe('no-cache');
  });
});

describe('Strict-Transport-Security', () => {
  let webDist: string;
  let direct: TestApp;
  let proxied: TestApp;
  let tls: HttpsServer;
  let tlsPort: number;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'peerex-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Peerex</title>');
    writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'console.log("peerex")');
    direct = await createTestApp('pglite', { env: { WEB_DIST: webDist } });
    proxied = await createTestApp('pglite', { env: { WEB_DIST: webDist, TRUST_PROXY: '1' } });
    // The product answering on a TLS socket of its own: the same app, its requests arriving over TLS.
    tls = createHttpsServer(localhostCertificate(), (req, res) => direct.app.routing(req, res));
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    tlsPort = (tls.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => tls.close(resolve));
    await direct.close();
    await proxied.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  /** One of each kind of answer: a page, a static asset, an API answer, a refusal (401) and a 404. */
  const kinds = [
    { name: 'page', method: 'GET', url: '/', status: 200 },
    { name: 'asset', method: 'GET', url: '/assets/index-abc123.js', status: 200 },
    { name: 'health', method: 'GET', url: '/api/health', status: 200 },
    { name: 'refused', method: 'POST', url: '/api/user/overview/', status: 401 },
    { name: 'unknown call', method: 'POST', url: '/api/no/such/call/', status: 404 },
  ] as const;

  async function headersOf(t: TestApp, headers: Record<string, string>) {
    const out: Array<{ name: string; hsts: unknown }> = [];
    for (const kind of kinds) {
      const answer = await t.app.inject({ method: kind.method, url: kind.url, headers });
      expect(answer.statusCode, kind.name).toBe(kind.status);
      out.push({ name: kind.name, hsts: answer.headers['strict-transport-security'] });
    }
    return out;
  }

  const everyAnswer = (hsts: unknown) => kinds.map((kind) => ({ name: kind.name, hsts }));

  it('is sent on every answer to a request that came over TLS to this process', async () => {
    for (const kind of kinds) {
      const answer = await new Promise<{ status: number; hsts: unknown }>((resolve, reject) => {
        const request = httpsRequest(
          { host: '127.0.0.1', port: tlsPort, method: kind.method, path: kind.url, ca: localhostCertificate().cert, servername: 'localhost' },
          (response) => {
            response.resume();
            response.on('end', () => resolve({ status: response.statusCode ?? 0, hsts: response.headers['strict-transport-security'] }));
          },
        );
        request.on('error', reject);
        request.end();
      });
      expect(answer, kind.name).toEqual({ status: kind.status, hsts: STRICT_TRANSPORT_SECURITY });
    }
    expect(STRICT_TRANSPORT_SECURITY).toBe('max-age=31536000; includeSubDomains');
  });

  it('is never sent over plain http', async () => {
    expect(await headersOf(direct, {})).toEqual(everyAnswer(undefined));
    expect(await headersOf(proxied, {})).toEqual(everyAnswer(undefined));
  });

  it("behind TRUST_PROXY, follows the proxy's X-Forwarded-Proto: https gets it, http does not", async () => {
    expect(await headersOf(proxied, { 'x-forwarded-proto': 'https' })).toEqual(everyAnswer(STRICT_TRANSPORT_SECURITY));
    expect(await headersOf(proxied, { 'x-forwarded-proto': 'http' })).toEqual(everyAnswer(undefined));
    // A chain of proxies: the nearest one's word counts, what a client wrote in front of it does not.
    expect(await headersOf(proxied, { 'x-forwarded-proto': 'https, http' })).toEqual(everyAnswer(undefined));
    expect(await headersOf(proxied, { 'x-forwarded-proto': 'http, https' })).toEqual(everyAnswer(STRICT_TRANSPORT_SECURITY));
  });

  it('without TRUST_PROXY, ignores X-Forwarded-Proto: anyone can write that header', async () => {
    expect(await headersOf(direct, { 'x-forwarded-proto': 'https' })).toEqual(everyAnswer(undefined));
  });
});
