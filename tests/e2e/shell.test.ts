import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, DEMO_PASSWORD, cleanupDir, newPage, screenshot, takeCspViolations, type Product } from './support.ts';
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

describe('the installed app', () => {
  /** A PNG's width and height, from its IHDR chunk. */
  const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

  it('links a manifest Chromium finds installable: name, start URL, standalone, 192 and 512 px icons', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await page.goto(`${product.baseUrl}/login`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const answer = await page.request.get(`${product.baseUrl}${href}`);
    expect(answer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ short_name: 'Peerex', start_url: '/', display: 'standalone' });
    expect(manifest.name).toMatch(/^Peerex/);
    for (const size of [192, 512]) {
      const icon = manifest.icons.find((candidate) => candidate.sizes === `${size}x${size}` && candidate.purpose === 'any');
      expect(icon?.type).toBe('image/png');
      const png = await page.request.get(`${product.baseUrl}${icon!.src}`);
      expect(png.headers()['content-type']).toBe('image/png');
      expect(pngSize(await png.body())).toEqual({ width: size, height: size });
    }
    await context.close();
    // Chromium offers no install in an incognito profile, which every test context is: a profile of its own.
    const profile = mkdtempSync(join(tmpdir(), 'peerex-install-'));
    const installing = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
    try {
      const phone = installing.pages()[0] ?? (await installing.newPage());
      await phone.goto(`${product.baseUrl}/login`);
      const cdp = await installing.newCDPSession(phone);
      const parsed = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; url: string };
      expect(parsed.url).toBe(`${product.baseUrl}/manifest.webmanifest`);
      expect(parsed.errors).toEqual([]);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
      expect(installabilityErrors).toEqual([]);
    } finally {
      await installing.close();
      cleanupDir(profile);
    }
  });

  /** A phone whose browser speaks `locale`, on /login with the service worker installed and in control. */
  async function phoneWithWorker(locale: string, colorScheme: 'light' | 'dark') {
    const context = await browser.newContext({ locale, colorScheme, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${product.baseUrl}/login`);
    // Registered a second after the page's load (src/boot/after-paint.js); in control once activated (clients.claim).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await page.waitForFunction(async () => (await caches.keys()).some((name) => name.startsWith('peerex-offline-')));
    return { context, page };
  }

  it('shows its offline page, not the browser\'s error, when the network is gone, and comes back with it', async () => {
    const { context, page } = await phoneWithWorker('en-GB', 'light');
    await context.setOffline(true);
    await page.goto(`${product.baseUrl}/offers`);
    await page.getByRole('heading', { name: "You're offline" }).waitFor();
    await page.getByText("a trade's payment window keeps running").waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['en', 'ltr']);
    expect(page.url()).toBe(`${product.baseUrl}/offers`);
    await screenshot(page, 'offline-phone-light');
    // The network back: the page reloads itself (its `online` listener) into the page the trader asked for.
    await context.setOffline(false);
    await page.getByRole('heading', { name: "You're offline" }).waitFor({ state: 'detached' });
    await page.waitForURL(/\/login\?redirect=%2Foffers$/);
    await context.close();
  });

  it('speaks the browser\'s language when offline: Arabic right to left', async () => {
    const { context, page } = await phoneWithWorker('ar-EG', 'dark');
    await context.setOffline(true);
    await page.goto(`${product.baseUrl}/trades`);
    await page.getByRole('heading', { name: 'أنت غير متصل بالإنترنت' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    await page.getByRole('button', { name: 'إعادة المحاولة' }).waitFor();
    await screenshot(page, 'offline-phone-dark-ar');
    await context.close();
  });
});

describe('languages (docs/i18n.md)', () => {
  /** /login's words in each language: the heading, the fields, the button, and the English they replace. */
  const LOGIN = {
    es: { heading: 'Bienvenido de nuevo', username: 'Nombre de usuario', button: 'Iniciar sesión', dir: 'ltr' },
    'pt-BR': { heading: 'Bem-vindo de volta', username: 'Nome de usuário', button: 'Entrar', dir: 'ltr' },
    fr: { heading: 'Bon retour parmi nous', username: 'Nom d’utilisateur', button: 'Se connecter', dir: 'ltr' },
    ar: { heading: 'مرحبًا بعودتك', username: 'اسم المستخدم', button: 'تسجيل الدخول', dir: 'rtl' },
  } as const;
  const ENGLISH = ['Welcome back', 'Sign in to trade', 'Username', 'Password', 'Forgot password?', 'Login', 'Sign Up', "Don't have an account?"];

  /** The page's words a visitor reads (the language picker, which lists every language in its own, aside). */
  const visibleText = (page: Page) =>
    page.evaluate(() => {
      const copy = document.body.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('select').forEach((select) => select.remove());
      return [copy.innerText, ...[...document.querySelectorAll('[aria-label]')].map((element) => element.getAttribute('aria-label'))].join('\n');
    });

  it.each(Object.entries(LOGIN))('a first visit from a browser in %s shows /login in it, lang and dir set, no English left', async (locale, words) => {
    const { page, context } = await newPage(browser, { locale });
    await page.goto(`${product.baseUrl}/login`, { waitUntil: 'domcontentloaded' });
    // The page drawn at build time is English: for this visitor it is hidden from the first paint (no flash of English).
    const prerendered = await page.evaluate(() => {
      const element = document.querySelector('[data-prerendered]');
      return element ? getComputedStyle(element).visibility : 'replaced';
    });
    expect(['hidden', 'replaced']).toContain(prerendered);
    await page.getByRole('heading', { name: words.heading }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([locale, words.dir]);
    await page.getByLabel(words.username).waitFor();
    await page.getByRole('button', { name: words.button, exact: true }).waitFor();
    const text = await visibleText(page);
    for (const english of ENGLISH) expect(text, `"${english}" left in English`).not.toContain(english);
    // A submit with empty fields: the field rules' messages too.
    await page.getByRole('button', { name: words.button, exact: true }).click();
    expect(await visibleText(page)).not.toContain('Username is required');
    await context.close();
  });

  it('English stays the spec’s words, and the picker switches language without a reload and remembers it', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${product.baseUrl}/login`);
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['en', 'ltr']);
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
    await page.getByRole('heading', { name: 'مرحبًا بعودتك' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // Remembered on this device: the next visit opens in Arabic although the browser's language is English.
    await page.reload();
    await page.getByRole('heading', { name: 'مرحبًا بعودتك' }).waitFor();
    await page.getByRole('combobox', { name: 'اللغة' }).selectOption('en');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
    await context.close();
  });

  it.each(['ar', 'pt-BR'])('draws /login in %s on a phone, light and dark (screenshots)', async (locale) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, context } = await newPage(browser, { locale, colorScheme, width: 390, height: 844 });
      await page.goto(`${product.baseUrl}/login`);
      await page.getByRole('heading', { name: LOGIN[locale as keyof typeof LOGIN].heading }).waitFor();
      await page.getByRole('button', { name: LOGIN[locale as keyof typeof LOGIN].button, exact: true }).click();
      await screenshot(page, `login-${locale}-phone-${colorScheme}`);
      await context.close();
    }
  });
});
