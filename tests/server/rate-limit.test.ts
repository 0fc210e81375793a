import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/server.ts';
import { login } from '../support/server-flows.ts';

const LIMIT = 5;
const TOO_MANY = { status: 429, body: { success: false, info: 'Too many requests. Please slow down and try again in a minute.' } };

/** A fresh address per test, so counters left in a shared Redis by earlier runs never interfere. */
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('per-IP rate limit on the security calls (in memory)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(() => t.close());

  it(`answers 429 with a sentence after ${LIMIT} calls a minute from one IP, across all security calls`, async () => {
    const ip = randomIp();
    const calls = [
      () => login(t, 'nobody', 'wrong-pass', { ip }),
      () => t.post('/api/security/validate_email/', { type: 'verify', email: 'a@b.co', code: '000000' }, { ip }),
      () => t.post('/api/security/reset_password/', { type: 'reset' }, { ip }),
      () => t.post('/api/security/register/', {}, { ip }),
      () => t.post('/api/security/two_factor_login/', {}, { ip }),
    ];
    for (const call of calls) expect((await call()).status).not.toBe(429);
    expect(await login(t, 'nobody', 'wrong-pass', { ip })).toEqual(TOO_MANY);
    expect(await t.post('/api/security/register/', {}, { ip })).toEqual(TOO_MANY);
  });

  it('counts each IP on its own', async () => {
    const busy = randomIp();
    for (let call = 0; call <= LIMIT; call += 1) await login(t, 'nobody', 'wrong-pass', { ip: busy });
    expect((await login(t, 'nobody', 'wrong-pass', { ip: busy })).status).toBe(429);
    expect((await login(t, 'nobody', 'wrong-pass', { ip: randomIp() })).status).toBe(400);
  });

  it('leaves health and the dashboard alone', async () => {
    const ip = randomIp();
    for (let call = 0; call <= LIMIT; call += 1) await login(t, 'nobody', 'wrong-pass', { ip });
    const health = await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: ip });
    expect(health.statusCode).toBe(200);
    expect((await t.post('/api/user/overview/', {}, { ip })).status).toBe(401);
  });
});

describe('per-IP rate limit behind a proxy', () => {
  it('reads the client address from X-Forwarded-For only when TRUST_PROXY says a proxy is there', async () => {
    for (const trustProxy of ['1', 'false']) {
      const t = await createTestApp('pglite', {
        env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: trustProxy },
      });
      try {
        const proxy = randomIp();
        // Several clients behind the same proxy, one call each.
        const statuses: number[] = [];
        for (let client = 0; client <= LIMIT; client += 1) {
          const answer = await t.post('/api/security/login/', { username: 'x', password: 'y' }, {
            ip: proxy,
            headers: { 'x-forwarded-for': randomIp() },
          });
          statuses.push(answer.status);
        }
        expect(statuses.includes(429), `TRUST_PROXY=${trustProxy}`).toBe(trustProxy === 'false');
      } finally {
        await t.close();
      }
    }
  });
});

/** With REDIS_URL set, two server processes must share one budget; checked whenever a Redis is given. */
const redisUrls = process.env.REDIS_URL ? [process.env.REDIS_URL] : [];

describe.each(redisUrls)('per-IP rate limit shared through Redis at %s', (redisUrl) => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const env = { RATE_LIMIT_PER_MINUTE: String(LIMIT), REDIS_URL: redisUrl };
    [first, second] = [await createTestApp('pglite', { env }), await createTestApp('pglite', { env })];
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('draws calls to either process from one budget', async () => {
    const ip = randomIp();
    for (let call = 0; call < LIMIT; call += 1) {
      const app = call % 2 === 0 ? first : second;
      expect((await login(app, 'nobody', 'wrong-pass', { ip })).status).toBe(400);
    }
    expect(await login(first, 'nobody', 'wrong-pass', { ip })).toEqual(TOO_MANY);
    expect(await login(second, 'nobody', 'wrong-pass', { ip })).toEqual(TOO_MANY);
  });
});
