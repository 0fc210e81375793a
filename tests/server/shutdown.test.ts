import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { TRADE_CHANNEL_HEADER } from '../../contracts/trade.ts';
import { openPostgres } from '../../server/src/infra/db/postgres.ts';
import type { Db } from '../../server/src/infra/db/db.ts';
import { BUILT_IN_KEY } from '../../server/src/infra/realtime/settings.ts';
import { fleetEnvironment, logDirectory, serverProcess, type ChaosServer } from '../../bench/support/chaos-cluster.ts';
import { insertOffer, insertTrader, signIn } from '../../bench/support/chaos-traders.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/server.ts';

/**
 * SIGTERM (what a deploy or `docker stop` sends) to a real server process (`server/src/main.ts`): it drains.
 * The slow request is a real call held by a real lock: the test holds the trade's row (SELECT … FOR UPDATE
 * in a transaction of its own), so the buyer's mark_paid waits in PostgreSQL until the test lets it go.
 */
// The held request needs a second PostgreSQL connection (PGlite has one). Without DATABASE_URL the suite is
// reported as skipped: an empty `describe.each([])` would fail the file as having no tests at all.
const withoutPostgres = !process.env.DATABASE_URL;

/** How long the test keeps the row locked after SIGTERM: the drain must wait for the request meanwhile. */
const HELD_AFTER_SIGTERM_MS = 1_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface OpenSocket {
  socket: WebSocket;
  closed: Promise<number>;
}

/** A realtime connection as pusher-js opens it, once the server has said connection_established. */
function openSocket(port: number): Promise<OpenSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/app/${BUILT_IN_KEY}?protocol=7&client=js&version=8.6.0`);
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.once('error', reject);
    socket.once('message', (data) => {
      if (String(data).includes('pusher:connection_established')) resolve({ socket, closed });
      else reject(new Error(`unexpected first frame: ${String(data)}`));
    });
  });
}

/** Whether a new realtime connection gets as far as connection_established. */
function realtimeAccepted(port: number): Promise<boolean> {
  return openSocket(port).then(
    ({ socket }) => {
      socket.terminate();
      return true;
    },
    () => false,
  );
}

describe.skipIf(withoutPostgres)('SIGTERM on PostgreSQL', () => {
  let database: ScratchDatabase;
  let server: ChaosServer;
  let db: Db;
  let locker: pg.Client;
  let logs: string;

  beforeAll(async () => {
    database = await createScratchDatabase();
    logs = logDirectory();
    // Each request is a line at debug: a failure below can say whether the held call ever reached the server.
    server = await serverProcess('shutdown', { ...fleetEnvironment(database.url, undefined), LOG_LEVEL: 'debug' }, logs);
    await server.start();
    db = await openPostgres({ url: database.url, poolSize: 2 });
    locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
  }, 90_000);

  afterAll(async () => {
    await locker?.end();
    await db?.close();
    await server?.stop();
    await database?.drop();
  });

  it('finishes the request in flight with its 200, closes every websocket with 4200, refuses newcomers and exits 0 within 10 s', async () => {
    const sellerId = await insertTrader(db, 'drain_seller', '1');
    await insertTrader(db, 'drain_buyer');
    const offer = await insertOffer(db, sellerId);
    const buyer = await signIn(server.port, 'drain_buyer', '10.88.0.1');
    const post = (body: unknown) =>
      fetch(`http://127.0.0.1:${server.port}/api/market/trade/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}` },
        body: JSON.stringify(body),
      });
    const opened = await post({ type: 'open', offer, amount: '97', payment_method: 'SEPA', rate: '1' });
    // Read whole, so no unread body keeps the client's connection to the server busy.
    const openedText = await opened.text();
    expect(opened.status, openedText).toBe(200);
    const channel = opened.headers.get(TRADE_CHANNEL_HEADER)!;

    const sockets = await Promise.all([openSocket(server.port), openSocket(server.port), openSocket(server.port)]);

    // The trade's row held: mark_paid's UPDATE waits on it inside the server.
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM trades WHERE channel = $1 FOR UPDATE', [channel]);
    const inFlight = post({ type: 'mark_paid', channel });
    // Settled early means the call never waited on the held row: say what it answered instead of only that
    // no lock wait appeared.
    let early: string | undefined;
    void inFlight.then(
      async (answer) => (early = `${answer.status} ${await answer.clone().text()}`),
      (error: unknown) => (early = String(error)),
    );
    try {
      await expect
        .poll(
          async () =>
            early ??
            // Not on `locker`: inside its open transaction PostgreSQL answers pg_stat_activity from the snapshot of the
            // transaction's first read of it, so a wait that began after that read would never show there.
            (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).n,
          { timeout: 20_000 },
        )
        .toBe(1);
    } catch (error) {
      // What the database's sessions and the server were doing, for whoever reads the failure.
      const activity = await db.query<Record<string, unknown>>(
        `SELECT pid, state, wait_event_type, wait_event, left(query, 160) AS query FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      const health = await fetch(`http://127.0.0.1:${server.port}/api/health`, { signal: AbortSignal.timeout(3000) }).then(
        (answer) => answer.status,
        (failure: unknown) => String(failure),
      );
      const log = `health now: ${health}\n` + readFileSync(join(logs, 'shutdown.log'), 'utf8').split('\n').slice(-25).join('\n');
      throw new Error(`${(error as Error).message}\nsessions: ${JSON.stringify(activity, null, 1)}\nserver log:\n${log}`);
    }

    const exited = server.stop();
    const signalled = Date.now();
    // Every websocket is told to reconnect (elsewhere) at once, while the request still waits.
    expect(await Promise.all(sockets.map((s) => s.closed))).toEqual([4200, 4200, 4200]);
    // Newcomers: no realtime connection, and no call answered 200 (refused, or 503 while closing).
    expect(await realtimeAccepted(server.port)).toBe(false);
    const newcomer = await fetch(`http://127.0.0.1:${server.port}/api/health`).then(
      (answer) => answer.status,
      () => 'refused',
    );
    expect(newcomer === 'refused' || newcomer === 503, `a new call after SIGTERM answered ${newcomer}`).toBe(true);

    await sleep(Math.max(0, signalled + HELD_AFTER_SIGTERM_MS - Date.now()));
    await locker.query('COMMIT');
    const answer = await inFlight;
    expect(answer.status, await answer.clone().text()).toBe(200);
    // 0, not the 1 of main.ts's forced exit at SHUTDOWN_GRACE_MS (10 s): the drain ended by itself in time.
    expect(await exited).toBe(0);
    expect(server.unexpectedExits).toEqual([]);

    // The request that finished during the drain was committed.
    const row = await db.one<{ buyer_paid: boolean }>('SELECT buyer_paid FROM trades WHERE channel = $1', [channel]);
    expect(row.buyer_paid).toBe(true);
  }, 60_000);
});
