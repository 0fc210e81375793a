/**
 * Hosts and origins (docs/rules.md "Hosts and origins"). DNS rebinding: a page on `rebind.attacker.example`
 * re-points its name at 127.0.0.1 and, being same-origin with itself, reads this server's answers; its requests
 * still carry `Host: rebind.attacker.example`. Cross-site websockets: any page may open a websocket to any server;
 * its origin is in the upgrade's `Origin`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostRules } from '../../server/src/infra/http/allowed-hosts.ts';
import { BUILT_IN_KEY } from '../../server/src/infra/realtime/settings.ts';
import { listeningPort } from '../support/server-trades.ts';
import { createTestApp, type TestApp } from '../support/server.ts';

const REBOUND = 'rebind.attacker.example:3101';
const FORBIDDEN = { success: false, code: 'request.host_not_allowed', info: 'This server does not answer requests for this host name.' };
const SOCKET_PATH = `/app/${BUILT_IN_KEY}?protocol=7&client=js&version=8.6.0&flash=false`;

/** Opens a websocket to the app with the headers given: `open` once connection_established arrives, else the HTTP status it was refused with. */
function upgrade(port: number, headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${SOCKET_PATH}`, { headers });
    ws.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('message', (raw) => {
      if ((JSON.parse(raw.toString()) as { event: string }).event === 'pusher:connection_established') {
        resolve('open');
        ws.terminate();
      }
    });
    ws.on('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

describe('on a loopback HOST (the default)', () => {
  let t: TestApp;
  let webDist: string;
  let port: number;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'peerex-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Peerex</title>');
    writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'console.log("peerex")');
    t = await createTestApp('pglite', {
      env: { NODE_ENV: 'development', WEB_DIST: webDist, PUBLIC_URL: 'https://peerex.example', ALLOWED_HOSTS: 'peerex.lan,box.lan:8443' },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = listeningPort(t);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const outbox = (host: string) => t.app.inject({ method: 'POST', url: '/api/dev/outbox/', headers: { host, 'content-type': 'application/json' }, payload: '{}' });

  it('refuses a rebound Host with 403, the envelope and the security headers, before any route: the dev helpers, the API, pages and files', async () => {
    const requests = [
      { method: 'POST', url: '/api/dev/outbox/', payload: '{}' },
      { method: 'POST', url: '/api/dev/chain/', payload: JSON.stringify({ type: 'deposit', network: 'bitcoin', address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amount: '1' }) },
      { method: 'POST', url: '/api/security/login/', payload: JSON.stringify({ username: 'alice', password: 'peerex-demo' }) },
      { method: 'GET', url: '/api/config' },
      { method: 'GET', url: '/' },
      { method: 'GET', url: '/assets/index-abc123.js' },
      { method: 'GET', url: '/push/device_api/v1/instances/peerex/web-vapid-public-key' },
      { method: 'GET', url: '/apps/peerex/channels' },
      { method: 'GET', url: '/no/such/page' },
    ] as const;
    for (const host of [REBOUND, 'rebind.attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io:3101', 'peerex.lan.attacker.example', 'box.lan:9999']) {
      for (const request of requests) {
        const answer = await t.app.inject({ ...request, headers: { host, 'content-type': 'application/json' } });
        const what = `${host} ${request.method} ${request.url}`;
        expect(answer.statusCode, what).toBe(403);
        expect(answer.json(), what).toEqual(FORBIDDEN);
        expect(answer.headers['x-content-type-options'], what).toBe('nosniff');
        expect(answer.headers['content-security-policy'], what).toContain("frame-ancestors 'none'");
        expect(answer.headers['cache-control'], what).toBe('no-store');
      }
    }
    // Nothing was minted on the simulated chain.
    expect(await t.app.db.one('SELECT count(*)::int AS deposits FROM simulated_chain_transfers')).toEqual({ deposits: 0 });
  });

  it('answers this machine by its loopback names on any port, PUBLIC_URL\'s host and ALLOWED_HOSTS', async () => {
    for (const host of ['localhost', 'localhost:3101', 'LOCALHOST:5173', 'localhost.:3101', '127.0.0.1', '127.0.0.1:3101', '[::1]:3101', 'peerex.example', 'peerex.example:443', 'peerex.lan:3000', 'box.lan:8443']) {
      const answer = await outbox(host);
      expect(answer.statusCode, host).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/', headers: { host: `127.0.0.1:${port}` } })).statusCode).toBe(200);
  });

  it('refuses a websocket upgrade for a rebound Host, or from a page of another origin (plain 403); admits this machine, PUBLIC_URL and ALLOWED_HOSTS', async () => {
    const here = `127.0.0.1:${port}`;
    expect(await upgrade(port, { host: REBOUND })).toBe(403);
    expect(await upgrade(port, { host: REBOUND, origin: `http://${REBOUND}` })).toBe(403);
    for (const origin of ['https://evil.example', 'null', 'http://peerex.example.evil.example', 'file://', 'chrome-extension://abc', 'http://box.lan:9999']) {
      expect(await upgrade(port, { host: here, origin }), origin).toBe(403);
    }
    for (const origin of [undefined, `http://${here}`, 'http://localhost:5173', 'http://[::1]:3000', 'https://peerex.example', 'http://peerex.lan', 'https://box.lan:8443']) {
      expect(await upgrade(port, { host: here, ...(origin === undefined ? {} : { origin }) }), origin ?? 'no Origin').toBe('open');
    }
  });
});

describe('on a reachable HOST', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { HOST: '0.0.0.0', PUBLIC_URL: 'https://peerex.example' } });
    // The app is told HOST=0.0.0.0; the test listens on loopback only.
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = listeningPort(t);
  });
  afterAll(() => t?.close());

  it('answers any Host (names are for the operator\'s proxy and DNS to decide)', async () => {
    for (const host of ['192.168.1.20:3000', 'peerex.lan', REBOUND]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { host } })).statusCode, host).toBe(200);
    }
  });

  it('still refuses websockets from pages of other origins, and admits PUBLIC_URL\'s and clients that send no Origin', async () => {
    expect(await upgrade(port, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgrade(port, { origin: 'http://192.168.1.20:3000' })).toBe(403);
    expect(await upgrade(port, { origin: 'https://peerex.example' })).toBe('open');
    expect(await upgrade(port, { host: 'peerex.lan' })).toBe('open');
  });
});

describe('hostRules', () => {
  it('matches names case-insensitively, without a trailing dot, and ports only where ALLOWED_HOSTS names one', () => {
    const rules = hostRules({ host: '127.0.0.1', publicUrl: 'http://localhost:3000', allowedHosts: ['peerex.lan', 'box.lan:8443', '[fd00::1]'] });
    for (const host of ['Peerex.LAN:1', 'peerex.lan.', 'box.lan:8443', '[fd00::1]:80', '[::1]', 'localhost.']) expect(rules.hostAllowed(host), host).toBe(true);
    for (const host of [undefined, '', 'box.lan', 'box.lan:8444', 'user@localhost', 'localhost/x', 'localhost:', 'localhost:99999999', '[fd00::2]', '..']) {
      expect(rules.hostAllowed(host), String(host)).toBe(false);
    }
    expect(rules.originAllowed(undefined)).toBe(true);
    for (const origin of ['http://user@evil.example', 'http://localhost@evil.example', 'ws://evil.example', 'javascript:alert(1)', 'not an origin']) {
      expect(rules.originAllowed(origin), origin).toBe(false);
    }
    // On a reachable HOST the Host header is not checked; Origin still is.
    const reachable = hostRules({ host: '0.0.0.0', publicUrl: 'https://peerex.example', allowedHosts: [] });
    expect(reachable.hostAllowed('anything.example')).toBe(true);
    expect(reachable.originAllowed('https://anything.example')).toBe(false);
  });
});
