import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGuardrails, generate } from 'otplib';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { TRADE_CHANNEL_HEADER } from '../../contracts/index.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The flags every Chromium here starts with (the browser tests', the benchmarks'). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const SCREENSHOT_DIR = join(process.cwd(), 'screenshots');

export type Mail = { to: string; subject: string; text: string };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A real SMTP server that keeps what it receives, so tests read the codes the product mails. */
async function startMailbox() {
  const mails: Mail[] = [];
  const port = await freePort();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address).join(', ');
        mails.push({ to, subject, text: raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The product as `npm start` runs it on a laptop: embedded database, no Redis, whatever CI exports. */
function productEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...overrides };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return env;
}

/**
 * Boots `npm start`'s server (the web app must be built) on a fresh embedded database with the demo data;
 * `extraEnv` adds settings (a push service the test runs, say).
 */
export async function startProduct(extraEnv: Record<string, string> = {}) {
  const mailbox = await startMailbox();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'peerex-e2e-'));
  // The built server, as `npm start` runs it (`npm run test:e2e` builds it with the web app).
  const child: ChildProcess = spawn(process.execPath, ['server/dist/main.js'], {
    env: productEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      // The address the browsers below open: the push service GET /api/config names is PUBLIC_URL's.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
      SEED_DEMO: 'true',
      NODE_ENV: 'development',
      ...extraEnv,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  /** Waits for the newest mail to `to` and returns the 6-digit code in its text. */
  async function codeFor(to: string, after = 0): Promise<string> {
    const until = Date.now() + 15_000;
    for (;;) {
      const mail = mailbox.mails.filter((entry) => entry.to.includes(to)).slice(after).at(-1);
      const code = mail && /\b(\d{6})\b/.exec(mail.text.split(/\r?\n\r?\n/).slice(1).join('\n'))?.[1];
      if (code) return code;
      if (Date.now() > until) throw new Error(`no code mailed to ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A POST to the product's API as a script (or another device, another trader's tab) makes it: the raw answer. */
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${baseUrl}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  return {
    baseUrl,
    mails: mailbox.mails,
    codeFor,
    post,
    /** The same POST, answering its envelope's info; an unsuccessful answer throws with it. */
    async call<T>(path: string, body: unknown, token?: string): Promise<T> {
      const envelope = (await (await post(path, body, token)).json()) as { success: boolean; info: T };
      if (!envelope.success) throw new Error(`${path}: ${JSON.stringify(envelope.info)}`);
      return envelope.info;
    },
    /** Signs a demo trader in through the login page and waits for the dashboard. */
    async signIn(page: Page, username: string) {
      await page.goto(`${baseUrl}/login`);
      await page.getByLabel('Username').fill(username);
      await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL(`${baseUrl}/`);
    },
    log: () => output,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      await mailbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Product = Awaited<ReturnType<typeof startProduct>>;

/** A sell offer as Browse Offers lists it, as far as opening a trade on it needs. */
export type ListedOffer = { id: number; rate: string; min_amount: string; payment_methods: string[]; currency__code: string };

/**
 * The buyer (a session token) opens a trade on the seller's first listed sell offer, at its minimum and first method,
 * as the Trade Preview dialog would: the trade's channel (the open answer's header) and the offer.
 */
export async function buyFromSeller(product: Product, buyerToken: string, seller: string): Promise<{ channel: string; offer: ListedOffer }> {
  const list = await product.call<{ offers: ListedOffer[] }>(
    'market/offers/',
    { type: 'list', page: 1, filters: { user__username__icontains: seller, offer_type: 'sell' } },
    buyerToken,
  );
  const offer = list.offers[0]!;
  const response = await product.post(
    'market/trade/',
    { type: 'open', offer: offer.id, amount: offer.min_amount, payment_method: offer.payment_methods[0], rate: offer.rate },
    buyerToken,
  );
  const channel = response.headers.get(TRADE_CHANNEL_HEADER) ?? '';
  if (response.status !== 200 || channel === '') throw new Error(`open on offer ${offer.id}: ${response.status} ${await response.text()}`);
  return { channel, offer };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
}

const CSP_VIOLATION = 'CSP violation:';
const cspViolations: string[] = [];

/**
 * Every Content-Security-Policy violation any page reported since the last call (tests/e2e/setup.ts fails
 * the test that caused one), from the page's `securitypolicyviolation` events, one line each with the
 * directive and what it blocked.
 */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

function watchForCspViolations(page: Page) {
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith(CSP_VIOLATION)) cspViolations.push(`${page.url()}: ${text}`);
  });
}

export async function newPage(
  browser: Browser,
  options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    // The browser's language (navigator.languages): the product's pages pick theirs from it (docs/i18n.md).
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
  });
  await context.addInitScript((prefix: string) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`${prefix} ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  }, CSP_VIOLATION);
  context.on('page', watchForCspViolations);
  const page = await context.newPage();
  return { context, page };
}

/** A toast on the page holding `text`. */
export const toast = (page: Page, text: string) => page.locator('[data-scope="toast"][data-part="root"]', { hasText: text });

/** Waits until an element that slides in (a toast) has stopped moving, so a screenshot shows it in place. */
export async function standingStill(locator: Locator, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  let last = JSON.stringify(await locator.boundingBox());
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = JSON.stringify(await locator.boundingBox());
    if (now === last || Date.now() > deadline) return;
    last = now;
  }
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Authenticator apps accept dave's 80-bit demo secret; otplib wants 128 bits unless told. */
const demoSecretGuardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });

/**
 * A TOTP code the server has not accepted yet: each code is accepted once, so a test that signs in
 * twice within 30 s uses the next time step (the server allows ±1 step of drift) or waits for it.
 */
export function createAuthenticator(secret: string) {
  let lastStep = 0;
  return async function nextCode(): Promise<string> {
    for (;;) {
      const current = Math.floor(Date.now() / 1000 / 30);
      const step = Math.max(current, lastStep + 1);
      if (step <= current + 1) {
        lastStep = step;
        return generate({ secret, epoch: step * 30, guardrails: demoSecretGuardrails });
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
}

export const DEMO_PASSWORD = 'peerex-demo';
export const DAVE_SECRET = 'JBSWY3DPEHPK3PXP';

export function cleanupDir(path: string) {
  rmSync(path, { recursive: true, force: true });
}
