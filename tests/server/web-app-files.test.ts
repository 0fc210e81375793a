/**
 * Paths under the built web app that are not files (a directory such as /assets/, a path that climbs out of the
 * root): answered 404 in the envelope with the security headers, as any missing file is, and never as a 500 with
 * a stack in the error log, which anyone could fill by asking.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_VAPID_KEYS } from '../support/push.ts';
import { createTestApp, TEST_WALLET_XPUBS, type TestApp } from '../support/server.ts';

const NOT_A_FILE = ['/assets/', '/pages/', '/coins/', '/assets//', '/assets/./', '/%2e%2e/package.json', '/assets/%2e%2e/%2e%2e/package.json', '/..%2fpackage.json', '/coins/%2e%2e/%2e%2e/package.json'];

describe.each([
  ['development', {}],
  ['production', { NODE_ENV: 'production', ...TEST_WALLET_XPUBS, ...TEST_VAPID_KEYS }],
] as const)('files of the web app, in %s', (_mode, env) => {
  let t: TestApp;
  let webDist: string;
  let log = '';
  beforeAll(async () => {
    // The layout `npm run build` writes: hashed assets, the per-route pages and the coins' images.
    webDist = mkdtempSync(join(tmpdir(), 'peerex-web-'));
    for (const folder of ['assets', 'pages', 'coins']) mkdirSync(join(webDist, folder));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Peerex</title>');
    writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'console.log("peerex")');
    writeFileSync(join(webDist, 'pages', 'pages.json'), '[]');
    writeFileSync(join(webDist, 'coins', 'btc.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const stream = new Writable({ write: (chunk, _encoding, done) => ((log += String(chunk)), done()) });
    t = await createTestApp('pglite', { env: { ...env, WEB_DIST: webDist }, logger: { level: 'debug', stream } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('answers a directory or a path out of the root 404 with the envelope and the headers, and logs no error', async () => {
    log = '';
    for (const url of NOT_A_FILE) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toEqual({ success: false, code: 'request.no_such_call', info: 'There is no such API call.' });
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
      expect(answer.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(answer.body, url).not.toContain('peerex"');
    }
    const levels = log
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { level: number }).level);
    expect(levels.filter((level) => level >= 50)).toEqual([]);
  });

  it('still serves the files and pages that are there', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' })).body).toBe('console.log("peerex")');
    expect((await t.app.inject({ method: 'GET', url: '/coins/btc.svg' })).statusCode).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: '/offers' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Peerex</title>');
    expect((await t.app.inject({ method: 'GET', url: '/assets/gone.js' })).statusCode).toBe(404);
  });
});
