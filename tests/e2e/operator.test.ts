import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, newPage, screenshot, type Product } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

/**
 * The operator's console (docs/operators.md): `ops` reviews two large withdrawals (approves alice's, rejects
 * carol's with a reason), suspends bob while bob's own page is open in another browser (which stops at once), exports
 * the audit log, and /metrics answers this machine. The steps share the pages, so they run in order.
 */

let product: Product;
let browser: Browser;
let ops: Page;
let bob: Page;
const within = { timeout: 20_000 };
/** A valid native SegWit address of nobody on the platform (BIP-173's test vector). */
const OUTSIDE = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const REJECTION = 'The recipient is on a sanctions list.';
const SUSPENSION = 'Chargebacks on three trades this week.';

productAndBrowserPerFile((running) => ({ product, browser } = running));

const tokenOf = async (username: string) => (await product.call<{ token: string }>('security/login/', { username, password: DEMO_PASSWORD })).token;
type History = { rows?: Array<{ status: string; trans_type: string; coin__ticker?: string }>; transactions?: Array<{ status: string; trans_type: string }> };
const withdrawalStatuses = async (token: string) => {
  const history = await product.call<History>('user/wallet/', { type: 'history', page: 1, filters: { trans_type: 'withdrawal' } }, token);
  return (history.transactions ?? history.rows ?? []).map((row) => row.status);
};
const dialog = (page: Page, heading: string): Locator => page.locator('[role="dialog"], [role="alertdialog"]').filter({ hasText: heading });

describe('the operator console', () => {
  let aliceToken = '';
  let carolToken = '';

  it('alice and carol each withdraw $15,000 of BTC: both wait for review', async () => {
    [aliceToken, carolToken] = await Promise.all([tokenOf('alice'), tokenOf('carol')]);
    for (const token of [aliceToken, carolToken]) {
      await product.call('user/wallet/', { type: 'preview_withdrawal', amount: '15000', mode: 'usd', recipient: OUTSIDE, ticker: 'BTC', network: 'bitcoin' }, token);
      const sentence = await product.call<string>('user/wallet/', { type: 'confirm_withdrawal' }, token);
      expect(sentence).toMatch(/review/i);
      expect(await withdrawalStatuses(token)).toContain('review');
    }
  });

  it('bob is signed in in his browser; ops signs in and lands on the overview', async () => {
    ({ page: bob } = await newPage(browser));
    await product.signIn(bob, 'bob');
    await bob.goto(`${product.baseUrl}/wallets`);

    ({ page: ops } = await newPage(browser, { colorScheme: 'dark' }));
    await ops.goto(`${product.baseUrl}/login`);
    await ops.getByLabel('Username').fill('ops');
    await ops.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await ops.getByRole('button', { name: 'Login' }).click();
    await ops.waitForURL((url) => url.pathname === '/operator');
    await ops.getByRole('heading', { name: 'Overview' }).waitFor(within);
    await ops.getByText('Withdrawals to review').waitFor(within);
    await screenshot(ops, 'e2e-operator-overview-dark');
  });

  it('ops typing a trading address lands on the console; their security page has no withdrawal allowlist', async () => {
    await ops.goto(`${product.baseUrl}/wallets/withdraw`);
    await ops.waitForURL((url) => url.pathname === '/operator');
    await ops.getByRole('heading', { name: 'Overview' }).waitFor(within);
    await ops.goto(`${product.baseUrl}/settings/security`);
    // The prerendered page (a trader's) shows every card until the app has rendered the operator's: wait for what
    // only the app shows, their own sign-in read from the server.
    await ops.getByText('This is you').first().waitFor(within);
    expect(await ops.getByText('Withdrawal allowlist').count()).toBe(0);
  });

  it('ops approves alice’s withdrawal and rejects carol’s with a reason; carol has her coins back', async () => {
    await ops.goto(`${product.baseUrl}/operator/reviews`);
    const row = (username: string) => ops.locator('tr, [data-withdrawal]').filter({ hasText: username }).first();
    await row('alice').waitFor(within);
    await row('carol').waitFor(within);

    await row('alice').getByRole('button', { name: 'Approve' }).click();
    const approving = dialog(ops, 'Approve this withdrawal');
    await approving.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => row('alice').count(), within).toBe(0);
    await expect.poll(async () => (await withdrawalStatuses(aliceToken)).includes('review'), within).toBe(false);

    const carolBefore = await product.call<Array<{ coin: { ticker: string }; balance: string }>>('user/wallet/', { type: 'addresses' }, carolToken);
    await row('carol').getByRole('button', { name: 'Reject' }).click();
    const rejecting = dialog(ops, 'Reject this withdrawal');
    await rejecting.getByLabel('Reason').fill(REJECTION);
    await rejecting.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => row('carol').count(), within).toBe(0);
    await expect.poll(async () => (await withdrawalStatuses(carolToken))[0], within).toBe('cancelled');
    const carolAfter = await product.call<Array<{ coin: { ticker: string }; balance: string }>>('user/wallet/', { type: 'addresses' }, carolToken);
    const btc = (wallets: typeof carolAfter) => Number(wallets.find((wallet) => wallet.coin.ticker === 'BTC')?.balance);
    expect(btc(carolAfter)).toBeGreaterThan(btc(carolBefore));
  });

  it('ops suspends bob with a reason; bob’s open page stops at once and he cannot sign in', async () => {
    await ops.goto(`${product.baseUrl}/operator/traders/bob`);
    const staff = ops.getByRole('group', { name: 'Staff actions' });
    await staff.getByRole('button', { name: 'Suspend' }).click();
    const suspending = dialog(ops, 'Suspend this trader');
    await suspending.getByLabel('Reason').fill(SUSPENSION);
    await suspending.getByRole('button', { name: 'Continue' }).click();
    await suspending.getByRole('button', { name: 'Suspend' }).click();
    await suspending.getByRole('status').waitFor(within);
    await screenshot(ops, 'e2e-operator-suspended-dark');

    // His session ended with the suspension: the page he had open signs out by itself.
    await bob.waitForURL((url) => url.pathname === '/login', within);
    const refused = await product.post('security/login/', { username: 'bob', password: DEMO_PASSWORD });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('sign_in.suspended');
  });

  it('ops exports the audit log as CSV with every action of this story', async () => {
    await ops.goto(`${product.baseUrl}/operator/audit`);
    const [download] = await Promise.all([ops.waitForEvent('download', within), ops.getByRole('button', { name: 'Export audit log (CSV)' }).click()]);
    const csv = readFileSync((await download.path()) ?? '', 'utf8');
    for (const action of ['withdrawal_approved', 'withdrawal_rejected', 'trader_suspended']) expect(csv).toContain(action);
    expect(csv).toContain(REJECTION);
    expect(csv).toContain(SUSPENSION);
  });

  it('/metrics answers this machine in Prometheus text format', async () => {
    const response = await fetch(`${product.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(await response.text()).toContain('http_request_duration_seconds_bucket');
  });
});
