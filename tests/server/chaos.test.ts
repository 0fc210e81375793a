import { execFileSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { logDirectory, startRedis } from '../../bench/support/chaos-cluster.ts';
import { runChaos } from '../../bench/support/chaos-run.ts';
import { startRealtime, TEST_APP, type RealtimeServer } from '../../packages/realtime/tests/support/clients.ts';
import { createScratchDatabase } from '../support/server.ts';

/**
 * The short form of bench/chaos.ts (issue 14, "Faults"), and the realtime bus's answer to lost events on
 * its own. Needs PostgreSQL (DATABASE_URL, as CI has) and the redis-server binary: each run starts a
 * Redis of its own to kill, never the shared one.
 */
const hasRedisServer = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const withRedisServer = hasRedisServer ? ['own redis-server'] : [];
const withPostgresAndRedis = process.env.DATABASE_URL && hasRedisServer ? ['PostgreSQL and own redis-server'] : [];

describe.each(withRedisServer)('the realtime bus when Redis goes away (%s)', () => {
  const started: RealtimeServer[] = [];
  afterAll(async () => {
    for (const server of started) await server.close();
  });

  it('keeps its sockets while Redis is away, and ends them with 4200 once it is back, so that clients reconnect and refetch', async () => {
    const redis = await startRedis(logDirectory());
    try {
      const server = await startRealtime({ redisUrl: redis.url, redisPrefix: 'peerex:rt:gap:' });
      started.push(server);
      const socket = new WebSocket(`ws://127.0.0.1:${server.port}/app/${TEST_APP.key}?protocol=7&client=js&version=8.6.0`);
      const established = new Promise((resolve) => socket.once('message', resolve));
      let closedWith: number | undefined;
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve((closedWith = code))));
      await established;

      await redis.kill();
      // Events published meanwhile cannot cross processes; the process itself goes on, and so does the socket.
      await delay(500);
      expect(closedWith).toBeUndefined();
      await redis.start();
      // Back: whatever crossed no process meanwhile is only in the database now; the client must refetch.
      expect(await closed).toBe(4200);
    } finally {
      await redis.stop();
    }
  });
});

describe.each(withPostgresAndRedis)('chaos, short form (%s)', () => {
  it('keeps every acknowledged call, applies nothing twice, and every client ends up knowing what the database knows', async () => {
    const report = await runChaos({ clients: 8, seconds: 20, serverKills: 2, redisKills: 1, database: createScratchDatabase });
    // A failed run explains itself: the faults, and what the clients that fell behind saw of their sockets.
    expect(report.violations, `${report.diagnosis.join('\n')}\nserver logs: ${report.logs}`).toEqual([]);
    expect(report.kills.server).toBe(2);
    // The run did what it is for: calls failed under the faults, were resolved, and the socket came back.
    expect(report.calls.acknowledged).toBeGreaterThan(0);
    expect(report.checked.trades).toBeGreaterThan(0);
    expect(report.reconnects).toBeGreaterThanOrEqual(2);
    expect(report.ledger).toContain('clean');
  }, 180_000);
});
