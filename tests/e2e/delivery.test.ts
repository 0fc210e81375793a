/**
 * How the built product is delivered (issue 16): compressed as built, and each page preloading exactly the code
 * its route runs, so the route's chunks arrive with the entry instead of after it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, type Product } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

let product: Product;
let browser: Browser;

productAndBrowserPerFile((running) => ({ product, browser } = running));

/**
 * The module scripts a page's HTML names: its entry and its modulepreloads, or, on a prerendered page, what its
 * after-paint loader will start; and the catalog of each language, which the language script in its head
 * (src/boot/locale.js) preloads for the language it picks.
 */
async function scriptsNamedBy(path: string): Promise<{ entry: string; preloads: string[]; catalogs: Record<string, string>; html: string }> {
  const html = await (await fetch(`${product.baseUrl}${path}`)).text();
  const languageScript = /<script src="\/assets\/locale-[^"]+\.js" data-catalogs="([^"]*)"><\/script>/.exec(html);
  expect(languageScript, html).not.toBeNull();
  const catalogs = Object.fromEntries(languageScript![1]!.split(' ').filter(Boolean).map((pair) => pair.split('=') as [string, string]));
  const loader = /<script defer src="\/assets\/after-paint-[^"]+\.js" data-entry="([^"]+)" data-preloads="([^"]*)"><\/script>/.exec(html);
  if (loader) return { entry: loader[1]!, preloads: loader[2]!.split(' ').filter(Boolean), catalogs, html };
  const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
  expect(entry, html).toBeDefined();
  return { entry: entry!, preloads: [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)"/g)].map((match) => match[1]!), catalogs, html };
}

/** The page's own scripts, which start the others: its language script and its after-paint loader. */
const isBootScript = (script: string) => script.startsWith('/assets/locale-') || script.startsWith('/assets/after-paint-');

/** The scripts a browser downloads opening `path`, until the page shows `ready`. */
async function scriptsLoaded(path: string, ready: string, signIn?: string): Promise<string[]> {
  const { context, page } = await newPage(browser);
  if (signIn) await product.signIn(page, signIn);
  const fresh = await context.newPage();
  const scripts = new Set<string>();
  fresh.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
  });
  // The HTTP cache is per context: the page above warmed it, so it is cleared for the visit measured.
  const cdp = await context.newCDPSession(fresh);
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await fresh.goto(`${product.baseUrl}${path}`);
  // The live page: a prerendered one shows its text before any script has run.
  await fresh.getByText(ready).first().waitFor();
  await expect.poll(() => fresh.locator('[inert]').count()).toBe(0);
  await fresh.waitForLoadState('networkidle');
  await context.close();
  return [...scripts];
}

describe('pages', () => {
  it('are sent compressed as the build made them, and revalidated', async () => {
    const response = await fetch(`${product.baseUrl}/login`, { headers: { 'accept-encoding': 'br' } });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
  });

  it('/login starts its route\'s chunks with the entry, every one of which the page loads, and loads none it did not name', async () => {
    const { entry, preloads, catalogs } = await scriptsNamedBy('/login');
    expect(preloads.length).toBeGreaterThan(1);
    for (const file of [...preloads, ...Object.values(catalogs)]) expect(existsSync(join('dist', file)), file).toBe(true);
    // The browser speaks English (newPage's default): the English catalog is the one its language script preloads.
    const named = [...preloads, catalogs.en!];
    const loaded = await scriptsLoaded('/login', 'Welcome back');
    // Nothing fetched late: every script the page ran was named by its HTML...
    expect(loaded.filter((script) => script !== entry && !named.includes(script) && !isBootScript(script))).toEqual([]);
    // ...and nothing named that it did not run, no other language's catalog among what it ran.
    expect(named.filter((file) => !loaded.includes(file))).toEqual([]);
    expect(loaded.filter((script) => Object.entries(catalogs).some(([language, file]) => language !== 'en' && file === script))).toEqual([]);
  });

  it('/login arrives as HTML that shows the page, inert until the live page takes its place', async () => {
    const { html } = await scriptsNamedBy('/login');
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toMatch(/^<div id="root"><div inert data-prerendered="signed-out">/);
    expect(root).toContain('Welcome back');
    // Nothing in it can be typed into or pressed, and it brings no script of its own (the CSP allows none inline).
    expect(root.match(/<(input|button)\b(?! disabled)/g)).toBeNull();
    expect(root).not.toContain('<script');

    const { page } = await newPage(browser);
    await page.goto(`${product.baseUrl}/login`);
    const username = page.getByLabel('Username');
    await username.fill('alice');
    // The live page: one of each, typed into, and nothing inert left.
    await expect.poll(() => page.locator('[inert]').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Welcome back' }).count()).toBe(1);
    expect(await username.inputValue()).toBe('alice');
    await page.context().close();
  });

  it('a signed-in page arrives drawn as the product looks before the trader\'s data, shown only where a session is kept', async () => {
    const { html } = await scriptsNamedBy('/');
    expect(html).toContain('<div id="root"><div inert data-prerendered="signed-in">');
    expect(html).toContain('Here is what is happening with your trading today.');
    // The trader's name is a slot the page's loader fills, not a placeholder's.
    expect(html).toContain('Welcome back, <span data-stored-user="username"></span>');
    // No figure of anybody's: dashes until the trader's own arrive.
    expect(html).not.toContain('$0.00');
    const slowScripts = (page: Page) =>
      page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
    const visibilityOfDrawnPage = (page: Page) => page.locator('[data-prerendered]').evaluate((element) => getComputedStyle(element).visibility);

    // A visitor without a session sees nothing of it while the app sends them to /login.
    const visitor = await newPage(browser);
    await slowScripts(visitor.page);
    await visitor.page.goto(`${product.baseUrl}/`, { waitUntil: 'domcontentloaded' });
    expect(await visibilityOfDrawnPage(visitor.page)).toBe('hidden');
    await visitor.page.waitForURL(/\/login/);
    await visitor.context.close();

    // alice sees it at once, then her own page.
    const { context, page } = await newPage(browser);
    await product.signIn(page, 'alice');
    const fresh = await context.newPage();
    await slowScripts(fresh);
    await fresh.goto(`${product.baseUrl}/`, { waitUntil: 'domcontentloaded' });
    expect(await visibilityOfDrawnPage(fresh)).toBe('visible');
    // Drawn with her name and initial, from the session her browser keeps, before the app has run.
    expect(await fresh.locator('[data-prerendered] h1').textContent()).toBe('Welcome back, alice');
    expect(await fresh.locator('[data-prerendered] [data-stored-user="initial"]').textContent()).toBe('A');
    // Then the live page in its place (the drawn heading already reads the same, so wait for the drawn page to go).
    await expect.poll(() => fresh.locator('[data-prerendered]').count(), { timeout: 15_000 }).toBe(0);
    await fresh.getByRole('heading', { name: 'Welcome back, alice' }).waitFor();
    await context.close();
  });

  it('a page shown to a kept session loads the locale data in a worker (its loader, started again), a visitor\'s does not', async () => {
    const visitor = await newPage(browser);
    const visitorWorkers: string[] = [];
    visitor.page.on('worker', (worker) => visitorWorkers.push(worker.url()));
    await visitor.page.goto(`${product.baseUrl}/login`);
    await expect.poll(() => visitor.page.locator('[inert]').count(), { timeout: 15_000 }).toBe(0);
    await visitor.page.waitForLoadState('networkidle');
    expect(visitorWorkers).toEqual([]);
    await visitor.context.close();

    const { context, page } = await newPage(browser);
    await product.signIn(page, 'alice');
    const fresh = await context.newPage();
    const worker = fresh.waitForEvent('worker');
    await fresh.goto(`${product.baseUrl}/`);
    const { entry } = await scriptsNamedBy('/');
    expect(new URL((await worker).url()).pathname).toMatch(/^\/assets\/after-paint-[^/]+\.js$/);
    expect(new URL((await worker).url()).pathname).not.toBe(entry);
    await fresh.getByRole('heading', { name: 'Welcome back, alice' }).waitFor();
    await context.close();
  });

  it('/offers preloads what Browse Offers needs, different from /login\'s, and a path with a parameter gets its route\'s page', async () => {
    const offers = await scriptsNamedBy('/offers');
    const login = await scriptsNamedBy('/login');
    expect(offers.entry).toBe(login.entry);
    expect(offers.preloads).not.toEqual(login.preloads);
    const loaded = await scriptsLoaded('/offers', 'Browse Offers', 'alice');
    expect(offers.preloads.filter((file) => !loaded.includes(file))).toEqual([]);
    // /offers/create is its own route; /offers/42 is the offer route's page.
    expect((await scriptsNamedBy('/offers/create')).preloads).not.toEqual((await scriptsNamedBy('/offers/42')).preloads);
  });
});
