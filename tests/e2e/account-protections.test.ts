import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, newPage, screenshot, type Product, toast } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

let product: Product;
let browser: Browser;

productAndBrowserPerFile((running) => ({ product, browser } = running));

const ALICE_EMAIL = 'alice@peerex.test';
const SAVED_ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const OTHER_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const card = (page: Page, title: string) => page.getByRole('region', { name: title });

async function openSecurity(page: Page) {
  await page.goto(`${product.baseUrl}/settings/security`);
  await card(page, 'Sign-in history').getByRole('list', { name: 'Sign-ins' }).waitFor();
}

/** A full-page screenshot from the top: scrolled, the sticky header would be drawn across the middle of the page. */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

async function choose(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option }).first().click();
}

describe('account protections on /settings/security', () => {
  it('sign-in history: two browsers, "This is you" on one; signing out everywhere else ends the other at its next call', async () => {
    const laptop = await newPage(browser);
    const other = await newPage(browser);
    await product.signIn(other.page, 'alice');
    await product.signIn(laptop.page, 'alice');
    await openSecurity(laptop.page);

    const history = card(laptop.page, 'Sign-in history');
    const active = history.getByRole('listitem').filter({ hasText: 'Active' });
    expect(await active.count()).toBe(2);
    // Newest first: the laptop signed in last, and it is the one making the call.
    const first = history.getByRole('listitem').first();
    await first.getByText('This is you').waitFor();
    expect(await history.getByText('This is you').count()).toBe(1);
    expect(await first.textContent()).toMatch(/Chrome on Linux \(desktop\)/);
    expect(await first.textContent()).toMatch(/127\.0\.0\.1/);
    await shoot(laptop.page, 'e2e-security-history-1280-light');

    await history.getByRole('button', { name: 'Sign out everywhere else' }).click();
    const dialog = laptop.page.getByRole('alertdialog', { name: 'Sign out everywhere else?' });
    await dialog.waitFor();
    await shoot(laptop.page, 'e2e-security-sign-out-dialog-1280-light');
    await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await history.getByRole('status').getByText(/Signed out 1 other session/).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await history.getByRole('listitem').filter({ hasText: 'Signed out' }).first().waitFor();
    expect(await history.getByRole('listitem').filter({ hasText: 'Active' }).count()).toBe(1);
    expect(await history.getByRole('button', { name: 'Sign out everywhere else' }).isDisabled()).toBe(true);

    // The other browser still shows the app; its next call finds its session ended and it goes to the login page,
    // which would bring it back to the wallets after signing in again.
    await other.page.getByRole('link', { name: 'Wallets', exact: true }).first().click();
    await other.page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(other.page.url()).searchParams.get('redirect')).toBe('/wallets');
    // The laptop is still signed in.
    await laptop.page.reload();
    await card(laptop.page, 'Sign-in history').getByText('This is you').waitFor();
    await Promise.all([laptop.context.close(), other.context.close()]);
  });

  it('anti-phishing code: set with the password; the next password-reset mail carries it', async () => {
    const { page, context } = await newPage(browser, { colorScheme: 'dark' });
    await product.signIn(page, 'alice');
    await openSecurity(page);
    const section = card(page, 'Anti-phishing code');
    await section.getByText('Every mail from Peerex will show this code. A mail without it is not from us.').waitFor();
    await section.getByText('No code set').waitFor();

    await section.getByRole('button', { name: 'Set a code' }).click();
    await section.getByLabel('New anti-phishing code').fill('Blue falcon 7');
    await section.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await section.getByRole('button', { name: 'Save code' }).click();
    await section.getByTestId('anti-phishing-code').getByText('Blue falcon 7').waitFor();
    await shoot(page, 'e2e-security-anti-phishing-1280-dark');

    const before = product.mails.length;
    await product.call('security/reset_password/', { type: 'request', email: ALICE_EMAIL });
    const deadline = Date.now() + 15_000;
    while (!product.mails.slice(before).some((mail) => mail.to.includes(ALICE_EMAIL)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const mail = product.mails.slice(before).find((entry) => entry.to.includes(ALICE_EMAIL));
    expect(mail, 'a reset mail to alice').toBeDefined();
    expect(mail!.text).toContain('Blue falcon 7');
    await context.close();
  });

  it('withdrawal allowlist: on at once, a new address waits 24 hours, and a withdrawal elsewhere is refused at the form', async () => {
    const { page, context } = await newPage(browser);
    await product.signIn(page, 'alice');
    await openSecurity(page);
    const section = card(page, 'Withdrawal allowlist');
    const toggle = section.getByRole('checkbox', { name: 'Only allow withdrawals to saved addresses' });
    expect(await toggle.isChecked()).toBe(false);
    await section.getByText('Only allow withdrawals to saved addresses').click();
    await toast(page, 'Withdrawal allowlist on').waitFor();
    expect(await toggle.isChecked()).toBe(true);

    await section.getByRole('button', { name: 'Add address' }).click();
    await choose(page, 'Network', 'Tron');
    await section.getByLabel('Address', { exact: true }).fill(SAVED_ADDRESS);
    await section.getByLabel('Label (optional)').fill('cold wallet');
    await section.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await section.getByRole('button', { name: 'Save address' }).click();
    const row = section.getByRole('list', { name: 'Saved addresses' }).getByRole('listitem').filter({ hasText: SAVED_ADDRESS });
    await row.getByText(/usable from/).waitFor();
    expect(await row.textContent()).toMatch(/Tron · cold wallet/);
    await shoot(page, 'e2e-security-allowlist-1280-light');

    await page.goto(`${product.baseUrl}/wallets/withdraw`);
    await choose(page, 'Coin', /Tether/);
    await choose(page, 'Network', /Tron/);
    await page.getByLabel('Recipient Address').fill(OTHER_ADDRESS);
    await page.locator('input[name="amount"]').fill('25');
    const refusal = toast(page, 'Your withdrawal allowlist is on, and this Tron address is not on it.');
    await refusal.waitFor();
    expect(await page.getByRole('button', { name: 'Confirm Withdrawal' }).count()).toBe(0);
    await shoot(page, 'e2e-withdraw-allowlist-refused-1280-light');
    await context.close();
  });

  it('the security page at 390 px and 1280 px, light and dark', async () => {
    for (const [width, colorScheme] of [
      [390, 'light'],
      [390, 'dark'],
      [1280, 'dark'],
    ] as const) {
      const { page, context } = await newPage(browser, { width, height: 844, colorScheme });
      await product.signIn(page, 'alice');
      await openSecurity(page);
      await card(page, 'Withdrawal allowlist').getByText(SAVED_ADDRESS).waitFor();
      await card(page, 'Anti-phishing code').getByText('Blue falcon 7').waitFor();
      await shoot(page, `e2e-security-${width}-${colorScheme}`);
      // Nothing sticks out sideways on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
      await context.close();
    }
  });
});
