import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devHelpersOf } from '../../server/src/app.ts';
import { isLoopbackHost } from '../../server/src/infra/http/client-address.ts';
import { APP_SECRET_FILE } from '../../server/src/infra/secrets.ts';
import { createTestApp, type TestApp } from '../support/server.ts';
import { newTrader, signUp } from '../support/server-flows.ts';

const NO_SUCH_CALL = { status: 404, body: { success: false, info: 'There is no such API call.' } };

describe('the development helpers (/api/dev/*) on a loopback HOST in development', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { NODE_ENV: 'development', TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  const outbox = (options: { ip?: string; headers?: Record<string, string> } = {}) => t.post<unknown[]>('/api/dev/outbox/', {}, options);

  it('answer a request made on this machine', async () => {
    expect((await outbox()).status).toBe(200);
    expect((await outbox({ ip: '::1' })).status).toBe(200);
    expect((await outbox({ ip: '127.0.0.2' })).status).toBe(200);
  });

  it('answer 404 to a request from another machine', async () => {
    expect(await outbox({ ip: '203.0.113.7' })).toEqual(NO_SUCH_CALL);
    expect(await outbox({ ip: '10.0.0.5' })).toEqual(NO_SUCH_CALL);
    expect(await outbox({ ip: '2001:db8::1' })).toEqual(NO_SUCH_CALL);
  });

  it('answer 404 to a request that came through a proxy, even from a loopback socket', async () => {
    const proxied: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.7' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=203.0.113.7' },
      { 'x-real-ip': '203.0.113.7' },
      { 'x-forwarded-host': 'peerex.example' },
    ];
    for (const headers of proxied) {
      expect(await outbox({ headers }), JSON.stringify(headers)).toEqual(NO_SUCH_CALL);
    }
  });

  it('judge the socket, not the client address a proxy header claims (TRUST_PROXY is on here)', async () => {
    expect(await outbox({ ip: '203.0.113.7', headers: { 'x-forwarded-for': '127.0.0.1' } })).toEqual(NO_SUCH_CALL);
  });

  it('no longer hand a victim’s reset code to an attacker on the network (the account takeover, retried)', async () => {
    const victim = await signUp(t, newTrader('victim'));
    const attacker = { ip: '198.51.100.23' };
    const requested = await t.post('/api/security/reset_password/', { type: 'request', email: victim.email }, attacker);
    expect(requested.status).toBe(200);
    await t.app.mailer.settled();
    expect(await outbox(attacker)).toEqual(NO_SUCH_CALL);
    expect(await outbox({ headers: { 'x-forwarded-for': attacker.ip } })).toEqual(NO_SUCH_CALL);
    // The owner's own path still works: the developer at this machine reads the mail.
    const mails = (await outbox()).body.info as Array<{ to: string; subject: string }>;
    expect(mails[0]).toMatchObject({ to: victim.email, subject: 'Your Peerex password reset code' });
  });
});

describe('devHelpersOf', () => {
  it('turns the helpers on only outside production on a loopback HOST', () => {
    expect(devHelpersOf({ nodeEnv: 'development', host: '127.0.0.1' })).toBe('on');
    expect(devHelpersOf({ nodeEnv: 'test', host: 'localhost' })).toBe('on');
    expect(devHelpersOf({ nodeEnv: 'development', host: '::1' })).toBe('on');
    expect(devHelpersOf({ nodeEnv: 'development', host: '0.0.0.0' })).toBe('off-on-reachable-host');
    expect(devHelpersOf({ nodeEnv: 'development', host: '::' })).toBe('off-on-reachable-host');
    expect(devHelpersOf({ nodeEnv: 'development', host: '192.168.1.20' })).toBe('off-on-reachable-host');
    expect(devHelpersOf({ nodeEnv: 'development', host: 'peerex.lan' })).toBe('off-on-reachable-host');
    expect(devHelpersOf({ nodeEnv: 'production', host: '127.0.0.1' })).toBe('off-in-production');
  });

  it('knows the loopback names and addresses', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', 'example.com', ''].some(isLoopbackHost)).toBe(false);
  });

  it('are off on a reachable HOST in development, even for this machine', async () => {
    const t = await createTestApp('pglite', { env: { NODE_ENV: 'development', HOST: '0.0.0.0' } });
    try {
      expect(await t.post('/api/dev/outbox/', {})).toEqual(NO_SUCH_CALL);
    } finally {
      await t.close();
    }
  });
});

/** `npm start`'s server process with only the given environment (plus PATH and HOME), on a port the OS picks. */
async function startServer(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'peerex-default-start-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', DATA_DIR: dataDir, PRICE_TICK_SECONDS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = await new Promise<URL>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 90_000);
    const poll = setInterval(() => {
      const found = /Peerex is running at (http:\/\/\S+) /.exec(output)?.[1];
      if (found || child.exitCode !== null) {
        clearInterval(poll);
        clearTimeout(deadline);
        if (found) resolve(new URL(found));
        else reject(new Error(`the server exited:\n${output}`));
      }
    }, 100);
  });
  return {
    url,
    dataDir,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A POST of `{}` to 127.0.0.1:port with the Host header given (fetch may not set Host). */
function postWithHost(port: number, path: string, host: string) {
  return new Promise<{ status: number; body: string; headers: IncomingHttpHeaders }>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { host, 'content-type': 'application/json' } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    request.on('error', reject);
    request.end('{}');
  });
}

/** Whether a TCP connection to host:port is accepted. */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** An address of this machine that other machines could use (the first non-internal IPv4), if it has one. */
const externalAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

describe('a default start (no HOST, NODE_ENV unset: development with demo data)', () => {
  it('listens on 127.0.0.1 only, so other machines cannot reach it', async () => {
    const server = await startServer({});
    try {
      expect(server.url.hostname).toBe('127.0.0.1');
      const port = Number(server.url.port);
      expect((await fetch(new URL('/api/health', server.url))).status).toBe(200);
      const outside = externalAddress();
      expect(outside, 'this machine has a non-loopback address to try').toBeDefined();
      expect(await accepts(outside ?? '', port)).toBe(false);

      // DNS rebinding: a page on another name, resolved to 127.0.0.1, reaches this port; its Host gives it away.
      // `curl -H 'Host: rebind.attacker.example:<port>' -d '{}' http://127.0.0.1:<port>/api/dev/outbox/`
      const rebound = await postWithHost(port, '/api/dev/outbox/', `rebind.attacker.example:${port}`);
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.body)).toEqual({ success: false, code: 'request.host_not_allowed', info: 'This server does not answer requests for this host name.' });
      expect(rebound.headers['x-content-type-options']).toBe('nosniff');
      // The developer's own path: this machine, by any of its loopback names.
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
        expect((await postWithHost(port, '/api/dev/outbox/', host)).status, host).toBe(200);
      }

      // No APP_SECRET: one was generated into DATA_DIR, readable by its owner only.
      const secretFile = join(server.dataDir, APP_SECRET_FILE);
      expect((await readFile(secretFile, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
      expect((await stat(secretFile)).mode & 0o777).toBe(0o600);
    } finally {
      await server.stop();
    }
  });

  it('on HOST=0.0.0.0 says on its console that the development helpers are off, and they are', async () => {
    const server = await startServer({ HOST: '0.0.0.0', SEED_DEMO: 'off' });
    try {
      expect(server.output()).toContain('the development helpers (/api/dev/*) are off');
      // PORT=0 here, so PUBLIC_URL's default names port 0.
      expect(server.output()).toContain(
        'Browsers must open it through PUBLIC_URL (http://localhost:0) or a host in ALLOWED_HOSTS (none set): the realtime socket refuses pages from any other origin (403).',
      );
      const answer = await fetch(new URL(`http://127.0.0.1:${server.url.port}/api/dev/outbox/`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(answer.status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
