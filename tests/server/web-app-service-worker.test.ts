import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/server.ts';

const WORKER = "self.addEventListener('push', () => {});";

describe('GET /service-worker.js (docs/pusher-and-beams.md "Service worker")', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'peerex-dist-'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>Peerex</title><div id="root"></div>');
    await writeFile(join(dist, 'service-worker.js'), WORKER);
    t = await createTestApp('pglite', { env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('answers the Beams SDK its check and registration URL: 200, JavaScript, re-checked by the browser each time', async () => {
    for (const url of ['/service-worker.js?pusherBeamsWebSDKVersion=2.1.0', '/service-worker.js']) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.body).toBe(WORKER);
    }
  });

  it("the pages' policy lets them register a worker from this origin", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/settings' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("worker-src 'self'");
  });
});
