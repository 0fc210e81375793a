import { spawn, type ChildProcess } from 'node:child_process';
import fs, { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { OfferList } from '../../contracts/market.ts';
import { TRADE_CHANNEL_HEADER } from '../../contracts/trade.ts';
import { openPglite } from '../../server/src/infra/db/pglite.ts';
import { checkLedger, formatLedgerReport } from '../../server/src/ledger/check.ts';
import { DEMO_PASSWORD } from '../../server/src/seed.ts';
import { offerBody } from '../support/server-flows.ts';

/**
 * The embedded database keeps what it acknowledged: the real server (`server/src/main.ts`, no DATABASE_URL,
 * PGlite under a temporary DATA_DIR) is killed with SIGKILL while traders write (trades opened and cancelled
 * through the ledger, chat messages), started again on the same DATA_DIR (taking over the dead process's
 * lock), and every write it answered with success is there, with the ledger clean.
 */

interface Server {
  child: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<void>;
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `npm start`'s server on DATA_DIR, on a port the OS picks, with the demo traders; rate limits out of the way. */
async function startServer(dataDir: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    env: {
      ...env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      PRICE_TICK_SECONDS: '0',
      CHAIN_POLL_SECONDS: '0',
      RATE_LIMIT_PER_MINUTE: '1000000',
      TRADE_OPENS_PER_HOUR: '1000000',
      MAX_OPEN_TRADES: '10000',
      CHAT_MESSAGES_PER_MINUTE: '1000000',
      WEB_DIST: join(dataDir, 'no-web-app'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = await new Promise<string>((resolve, reject) => {
    const poll = setInterval(() => {
      const found = /Peerex is running at (http:\/\/\S+) /.exec(output)?.[1];
      if (found || child.exitCode !== null || child.signalCode !== null) {
        clearInterval(poll);
        if (found) resolve(found);
        else reject(new Error(`the server exited:\n${output}`));
      }
    }, 100);
  });
  return { child, base, output: () => output, exited };
}

type Answer = { status: number; success: boolean; info: unknown; channel: string | null };

async function post(server: Server, path: string, body: unknown, token?: string): Promise<Answer> {
  const response = await fetch(`${server.base}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { success: boolean; info: unknown };
  return { status: response.status, ...envelope, channel: response.headers.get(TRADE_CHANNEL_HEADER) };
}

async function signIn(server: Server, username: string): Promise<string> {
  const answer = await post(server, 'security/login/', { username, password: DEMO_PASSWORD });
  expect(answer.success, JSON.stringify(answer.info)).toBe(true);
  return (answer.info as { token: string }).token;
}

/** What the server answered with success: each must survive the crash. */
type Acknowledged =
  | { kind: 'message'; channel: string; text: string }
  | { kind: 'opened'; channel: string }
  | { kind: 'cancelled'; channel: string };

describe('embedded PGlite under SIGKILL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'peerex-durability-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('loses nothing it acknowledged, and starts again on the same DATA_DIR with the ledger clean', { timeout: 240_000 }, async () => {
    const first = await startServer(dataDir);
    const seller = await signIn(first, 'bob');
    const buyer = await signIn(first, 'alice');
    const published = await post(first, 'market/offers/', offerBody({ rate: '1', min_amount: '1', max_amount: '100000', payment_methods: ['SEPA'] }), seller);
    expect(published.success, JSON.stringify(published.info)).toBe(true);
    const list = await post(first, 'market/offers/', { type: 'list', filters: {} }, buyer);
    // The offer just published: bob's newest.
    const offer = Math.max(...(list.info as OfferList).offers.filter((entry) => entry.user__username === 'bob').map((entry) => entry.id));
    expect(Number.isInteger(offer), JSON.stringify(list.info)).toBe(true);

    const open = () => post(first, 'market/trade/', { type: 'open', offer, amount: '10', payment_method: 'SEPA', rate: '1' }, buyer);
    const chat = await open();
    expect(chat.success, JSON.stringify(chat.info)).toBe(true);
    const chatChannel = chat.channel!;

    const acknowledged: Acknowledged[] = [];
    // Killed after this many acknowledgements, so at a different point of the stream on each run.
    const killAfter = 40 + Math.floor(Math.random() * 40);
    let killed = false;
    const killWhenDue = () => {
      if (!killed && acknowledged.length >= killAfter) {
        killed = true;
        first.child.kill('SIGKILL');
      }
    };

    /** Runs `step` until the server is gone; a step that fails because it is gone acknowledged nothing. */
    const writer = async (step: (n: number) => Promise<void>) => {
      for (let n = 0; !killed; n++) {
        try {
          await step(n);
        } catch (error) {
          if (killed) return;
          throw error;
        }
        killWhenDue();
      }
    };
    const chatter = (token: string, name: string) =>
      writer(async (n) => {
        const text = `${name} ${n} ${'durable '.repeat(n % 7)}`.trim();
        const answer = await post(first, `market/chat/${chatChannel}/`, { type: 'send_message', message_type: 'text', text }, token);
        expect(answer.success, JSON.stringify(answer.info)).toBe(true);
        acknowledged.push({ kind: 'message', channel: chatChannel, text });
      });
    const trader = writer(async () => {
      const opened = await open();
      expect(opened.success, JSON.stringify(opened.info)).toBe(true);
      acknowledged.push({ kind: 'opened', channel: opened.channel! });
      const cancelled = await post(first, 'market/trade/', { type: 'cancel', channel: opened.channel }, buyer);
      expect(cancelled.success, JSON.stringify(cancelled.info)).toBe(true);
      acknowledged.push({ kind: 'cancelled', channel: opened.channel! });
    });
    await Promise.all([chatter(buyer, 'alice'), chatter(seller, 'bob'), trader]);
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter);
    expect(new Set(acknowledged.map((entry) => entry.kind))).toEqual(new Set(['message', 'opened', 'cancelled']));
    // The dead process's lock is still there, naming it: the next start must take it over.
    expect(readFileSync(join(dataDir, 'pgdata.lock'), 'utf8')).toBe(String(first.child.pid));

    const second = await startServer(dataDir);
    const after = await post(second, `market/chat/${chatChannel}/`, { type: 'send_message', message_type: 'text', text: 'after the crash' }, buyer);
    expect(after.success, JSON.stringify(after.info)).toBe(true);
    second.child.kill('SIGTERM');
    await second.exited;
    expect(second.child.exitCode, second.output()).toBe(0);
    expect(existsSync(join(dataDir, 'pgdata.lock'))).toBe(false);

    const db = await openPglite({ dataDir });
    try {
      const messages = new Set(
        (await db.query<{ text: string }>('SELECT m.text FROM chat_messages m JOIN trades t ON t.id = m.trade_id WHERE t.channel = $1', [chatChannel])).map(
          (row) => row.text,
        ),
      );
      const trades = new Map(
        (await db.query<{ channel: string; status: string }>('SELECT channel, status FROM trades')).map((row) => [row.channel, row.status]),
      );
      const lost = acknowledged.filter((entry) => {
        if (entry.kind === 'message') return !messages.has(entry.text);
        if (entry.kind === 'opened') return !trades.has(entry.channel);
        return trades.get(entry.channel) !== 'cancelled';
      });
      expect(lost).toEqual([]);
      expect(messages.has('after the crash')).toBe(true);
      const report = await checkLedger(db);
      expect(report.clean, formatLedgerReport(report)).toBe(true);
      console.log(`pglite durability: ${acknowledged.length} acknowledged writes before SIGKILL (after ${killAfter}), none lost; ledger clean`);
    } finally {
      await db.close();
    }
  });
});

describe('embedded PGlite under a power cut', () => {
  it('has each commit fsynced to the disk before it answers, not only written to the operating system', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'peerex-fsync-'));
    const db = await openPglite({ dataDir });
    try {
      expect(await db.one('SHOW fsync')).toEqual({ fsync: 'on' });
      await db.exec('CREATE TABLE probe (n integer)');
      // Seen through Node's own fsync, under PGlite's Emscripten file system: that it is called is the point.
      const fsync = vi.spyOn(fs, 'fsyncSync');
      syncBuiltinESMExports();
      try {
        await db.query('SELECT count(*) FROM probe');
        expect(fsync).not.toHaveBeenCalled();
        await db.query('INSERT INTO probe VALUES (1)');
        expect(fsync).toHaveBeenCalled();
      } finally {
        fsync.mockRestore();
        syncBuiltinESMExports();
      }
    } finally {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
