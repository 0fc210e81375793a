import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.ts';
import { loggerOptions, startupLine } from '../../server/src/infra/logging.ts';
import { createTestApp, type TestApp } from '../support/server.ts';

const PRODUCTION = { NODE_ENV: 'production', APP_SECRET: 'a-real-secret-of-enough-length' };

describe('the logger', () => {
  it('writes readable lines in development and JSON lines in production, at LOG_LEVEL', () => {
    const development = loggerOptions(loadConfig({}));
    expect(development).toMatchObject({ level: 'info', transport: { target: 'pino-pretty' } });
    const production = loggerOptions(loadConfig({ ...PRODUCTION, LOG_LEVEL: 'warn' }));
    expect(production).toMatchObject({ level: 'warn' });
    expect(production).not.toHaveProperty('transport');
    // Both keep bearer tokens out.
    expect(production).toMatchObject({ redact: ['req.headers.authorization'] });
  });

  it('says in one line where the product is, where browsers open it, its database and where mail goes, without credentials', () => {
    expect(startupLine(loadConfig({}), 'http://127.0.0.1:3000')).toBe(
      'Peerex is running at http://127.0.0.1:3000 (browsers open http://localhost:3000) — embedded PGlite in ./.data/pgdata; mail printed on this console (no SMTP_URL)',
    );
    const line = startupLine(
      loadConfig({
        ...PRODUCTION,
        DATABASE_URL: 'postgres://peerex:db-password@db:5432/peerex',
        SMTP_URL: 'smtps://mailer:mail-password@smtp.example:465',
        REDIS_URL: 'redis://:redis-password@cache:6379',
        PUBLIC_URL: 'https://peerex.example',
      }),
      'http://0.0.0.0:8080',
    );
    expect(line).toBe(
      'Peerex is running at http://0.0.0.0:8080 (browsers open https://peerex.example) — PostgreSQL at postgres://peerex@db:5432/peerex; mail through smtps://smtp.example:465; Redis at cache:6379',
    );
    expect(line).not.toMatch(/password/);
  });
});

describe('request lines', () => {
  let t: TestApp;
  const lines: { level: number; msg: string }[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text) as { level: number; msg: string });
        done();
      },
    });
    t = await createTestApp('pglite', { logger: { level: 'debug', stream } });
  });
  afterAll(() => t.close());

  it('are one per request, at debug level, with the path but not the query string', async () => {
    lines.length = 0;
    await t.app.inject({ method: 'GET', url: '/api/ready?probe=lb-7' });
    const requestLines = lines.filter((line) => line.msg.includes('/api/ready'));
    expect(requestLines).toEqual([expect.objectContaining({ level: 20, msg: expect.stringMatching(/^GET \/api\/ready 200 \d+ ms$/) })]);
    // Nothing else about the request at info or above.
    expect(lines.filter((line) => line.level >= 30)).toEqual([]);
  });
});
