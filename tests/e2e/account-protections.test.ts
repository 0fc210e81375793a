import { setTimeout as delay } from 'node:timers/promises';
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

/** The websockets a page opens: the frames each received, and when it closed. */
function watchSockets(page: Page) {
  const sockets: Array<{ frames: string[]; closed: Promise<void>; isClosed(): boolean }> = [];
  page.on('websocket', (socket) => {
    let isClosed = false;
    const frames: string[] = [];
    socket.on('framereceived', ({ payload }) => void frames.push(String(payload)));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve())).then(() => void (isClosed = true));
    sockets.push({ frames, closed, isClosed: () => isClosed });
  });
  return sockets;
}

/** Whether one of the sockets was told its subscription to `channel` succeeded. */
const subscribedTo = (sockets: ReturnType<typeof watchSockets>, channel: string) =>
  sockets.some((socket) => socket.frames.some((frame) => frame.includes('pusher_internal:subscription_succeeded') && frame.includes(`"${channel}"`)));

async function choose(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option }).first().click();
}

describe('account protections on /settings/security', () => {
  it('sign-in history: two browsers, "This is you" on one; signing out everywhere else signs the other out', async () => {
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

    // The other browser goes to the login page by itself: its socket was closed, so it asked the server at once.
    await other.page.waitForURL((url) => url.pathname === '/login');
    // The laptop is still signed in.
    await laptop.page.reload();
    await card(laptop.page, 'Sign-in history').getByText('This is you').waitFor();
    await Promise.all([laptop.context.close(), other.context.close()]);
  });

  it("signing out everywhere else closes the other browser's live socket within 2 seconds; it opens no other, the laptop's keeps hearing", async () => {
    const laptop = await newPage(browser);
    const other = await newPage(browser);
    const laptopSockets = watchSockets(laptop.page);
    const otherSockets = watchSockets(other.page);
    await product.signIn(other.page, 'alice');
    await product.signIn(laptop.page, 'alice');
    // Each browser holds one socket listening on alice's own channel.
    await expect.poll(() => subscribedTo(otherSockets, 'private-user-alice'), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => subscribedTo(laptopSockets, 'private-user-alice'), { timeout: 15_000 }).toBe(true);
    const [live] = otherSockets;

    await openSecurity(laptop.page);
    const history = card(laptop.page, 'Sign-in history');
    await history.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await laptop.page.getByRole('alertdialog', { name: 'Sign out everywhere else?' }).getByRole('button', { name: 'Sign out everywhere else' }).click();
    await history.getByRole('status').getByText(/Signed out \d+ other sessions?/).waitFor();
    // Waiting no longer than the contract's bound: the server closed the socket (4009) before it answered.
    expect(await Promise.race([live!.closed.then(() => 'closed'), delay(2000).then(() => 'still open')])).toBe('closed');

    // Alice signs in once more (a script): "New sign-in" reaches the laptop's socket, which stayed.
    await product.call('security/login/', { username: 'alice', password: DEMO_PASSWORD, device: 'e2e script' });
    await expect.poll(() => laptopSockets.some((socket) => socket.frames.some((frame) => frame.includes('"notification"') && frame.includes('New sign-in'))), { timeout: 15_000 }).toBe(true);
    // pusher-js does not come back with the ended session, and the app signs out, leaving no socket open.
    await other.page.waitForURL((url) => url.pathname === '/login');
    await other.page.getByRole('button', { name: 'Login' }).waitFor();
    expect(otherSockets).toHaveLength(1);
    // The laptop's socket (opened again with the Security page) is still live.
    expect(laptopSockets.at(-1)?.isClosed()).toBe(false);
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
