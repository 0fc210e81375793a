import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, buyFromSeller, newPage, screenshot, toast, type Product } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

/**
 * An axe-core scan of every page of the product, signed out, as a trader, a moderator and an operator, in the light
 * and the dark theme (the theme follows prefers-color-scheme: panda.config.ts `conditions`): a violation of impact
 * "serious" or "critical" fails the test with its rule, page, theme and the selectors of the failing nodes.
 */

let product: Product;
let browser: Browser;

productAndBrowserPerFile((running) => ({ product, browser } = running));

// axe-core's browser bundle. Run with page.evaluate: the product's Content-Security-Policy (script-src 'self') blocks
// an inline <script> (page.addScriptTag({ content })), and tests/e2e/setup.ts fails a test that causes a violation.
const AXE_SOURCE: string = createRequire(import.meta.url)('axe-core').source;
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];
const FAILING_IMPACTS = new Set(['serious', 'critical']);
const within = { timeout: 15_000 };

type Finding = { rule: string; impact: string; help: string; page: string; theme: Theme; nodes: string[] };
type AxeResults = {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }>;
};

/** One line per violation, each failing node's selector (and why, for contrast) under it. */
const report = (findings: Finding[]) =>
  findings
    .map((finding) => `${finding.rule} (${finding.impact}) on ${finding.page} in ${finding.theme}: ${finding.help}\n${finding.nodes.map((node) => `    ${node}`).join('\n')}`)
    .join('\n');

/** The page as the app draws it: the prerendered HTML (inert, src/prerender.tsx) replaced and its h1 shown. */
async function rendered(page: Page, heading: string | RegExp) {
  await page.getByRole('heading', { level: 1, name: heading }).first().waitFor(within);
  await page.waitForFunction(() => document.querySelector('[data-prerendered]') === null, null, within);
  // Each screen is aria-busy while its data loads: scan what the trader reads, not the placeholders.
  await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null, null, within);
}

/** Both themes of what the page shows now: finite animations (a theme's colour transition, a toast) settled first. */
async function scan(page: Page, name: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await page.evaluate(async () => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const finite = document.getAnimations().filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity));
      await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
    });
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
    const results = (await page.evaluate(() => (window as unknown as { axe: { run: (context: Document) => Promise<unknown> } }).axe.run(document))) as AxeResults;
    for (const violation of results.violations) {
      if (!FAILING_IMPACTS.has(violation.impact ?? '')) continue;
      findings.push({
        rule: violation.id,
        impact: violation.impact ?? '',
        help: violation.help,
        page: name,
        theme,
        nodes: violation.nodes.map((node) => `${node.target.join(' ')}${node.failureSummary ? ` — ${node.failureSummary.replace(/\s+/g, ' ')}` : ''}`),
      });
    }
  }
  return findings;
}

async function visit(page: Page, path: string, heading: string | RegExp, name = path) {
  await page.goto(`${product.baseUrl}${path}`);
  await rendered(page, heading);
  return scan(page, name);
}

async function signedIn(username: string) {
  const { page } = await newPage(browser);
  await product.signIn(page, username);
  return page;
}

/** Every finding of a role's pages, checked once all are scanned so that one run lists them all. */
function expectClean(findings: Finding[]) {
  expect(findings.length, `serious or critical accessibility violations:\n${report(findings)}\n`).toBe(0);
}

let disputed = '';
let paid = '';
let ownOffer = 0;

beforeAll(async () => {
  // Two of bob's trades on alice's offers: one marked paid (alice sees Release Crypto), one disputed (the desk's).
  const bob = (await product.call<{ token: string }>('security/login/', { username: 'bob', password: DEMO_PASSWORD })).token;
  const open = async () => {
    const { offer, channel } = await buyFromSeller(product, bob, 'alice');
    ownOffer = offer.id;
    await product.call('market/trade/', { type: 'mark_paid', channel }, bob);
    return channel;
  };
  paid = await open();
  disputed = await open();
  await product.call('market/trade/', { type: 'raise_dispute', channel: disputed, reason: 'Paid by SEPA, nothing released.' }, bob);
});

describe('accessibility: an axe scan of every page, light and dark', () => {
  it('signed out: login, its second factor, signup, password reset, the flow atlas and the 404 page', async () => {
    const { page } = await newPage(browser);
    const findings: Finding[] = [];
    findings.push(...(await visit(page, '/login', 'Welcome back')));
    await page.getByLabel('Username').fill('dave');
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await rendered(page, 'Two-factor authentication');
    findings.push(...(await scan(page, '/login (two-factor)')));

    findings.push(...(await visit(page, '/signup', 'Create your account')));
    await page.getByLabel('Email').fill('newcomer@peerex.test');
    await page.getByRole('button', { name: 'Continue' }).click();
    await toast(page, 'OTP Sent').waitFor(within);
    await page.getByLabel('Verification code').waitFor(within);
    findings.push(...(await scan(page, '/signup (code)')));

    findings.push(...(await visit(page, '/forgot-password', 'Forgot your password?')));
    await page.getByLabel('Email').fill('alice@peerex.test');
    await page.getByRole('button', { name: 'Continue' }).click();
    await rendered(page, 'Complete your account');
    findings.push(...(await scan(page, '/forgot-password (code and new password)')));

    findings.push(...(await visit(page, '/flows', /./)));
    findings.push(...(await visit(page, '/no-such-page', 'Oops! Page not found')));
    await page.context().close();
    expectClean(findings);
  });

  it('a trader: dashboard, offers, wallets, trades, a trade’s chat, notifications, settings, a profile, the atlas', async () => {
    const page = await signedIn('alice');
    const findings: Finding[] = [];
    findings.push(...(await visit(page, '/', 'Welcome back, alice')));
    findings.push(...(await visit(page, '/offers', 'Browse Offers')));
    await page.getByRole('article').getByRole('button', { name: /this (seller|buyer)/ }).first().click();
    await page.getByRole('dialog', { name: 'Trade Preview' }).getByLabel(/^Amount/).waitFor(within);
    findings.push(...(await scan(page, '/offers (the Trade Preview dialog)')));
    findings.push(...(await visit(page, '/offers/create', 'Create New Offer', '/offers/create (I want to Buy)')));
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'a11y-offers-create-light');
    await page.getByText('I want to Sell').click();
    await page.locator('[data-value="sell"][data-state="checked"]').waitFor(within);
    findings.push(...(await scan(page, '/offers/create (I want to Sell)')));
    findings.push(...(await visit(page, `/offers/${ownOffer}`, 'Edit Offer', '/offers/$id (edit)')));
    findings.push(...(await visit(page, '/trades', 'Recent Trades')));
    findings.push(...(await visit(page, `/chat?channel=${paid}`, 'Chat', '/chat (a paid trade)')));
    findings.push(...(await visit(page, `/chat?channel=${disputed}`, 'Chat', '/chat (a disputed trade)')));
    findings.push(...(await visit(page, '/wallets', 'My Wallets')));
    findings.push(...(await visit(page, '/wallets/deposit', 'Deposit')));
    findings.push(...(await visit(page, '/wallets/withdraw', 'Withdraw')));
    findings.push(...(await visit(page, '/wallets/transactions', 'Recent Transactions')));
    findings.push(...(await visit(page, '/settings', 'Settings')));
    findings.push(...(await visit(page, '/settings/security', 'Security')));
    findings.push(...(await visit(page, '/traders/bob', 'bob')));
    findings.push(...(await visit(page, '/flows', /./, '/flows (signed in)')));
    await visit(page, '/', 'Welcome back, alice');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await page.getByRole('dialog', { name: 'Notifications' }).waitFor(within);
    findings.push(...(await scan(page, '/ (the notifications panel)')));
    await page.context().close();
    expectClean(findings);
  });

  it('a moderator: the dispute desk with a dispute open', async () => {
    const page = await signedIn('mod');
    await page.goto(`${product.baseUrl}/moderation`);
    await rendered(page, 'Disputes');
    const row = page.getByRole('list', { name: 'Disputes' }).locator(`li[data-channel="${disputed}"]`);
    await row.getByRole('button').first().click();
    await page.getByRole('article', { name: 'Dispute between bob and alice' }).waitFor(within);
    const findings = await scan(page, '/moderation (a dispute open)');
    await page.context().close();
    expectClean(findings);
  });

  it('an operator: the console’s overview, traders, a trader’s page, reviews, the audit log, their settings', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${product.baseUrl}/login`);
    await page.getByLabel('Username').fill('ops');
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/operator');
    const findings: Finding[] = [];
    findings.push(...(await visit(page, '/operator', 'Overview')));
    findings.push(...(await visit(page, '/operator/traders', 'Traders')));
    findings.push(...(await visit(page, '/operator/traders/bob', 'bob')));
    findings.push(...(await visit(page, '/operator/reviews', 'Withdrawal review')));
    findings.push(...(await visit(page, '/operator/audit', 'Audit log')));
    findings.push(...(await visit(page, '/settings', 'Settings', '/settings (operator)')));
    findings.push(...(await visit(page, '/settings/security', 'Security', '/settings/security (operator)')));
    await page.context().close();
    expectClean(findings);
  });
});
