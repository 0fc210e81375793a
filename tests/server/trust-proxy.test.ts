/**
 * TRUST_PROXY (docs/rules.md "Abuse and bad input"): behind a load balancer the client address is the right-most
 * X-Forwarded-For entry no trusted proxy added. nginx's `$proxy_add_x_forwarded_for` passes on whatever the client
 * wrote and appends the address it saw, so only that last entry is the load balancer's word: the attacker below
 * writes a fresh address in front of it on every request, and it changes nothing.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse } from '../../contracts/security.ts';
import { STRICT_TRANSPORT_SECURITY } from '../../server/src/infra/security-headers.plugin.ts';
import { signUp } from '../support/server-flows.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';

/** The load balancer: the one socket every request arrives on. */
const BALANCER = '10.0.0.1';
let spoofs = 0;
/** An address the attacker writes in front, new on every request. */
const spoofed = () => `198.18.${Math.floor(++spoofs / 250) % 250}.${spoofs % 250}`;

/** A request as the load balancer passes it on: what the client sent, then the address it saw. */
const through = (client: string, clientWrote?: string) => ({
  ip: BALANCER,
  headers: { 'x-forwarded-for': clientWrote === undefined ? client : `${clientWrote}, ${client}` },
});

type Session = { ip: string; current: boolean };

describe.each(dbTargets)('behind one load balancer, TRUST_PROXY=1 (%s)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => t?.close());

  it('locks out a client guessing passwords whatever it writes in X-Forwarded-For; the owner elsewhere signs in, and her history shows her real address', async () => {
    const victim = await signUp(t);
    const attacker = '203.0.113.50';
    const statuses: number[] = [];
    for (let guess = 0; guess < 12; guess += 1) {
      const answer = await t.post('/api/security/login/', { username: victim.username, password: `wrong-${guess}`, device: 'bot' }, through(attacker, spoofed()));
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, t.config.loginLockoutFailures)).toEqual(Array(t.config.loginLockoutFailures).fill(400));
    expect(statuses.slice(t.config.loginLockoutFailures)).toEqual([429, 429]);
    // Still locked with the right password, from that client, whatever it claims to be.
    const locked = await t.post('/api/security/login/', { username: victim.username, password: victim.password }, through(attacker, '8.8.8.8'));
    expect(locked.status).toBe(429);

    // The owner, from her own address behind the same load balancer: not locked out.
    const owner = '192.0.2.77';
    const signedIn = await t.post<LoginResponse>('/api/security/login/', { username: victim.username, password: victim.password, device: 'Firefox' }, through(owner, '8.8.8.8'));
    expect(signedIn.status).toBe(200);
    const token = (signedIn.body.info as { token: string }).token;
    const history = await t.post<{ sessions: Session[] }>('/api/security/sessions/', { type: 'list' }, { token, ...through(owner) });
    expect(history.body.info.sessions.find((session) => session.current)?.ip).toBe(owner);
    expect(history.body.info.sessions.map((session) => session.ip)).not.toContain('8.8.8.8');
  });

  it('takes the client from a chain of two proxies only as far as it trusts: TRUST_PROXY=1 counts the nearest only', async () => {
    const victim = await signUp(t);
    const signedIn = await t.post<LoginResponse>(
      '/api/security/login/',
      { username: victim.username, password: victim.password },
      { ip: BALANCER, headers: { 'x-forwarded-for': '8.8.8.8, 203.0.113.9, 10.0.0.2' } },
    );
    const token = (signedIn.body.info as { token: string }).token;
    const history = await t.post<{ sessions: Session[] }>('/api/security/sessions/', { type: 'list' }, { token });
    // The second proxy (10.0.0.2) is not trusted with TRUST_PROXY=1, so it is the client: nothing further left is believed.
    expect(history.body.info.sessions.find((session) => session.current)?.ip).toBe('10.0.0.2');
  });
});

describe.each(dbTargets)('the per-address rate limit behind TRUST_PROXY=1 (%s)', (target) => {
  const LIMIT = 5;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(() => t?.close());

  it('holds for a client that writes a new address in front on every call; another client keeps its own budget', async () => {
    const statuses: number[] = [];
    for (let call = 0; call <= LIMIT; call += 1) {
      statuses.push((await t.post('/api/security/login/', { username: 'nobody', password: 'wrong-pass' }, through('203.0.113.60', spoofed()))).status);
    }
    expect(statuses.slice(0, LIMIT).every((status) => status !== 429)).toBe(true);
    expect(statuses[LIMIT]).toBe(429);
    expect((await t.post('/api/security/login/', { username: 'nobody', password: 'wrong-pass' }, through('203.0.113.61'))).status).toBe(400);
  });
});

describe.each(dbTargets)('behind proxies named by address, TRUST_PROXY=10.0.0.0/8 (%s)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { TRUST_PROXY: '10.0.0.0/8' } });
  });
  afterAll(() => t?.close());

  const signInFrom = async (socket: string, forwardedFor: string) => {
    const victim = await signUp(t);
    const signedIn = await t.post<LoginResponse>(
      '/api/security/login/',
      { username: victim.username, password: victim.password },
      { ip: socket, headers: { 'x-forwarded-for': forwardedFor } },
    );
    expect(signedIn.status).toBe(200);
    const token = (signedIn.body.info as { token: string }).token;
    const history = await t.post<{ sessions: Session[] }>('/api/security/sessions/', { type: 'list' }, { token });
    return history.body.info.sessions.find((session) => session.current)?.ip;
  };

  it('ignores the header of a request from outside the list: the client is its socket', async () => {
    expect(await signInFrom('198.51.100.77', '203.0.113.1')).toBe('198.51.100.77');
  });

  it('walks back through every listed proxy to the first address outside the list', async () => {
    expect(await signInFrom('10.1.2.3', '8.8.8.8, 203.0.113.2')).toBe('203.0.113.2');
    expect(await signInFrom('10.0.0.1', '8.8.8.8, 203.0.113.3, 10.0.0.2')).toBe('203.0.113.3');
  });

  it("believes X-Forwarded-Proto (HSTS) from a listed proxy only", async () => {
    const health = (socket: string) =>
      t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: socket, headers: { 'x-forwarded-proto': 'https' } });
    expect((await health('10.0.0.9')).headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    expect((await health('198.51.100.77')).headers['strict-transport-security']).toBeUndefined();
  });
});

describe("Fastify's own trustProxy, which the server does not use", () => {
  it('trusts no forwarded address at all given a bare number, so TRUST_PROXY is passed as a trust function', async () => {
    const bare = Fastify({ trustProxy: 1 as unknown as boolean });
    bare.get('/', async (request) => request.ip);
    const answer = await bare.inject({ method: 'GET', url: '/', remoteAddress: BALANCER, headers: { 'x-forwarded-for': '203.0.113.9' } });
    // Every client would be the load balancer: one lockout and one rate budget for everyone.
    expect(answer.body).toBe(BALANCER);
    await bare.close();
  });
});
