import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buyFromSeller, DEMO_PASSWORD, newPage, screenshot, type Product } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

/**
 * Issue 31, in the browser: "New sign-in" once per browser and address (the device id the web app keeps), the push
 * message of /settings in a trader's words, a trader profile's offer opening its own Trade Preview, and the dispute
 * desk naming the buyer and the seller.
 */

let product: Product;
let browser: Browser;
productAndBrowserPerFile((running) => ({ product, browser } = running));

const within = { timeout: 15_000 };
const NEW_SIGN_IN_MAIL = 'New sign-in to your Peerex account';

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const panel = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });

/** The "New sign-in" notices the bell lists, after opening it (and closing it again). */
async function signInNotices(page: Page): Promise<number> {
  await bell(page).click();
  const items = panel(page).getByRole('listitem');
  await expect.poll(() => items.count(), within).toBeGreaterThan(0);
  const count = await items.filter({ hasText: 'New sign-in' }).count();
  await page.keyboard.press('Escape');
  return count;
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
}

describe('"New sign-in" only from a new browser or address', () => {
  it('signing in twice from the same browser leaves one notice and one mail; another browser is told', async () => {
    const laptop = await newPage(browser);
    await product.signIn(laptop.page, 'carol');
    const deviceId = await laptop.page.evaluate(() => localStorage.getItem('deviceId'));
    expect(deviceId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    await logOut(laptop.page);
    await product.signIn(laptop.page, 'carol');
    expect(await laptop.page.evaluate(() => localStorage.getItem('deviceId')), 'kept across the sign-out').toBe(deviceId);
    expect(await signInNotices(laptop.page)).toBe(1);
    // The sign-in history keeps both sign-ins.
    await laptop.page.goto(`${product.baseUrl}/settings/security`);
    const history = laptop.page.getByRole('list', { name: 'Sign-ins' }).getByRole('listitem');
    await expect.poll(() => history.count(), within).toBe(2);
    const mails = () => product.mails.filter((mail) => mail.to.includes('carol') && mail.subject === NEW_SIGN_IN_MAIL);
    await expect.poll(() => mails().length, within).toBe(1);

    // Another browser (a device id of its own), from the same address: told, and mailed.
    const phone = await newPage(browser, { width: 390, height: 844 });
    await product.signIn(phone.page, 'carol');
    expect(await signInNotices(phone.page)).toBe(2);
    await expect.poll(() => mails().length, within).toBe(2);
    // A notice of a moment ago says so in words, not "0 seconds ago".
    await bell(phone.page).click();
    const newest = panel(phone.page).getByRole('listitem').filter({ hasText: 'New sign-in' }).first();
    await expect.poll(() => newest.textContent(), within).toContain('just now');
    expect(await panel(phone.page).textContent()).not.toMatch(/\bseconds? ago\b/);
    await phone.page.keyboard.press('Escape');
    await Promise.all([laptop.context.close(), phone.context.close()]);
  });
});

describe('/settings push message', () => {
  it('a browser that cannot subscribe (headless Chromium) is told so in words, not "permission denied"', async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(['notifications'], { origin: product.baseUrl });
    await product.signIn(page, 'bob');
    await page.goto(`${product.baseUrl}/settings`);
    const section = page.getByRole('region', { name: 'Notifications' }).filter({ hasText: 'Web push on this device' });
    await section.getByText('Granted but not registered', { exact: true }).waitFor(within);
    await section.getByText("This browser can't receive push notifications here.").waitFor(within);
    expect(await section.textContent()).not.toMatch(/permission denied|Registration failed/i);
    await screenshot(page, 'e2e-settings-push-unavailable-light');
    await context.close();
  });
});

describe("a trader profile's offers", () => {
  it("Buy from this seller opens that offer's own Trade Preview on the profile", async () => {
    const { context, page } = await newPage(browser);
    await product.signIn(page, 'bob');
    await page.goto(`${product.baseUrl}/traders/alice`);
    const cards = page.getByRole('region', { name: 'Active offers' }).getByRole('article', { name: 'sell offer by alice' });
    await expect.poll(() => cards.count(), within).toBeGreaterThan(1);
    // The profile's second sell offer, as the server lists it (the cards are in its order).
    const token = await page.evaluate(() => localStorage.getItem('authToken'));
    const profile = await product.call<{ offers: Array<{ id: number; offer_type: string; currency__code: string; min_amount: string }> }>(
      'market/traders/',
      { type: 'profile', username: 'alice' },
      token ?? '',
    );
    const offer = profile.offers.filter((item) => item.offer_type === 'sell')[1]!;

    await cards.nth(1).getByRole('button', { name: 'Buy from this seller' }).click();
    const dialog = page.getByRole('dialog', { name: 'Trade Preview' });
    await dialog.getByText('Review the trade details before confirming your order').waitFor(within);
    expect(new URL(page.url()).pathname, 'no detour through Browse Offers').toBe('/traders/alice');
    await dialog.getByLabel(`Amount (${offer.currency__code})`).fill(offer.min_amount);
    await dialog.getByRole('combobox', { name: 'Payment method' }).click();
    const previewed = page.waitForRequest((request) => request.url().endsWith('/api/market/trade/') && request.postDataJSON()?.type === 'preview');
    await page.getByRole('option').first().click();
    expect((await previewed).postDataJSON()).toMatchObject({ type: 'preview', offer: offer.id });
    await dialog.getByRole('term').filter({ hasText: 'Fee' }).waitFor(within);
    await screenshot(page, 'e2e-trader-profile-trade-preview-light');
    await context.close();
  });
});

describe('the dispute desk', () => {
  it('names the buyer and the seller, and reads the rate as the offer card does', async () => {
    // bob buys from alice, pays and disputes, through the API as his browser would.
    const bobToken = (await product.call<{ token: string }>('security/login/', { username: 'bob', password: DEMO_PASSWORD })).token;
    const { channel, offer } = await buyFromSeller(product, bobToken, 'alice');
    await product.call('market/trade/', { type: 'mark_paid', channel }, bobToken);
    await product.call('market/trade/', { type: 'raise_dispute', channel, reason: 'Paid, nothing released.' }, bobToken);
    const rate = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 8 }).format(offer.rate as `${number}`);

    for (const [scheme, width] of [
      ['light', 1280],
      ['dark', 1280],
      ['light', 390],
      ['dark', 390],
    ] as const) {
      const { context, page } = await newPage(browser, { colorScheme: scheme, width, height: width === 390 ? 844 : 800 });
      await product.signIn(page, 'mod');
      await page.goto(`${product.baseUrl}/moderation`);
      const row = page.getByRole('list', { name: 'Disputes' }).locator(`li[data-channel="${channel}"]`);
      await expect.poll(() => row.count(), within).toBe(1);
      expect(await row.textContent()).toContain('Buyer bob · Seller alice');
      if (width === 1280) await screenshot(page, `e2e-dispute-desk-list-${width}-${scheme}`);
      await row.getByRole('button').first().click();
      const facts = page.getByRole('region', { name: 'Trade facts' });
      await expect.poll(() => facts.getByRole('heading', { level: 2 }).textContent(), within).toBe('Buyer bob · Seller alice');
      expect(await facts.textContent()).toContain(`1.00 USD = ${rate} ${offer.currency__code}`);
      await screenshot(page, `e2e-dispute-desk-${width}-${scheme}`);
      await context.close();
    }
  });
});
