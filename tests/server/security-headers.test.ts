import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/server.ts';
import { signUp } from '../support/server-flows.ts';

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
