import type { FastifyInstance, InjectOptions } from 'fastify';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../server/src/app.ts';
import { loadConfig, type Config } from '../../server/src/config.ts';
import { memoryOutbox, type MailTransport, type MemoryOutbox } from '../../server/src/infra/mail.ts';
import type { Argon2Parameters } from '../../server/src/infra/passwords.ts';
import type { ChainAdapter } from '../../server/src/chain/adapter.ts';
import type { PriceFeedAdapter } from '../../server/src/prices/adapters.ts';
import { xpubEnvironmentOf } from '../../server/src/wallets/keys.ts';
import { createScratchDatabase, sharedPgliteBoot } from './databases.ts';
import { withCodeChecked } from './refusals.ts';

export { createScratchDatabase, type ScratchDatabase } from './databases.ts';

export type DbTarget = 'pglite' | 'postgres';

/**
 * Every server suite runs on PGlite; when DATABASE_URL is set (CI, or by hand) the same suite runs a
 * second time on that PostgreSQL, each app in a database of its own that is dropped afterwards.
 * Use with `describe.each(dbTargets)`.
 */
export const dbTargets: DbTarget[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * argon2id cheap enough for hundreds of hashes per suite. Only tests pass it, explicitly; the app's
 * default stays OWASP's (tests/server/passwords.test.ts checks that).
 */
export const TEST_ARGON2: Argon2Parameters = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export const TEST_APP_SECRET = 'test-secret-of-the-server-suite-0123456789';

/** A clock the test moves by hand; starts at the real time so TOTP codes look like real ones. */
export class TestClock {
  private current: number;
  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }
  readonly now = (): Date => new Date(this.current);
  advance(ms: number): void {
    this.current += ms;
  }
  set(at: Date): void {
    this.current = at.getTime();
  }
}

export const MINUTE = 60_000;

// ---------------------------------------------------------------------------------------------------------

export interface Envelope<T = unknown> {
  success: boolean;
  info: T;
  /**
   * A refusal's code (docs/api.md "Refusal codes"): checked against the catalogue by every call of the test
   * app, and not enumerable, so a test comparing `{success: false, info}` needs no change (tests/support/refusals.ts).
   */
  code?: string;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  /** Send this string as the body instead of JSON-encoding `body`. */
  raw?: string;
  /** Caller's IP, for the per-IP rate limits. */
  ip?: string;
}

export interface CallResult<T = unknown> {
  status: number;
  body: Envelope<T>;
}

export interface TestApp {
  app: FastifyInstance;
  target: DbTarget;
  config: Config;
  clock: TestClock;
  outbox: MemoryOutbox;
  post<T = unknown>(path: string, body?: unknown, options?: CallOptions): Promise<CallResult<T>>;
  get<T = unknown>(path: string): Promise<CallResult<T>>;
  close(): Promise<void>;
}

/**
 * WALLET_XPUB_* of the BIPs' test mnemonic (its keys are public knowledge): what a test that boots with
 * NODE_ENV=production passes, since production refuses to start without the deposit keys.
 */
export const TEST_WALLET_XPUBS = xpubEnvironmentOf(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);

export interface TestAppOptions {
  /**
   * Environment on top of the suite's defaults (no rate limit to speak of, no demo data, no web app,
   * prices ticked by hand). The reference data (coins, currencies, payment methods) is always there.
   */
  env?: Record<string, string>;
  /** Default: the in-memory outbox of `TestApp.outbox`. `'from-config'`: what the app builds itself (SMTP_URL). */
  mailTransport?: MailTransport | 'from-config';
  argon2?: Argon2Parameters;
  /** Default: the adapter PRICE_SOURCE names. */
  priceFeed?: PriceFeedAdapter;
  /** Default: the adapter CHAIN_SOURCE names (the simulated chain). */
  chainAdapter?: ChainAdapter;
  /** The web push worker's options (BuildAppOptions.push): its timer, a test CA's agent, a fake Beams. */
  push?: BuildAppOptions['push'];
  /** Default: no logger. A test of log lines passes one writing to a stream it reads. */
  logger?: BuildAppOptions['logger'];
}

/**
 * A ready app on a fresh database of the given kind, with its clock and mail outbox in the test's hands.
 * Reuse one per describe block: apps are cheap, but not free.
 */
export async function createTestApp(target: DbTarget, options: TestAppOptions = {}): Promise<TestApp> {
  // A copy of the global setup's migrated database (tests/support/migrated-databases.ts), where there is one.
  const scratch = target === 'postgres' ? await createScratchDatabase(inject('migratedPostgresTemplate')) : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    APP_SECRET: TEST_APP_SECRET,
    SEED_DEMO: 'false',
    RATE_LIMIT_PER_MINUTE: '100000',
    TRADE_OPENS_PER_HOUR: '100000',
    // Prices move only when a test calls `app.prices.tick()`.
    PRICE_TICK_SECONDS: '0',
    // The payment window is swept only when a test calls `app.trades.sweep()`.
    TRADE_SWEEP_SECONDS: '0',
    // The chain watcher runs only when a test calls `app.chain.sync()`.
    CHAIN_POLL_SECONDS: '0',
    WEB_DIST: join(tmpdir(), 'peerex-no-web-app'),
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...options.env,
  });
  const clock = new TestClock();
  const outbox = memoryOutbox({ now: clock.now });
  const buildOptions: BuildAppOptions = {
    config,
    now: clock.now,
    mailTransport: options.mailTransport === 'from-config' ? undefined : (options.mailTransport ?? outbox),
    argon2: options.argon2 ?? TEST_ARGON2,
    pgliteBoot: target === 'pglite' ? await sharedPgliteBoot(inject('migratedPgliteSnapshot')) : undefined,
    priceFeed: options.priceFeed,
    chainAdapter: options.chainAdapter,
    push: options.push,
    logger: options.logger,
  };
  let app: FastifyInstance;
  try {
    app = await buildApp(buildOptions);
  } catch (error) {
    await scratch?.drop();
    throw error;
  }

  async function call<T>(request: InjectOptions): Promise<CallResult<T>> {
    const response = await app.inject(request);
    // Mails a call sends in the background (a reset code) look up the recipient's anti-phishing code first, so
    // they may land after the answer: a test reads the outbox once they have.
    await app.mailer.settled();
    return { status: response.statusCode, body: withCodeChecked(response.statusCode, response.json<Envelope<T>>()) };
  }

  return {
    app,
    target,
    config,
    clock,
    outbox,
    post<T>(path: string, body?: unknown, callOptions: CallOptions = {}) {
      const headers: Record<string, string> = { ...callOptions.headers };
      if (callOptions.token !== undefined) headers.authorization = `Bearer ${callOptions.token}`;
      const hasBody = callOptions.raw !== undefined || body !== undefined;
      if (hasBody && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
        headers['content-type'] = 'application/json';
      }
      return call<T>({
        method: 'POST',
        url: path,
        headers,
        ...(callOptions.ip ? { remoteAddress: callOptions.ip } : {}),
        ...(callOptions.raw !== undefined ? { payload: callOptions.raw } : body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
    },
    get<T>(path: string) {
      return call<T>({ method: 'GET', url: path });
    },
    async close() {
      try {
        await app.close();
      } finally {
        await scratch?.drop();
      }
    },
  };
}
