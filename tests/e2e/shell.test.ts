import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, newPage, screenshot, takeCspViolations, type Product } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

let product: Product;
let browser: Browser;

productAndBrowserPerFile((running) => ({ product, browser } = running));

const signIn = (page: Page, username = 'alice') => product.signIn(page, username);

const backgroundOf = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('Content-Security-Policy', () => {
  it('is enforced by the browser: an injected inline script does not run and is reported', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page);
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      return (window as { injected?: boolean }).injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => takeCspViolations().join('\n')).toMatch(/script-src/);
    await context.close();
  });
});

describe('guard and bounce', () => {
  it('sends a signed-out visitor of a product route to /login, replacing the history entry', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${product.baseUrl}/login`);
    await page.goto(`${product.baseUrl}/trades`);
    await page.waitForURL(`${product.baseUrl}/login?redirect=%2Ftrades`);
    const length = await page.evaluate(() => history.length);
    await page.goto(`${product.baseUrl}/wallets/deposit`);
    await page.waitForURL(`${product.baseUrl}/login?redirect=%2Fwallets%2Fdeposit`);
    // A redirect that pushed would have grown the history by two entries, not one.
    expect(await page.evaluate(() => history.length)).toBe(length + 1);
    await page.getByRole('link', { name: 'Sign Up' }).first().waitFor();
    await screenshot(page, 'login-light');
    await context.close();
  });

  it('returns a trader who was sent to /login to the page they asked for, once signed in', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${product.baseUrl}/trades?page=1`);
    await page.waitForURL(/\/login\?redirect=/);
    await page.getByLabel('Username').fill('alice');
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${product.baseUrl}/trades?page=1`);
    await page.getByRole('heading', { name: 'Recent Trades' }).waitFor();
    await context.close();
  });

  it('ignores a redirect to another site: login then goes to the dashboard', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${product.baseUrl}/login?redirect=${encodeURIComponent('//evil.example/')}`);
    await page.getByLabel('Username').fill('alice');
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${product.baseUrl}/`);
    await context.close();
  });

  it('bounces a signed-in trader from /login, /signup and /forgot-password to /', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page);
    for (const path of ['/login', '/signup', '/forgot-password']) {
      await page.goto(`${product.baseUrl}${path}`);
      await page.waitForURL(`${product.baseUrl}/`);
      await page.getByRole('heading', { name: 'Welcome back, alice' }).waitFor();
    }
    await context.close();
  });

  it('signs out on a revoked session: the next product call answers 401 and the app goes to /login', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page);
    await page.evaluate(() => localStorage.setItem('authToken', 'revoked-or-forged-token'));
    await page.reload();
    await page.waitForURL(`${product.baseUrl}/login`);
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    await context.close();
  });
});

describe('the shell', () => {
  it('highlights the active link by exact path and shows the profile initial', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Offers', exact: true }).click();
    await page.waitForURL(`${product.baseUrl}/offers`);
    await page.getByRole('heading', { name: 'Browse Offers' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Offers', exact: true }).getAttribute('data-status')).toBe('active');
    expect(await nav.getByRole('link', { name: 'Dashboard', exact: true }).getAttribute('data-status')).toBeNull();
    expect(await page.getByRole('button', { name: 'Profile menu' }).textContent()).toBe('A');
    await screenshot(page, 'offers-placeholder-light');
    await context.close();
  });

  it('collapses the links into a menu toggle at 360 px', async () => {
    const { page, context } = await newPage(browser, { width: 360, height: 740 });
    await signIn(page);
    await screenshot(page, 'dashboard-mobile-light');
    expect(await page.getByRole('link', { name: 'Wallets', exact: true }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Toggle navigation menu' }).click();
    await screenshot(page, 'mobile-menu-light');
    await page.getByRole('link', { name: 'Wallets', exact: true }).click();
    await page.waitForURL(`${product.baseUrl}/wallets`);
    await page.getByRole('heading', { name: 'My Wallets' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await context.close();
  });

  it('shows the 404 page for an unknown route, with a link home', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${product.baseUrl}/no/such/page`);
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    await screenshot(page, 'not-found-light');
    await page.getByRole('link', { name: 'Go back home' }).click();
    await page.waitForURL(`${product.baseUrl}/login`);
    await context.close();
  });

  it('follows the system colour scheme and changes live when it changes', async () => {
    const { page, context } = await newPage(browser, { colorScheme: 'light' });
    await page.goto(`${product.baseUrl}/login`);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    const light = await backgroundOf(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => backgroundOf(page)).not.toBe(light);
    await screenshot(page, 'login-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => backgroundOf(page)).toBe(light);
    await context.close();
  });
});
