import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, type Product, toast } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

let product: Product;
let browser: Browser;

productAndBrowserPerFile((running) => ({ product, browser } = running));

const signIn = (page: Page, username: string) => product.signIn(page, username);

/** The simulated chain's development driver (POST /api/dev/chain/), as a developer at this machine calls it. */
async function devChain<T>(body: unknown): Promise<T> {
  const response = await fetch(`${product.baseUrl}/api/dev/chain/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { success: boolean; info: T };
  expect(answer.success, JSON.stringify(answer)).toBe(true);
  return answer.info;
}

async function choose(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** What a phone's camera would read: the QR code as rendered, with a white margin around it, decoded. */
async function decodeQr(page: Page): Promise<string | undefined> {
  const box = await page.getByRole('region', { name: 'Deposit address' }).locator('svg').first().boundingBox();
  if (!box) return undefined;
  const margin = 24;
  const png = PNG.sync.read(
    await page.screenshot({ clip: { x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin } }),
  );
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

/** The Recent Transactions row of a transaction, found by its amount. */
const transactionRow = (page: Page, amount: string) => page.getByRole('row').filter({ hasText: amount });

describe('wallets in the browser', () => {
  it('deposits to a QR code that holds the shown address; the deposit shows pending, then completed, and the wallet rises', async () => {
    const { page } = await newPage(browser);
    await signIn(page, 'carol');
    await page.goto(`${product.baseUrl}/wallets`);
    const bitcoin = page.getByRole('article', { name: 'Bitcoin wallet' });
    await bitcoin.getByText('2.00000000').waitFor();

    await page.goto(`${product.baseUrl}/wallets/deposit`);
    await page.getByText('Select a cryptocurrency').first().waitFor();
    await choose(page, 'Cryptocurrency', /Bitcoin/);
    const region = page.getByRole('region', { name: 'Deposit address' });
    const address = ((await region.locator('output').textContent()) ?? '').trim();
    expect(address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
    await page.getByText('Confirmations: 1').waitFor();
    await page.getByText('Min Deposit: 5 USD').waitFor();
    expect(await decodeQr(page)).toBe(address);
    await screenshot(page, 'e2e-deposit-light');

    await devChain({ type: 'deposit', network: 'bitcoin', address, amount: '0.25' });
    await page.goto(`${product.baseUrl}/wallets/transactions`);
    const row = transactionRow(page, '0.25000000');
    await row.getByText('Pending').waitFor();
    await devChain({ type: 'mine', blocks: 1 });
    // The screen reads the page again every 5 s while a row on it is pending.
    await row.getByText('Completed').waitFor({ timeout: 15_000 });
    await screenshot(page, 'e2e-transactions-light');

    await page.goto(`${product.baseUrl}/wallets`);
    await bitcoin.getByText('2.25000000').waitFor();
  });

  it('withdraws USDT on Tron through the form, with the USD/crypto toggle on the way, to completed', async () => {
    const { page } = await newPage(browser, { colorScheme: 'dark' });
    await signIn(page, 'bob');
    await page.goto(`${product.baseUrl}/wallets/withdraw`);
    await choose(page, 'Coin', /Tether/);
    await choose(page, 'Network', /Tron/);
    await page.getByLabel('Recipient Address').fill('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');

    const amount = page.locator('input[name="amount"]');
    await amount.fill('250');
    await page.getByRole('button', { name: 'Enter in USD' }).click();
    await page.getByLabel('Amount (USD)').waitFor();
    // USDT's price moves a little around 1.00: crypto to USD keeps 2 places, USD to crypto the coin's 6.
    expect(await amount.inputValue()).toMatch(/^2\d\d\.\d{2}$/);
    await page.getByRole('button', { name: 'Enter in USDT' }).click();
    await page.getByLabel('Amount (USDT)').waitFor();
    expect(await amount.inputValue()).toMatch(/^2\d\d(\.\d{1,6})?$/);

    await amount.fill('60000');
    await page.getByText('This amount is higher than your balance').waitFor();
    expect(await page.getByRole('button', { name: 'Confirm Withdrawal' }).count()).toBe(0);

    await amount.fill('250');
    const preview = page.getByLabel('Withdrawal preview');
    await preview.getByText('1.000000 USDT').first().waitFor();
    await screenshot(page, 'e2e-withdraw-dark');
    await page.getByRole('button', { name: 'Confirm Withdrawal' }).click();
    await page.waitForURL(`${product.baseUrl}/wallets/transactions`);
    await toast(page, 'Withdrawal submitted').waitFor();

    const row = transactionRow(page, '250.000000');
    await row.getByText('Pending').waitFor();
    await devChain({ type: 'mine', blocks: 1 });
    await row.getByText('Completed').waitFor({ timeout: 15_000 });
    await screenshot(page, 'e2e-withdrawal-completed-dark');

    await page.goto(`${product.baseUrl}/wallets`);
    await page.getByRole('article', { name: 'Tether wallet' }).getByText('49,750.000000').or(
      page.getByRole('article', { name: 'Tether wallet' }).getByText('49750.000000'),
    ).first().waitFor();
  });
});
