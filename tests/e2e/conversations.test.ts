import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { newPage, screenshot, type Product } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

/**
 * Issue 31, "Conversations tell themselves apart": alice opens three trades on one of bob's offers; bob's /chat
 * list tells them apart (coin, amounts, stage), counts alice's message live, clears it when he opens the trade, and
 * hides the finished one under "Open trades". Two traders in their own browser contexts; the steps share their
 * pages and run in order.
 */

let product: Product;
let browser: Browser;

type Trader = { name: string; page: Page; context: BrowserContext; token: string };
const contexts: BrowserContext[] = [];
let alice: Trader;
let bob: Trader;
/** The three trades, in the order alice opened them, with the fiat amounts she asked for. */
const trades: Array<{ channel: string; amount: string }> = [];

const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** Live updates arrive within this, on a loaded 2-core machine too. */
const within = { timeout: 10_000 };

productAndBrowserPerFile((running) => ({ product, browser } = running));
afterAll(async () => {
  for (const context of contexts) await context.close();
});

async function trader(name: string, scheme: 'light' | 'dark'): Promise<Trader> {
  const { page, context } = await newPage(browser, { colorScheme: scheme, ...DESKTOP });
  contexts.push(context);
  await product.signIn(page, name);
  // The session the page signed in with, for what this test does as a script would (the trades alice opens).
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(token).toBeTruthy();
  return { name, page, context, token: token! };
}

/** Marks the page's document: while the mark is there, the page has not been reloaded since. */
const markDocument = (page: Page) => page.evaluate(() => void ((window as Window & { listMark?: boolean }).listMark = true));
const notReloaded = (page: Page) => page.evaluate(() => (window as Window & { listMark?: boolean }).listMark === true);

const list = (page: Page) => page.getByRole('list', { name: 'Conversations' });
const row = (page: Page, channel: string) => list(page).locator(`li[data-channel="${channel}"]`);
const filter = (page: Page, name: string) => page.getByRole('group', { name: 'Show conversations' }).getByRole('button', { name, exact: true });
const listed = (page: Page) => list(page).locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-channel')));

/** Colours ease in over a short transition: the ones a change of scheme started have ended, so a screenshot shows where they land. */
const transitionsDone = (page: Page) =>
  page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const transitions = document.getAnimations().filter((animation) => animation instanceof CSSTransition);
    await Promise.all(transitions.map((transition) => transition.finished.catch(() => undefined)));
  });

/** The page as `conversations-<name>-<look>.png` in each look (1280 px and 390 px wide, light and dark); the page's own look after. */
async function shoot(page: Page, name: string, scheme: 'light' | 'dark') {
  for (const look of ['light', 'dark', 'mobile-light', 'mobile-dark'] as const) {
    await page.emulateMedia({ colorScheme: look.endsWith('dark') ? 'dark' : 'light' });
    await page.setViewportSize(look.startsWith('mobile') ? MOBILE : DESKTOP);
    await transitionsDone(page);
    await screenshot(page, `conversations-${name}-${look}`);
  }
  await page.emulateMedia({ colorScheme: scheme });
  await page.setViewportSize(DESKTOP);
}

/** axe-core's findings on the part of the page `selector` names (the list column), as `rule: target` lines. */
async function accessibilityProblems(page: Page, selector: string): Promise<string[]> {
  // Evaluated through the browser's devtools protocol: the page's Content-Security-Policy rightly refuses an inline script tag.
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async (include) => {
    const axe = (window as unknown as { axe: { run: (context: unknown) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const { violations } = await axe.run({ include: [include] });
    return violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
  }, selector);
}

const call = <T>(who: Trader, path: string, body: unknown) => product.call<T>(path, body, who.token);

describe('conversations tell themselves apart', () => {
  it('alice opens three trades on bob’s offer; bob’s open /chat lists three rows, each with its coin, amounts and stage', async () => {
    [alice, bob] = await Promise.all([trader('alice', 'light'), trader('bob', 'dark')]);
    await bob.page.goto(`${product.baseUrl}/chat`);
    await bob.page.getByText('Select a conversation').waitFor();
    await expect.poll(() => list(bob.page).getAttribute('aria-busy'), within).toBe('false');
    expect(await list(bob.page).locator('li[data-partner="alice"]').count()).toBe(0);
    await markDocument(bob.page);

    // Bob's LTC sell offer (the demo data's), at its rate as alice sees it.
    const { offers } = await call<{ offers: Array<{ id: number; rate: string; coin__ticker: string; currency__code: string; user__username: string }> }>(
      alice,
      'market/offers/',
      { type: 'list', page: 1, filters: { user__username__icontains: 'bob', offer_type: 'sell' } },
    );
    const offer = offers.find((entry) => entry.user__username === 'bob' && entry.coin__ticker === 'LTC');
    expect(offer?.currency__code).toBe('USD');
    for (const amount of ['25', '40', '60']) {
      const opened = await product.post('market/trade/', { type: 'open', offer: offer!.id, amount, payment_method: 'PayPal', rate: offer!.rate }, alice.token);
      expect(opened.status).toBe(200);
      trades.push({ channel: opened.headers.get('x-trade-channel') ?? '', amount });
    }

    for (const { channel, amount } of trades) {
      const entry = row(bob.page, channel);
      await entry.waitFor(within);
      expect(await entry.getAttribute('data-partner')).toBe('alice');
      expect(await entry.getByText('Awaiting payment', { exact: true }).count()).toBe(1);
      // The coin with its 8 places and the fiat amount alice asked for: what tells the three apart.
      expect(await entry.locator('[data-amount]').textContent()).toMatch(new RegExp(`^\\d+\\.\\d{8} LTC · ${amount}\\.00 USD$`));
      expect(await entry.getAttribute('data-unread')).toBe('0');
    }
    const names = await Promise.all(trades.map(({ channel }) => row(bob.page, channel).getByRole('button').textContent()));
    expect(new Set(names).size).toBe(3);
    // Newest first.
    expect((await listed(bob.page)).slice(0, 3)).toEqual(trades.map(({ channel }) => channel).reverse());
    expect(await notReloaded(bob.page)).toBe(true);
  });

  it('alice cancels one: its row says so at once', async () => {
    await call(alice, 'market/trade/', { type: 'cancel', channel: trades[2]!.channel });
    const entry = row(bob.page, trades[2]!.channel);
    await entry.getByText('Cancelled', { exact: true }).waitFor(within);
    expect(await entry.getAttribute('data-status')).toBe('cancelled');
    expect(await notReloaded(bob.page)).toBe(true);
  });

  it('alice writes in the first trade; bob’s row for it shows 1 unread message live, the others none', async () => {
    await alice.page.goto(`${product.baseUrl}/chat?channel=${trades[0]!.channel}`);
    const conversation = alice.page.locator(`article[data-channel="${trades[0]!.channel}"]`);
    await conversation.waitFor();
    const input = conversation.locator('textarea[name="text"]');
    await input.fill('Paying by PayPal in a minute');
    await input.press('Enter');
    await conversation.locator('li[data-own="true"]', { hasText: 'Paying by PayPal in a minute' }).waitFor(within);

    const entry = row(bob.page, trades[0]!.channel);
    await entry.getByText('1 unread message', { exact: true }).waitFor(within);
    expect(await entry.getAttribute('data-unread')).toBe('1');
    expect(await entry.getByRole('button').getAttribute('aria-current')).toBe('false');
    expect(await entry.locator('[data-preview]').textContent()).toBe('Paying by PayPal in a minute');
    for (const { channel } of trades.slice(1)) expect(await row(bob.page, channel).getAttribute('data-unread')).toBe('0');
    // Latest activity first: the trade with the message moved to the top.
    expect((await listed(bob.page))[0]).toBe(trades[0]!.channel);
    expect(await notReloaded(bob.page)).toBe(true);

    // The list column in both colour schemes: the rows' badges (a cancelled trade's too), the counts, the filter.
    for (const scheme of ['light', 'dark'] as const) {
      await bob.page.emulateMedia({ colorScheme: scheme });
      await transitionsDone(bob.page);
      expect(await accessibilityProblems(bob.page, '[role="search"], ul[aria-label="Conversations"]'), scheme).toEqual([]);
    }
    await shoot(bob.page, 'list', 'dark');
  });

  it('bob opens it: the count goes to 0, and stays 0 for the server', async () => {
    const entry = row(bob.page, trades[0]!.channel);
    await entry.getByRole('button').click();
    await bob.page.locator(`article[data-channel="${trades[0]!.channel}"]`).waitFor();
    await expect.poll(() => entry.getAttribute('data-unread'), within).toBe('0');
    expect(await entry.getByText(/unread message/).count()).toBe(0);
    // Read as far as the server is concerned too: the next load says 0.
    await expect
      .poll(async () => (await call<Array<{ channel: string; unread: number }>>(bob, 'market/chat/', { type: 'conversations' })).find((c) => c.channel === trades[0]!.channel)?.unread, within)
      .toBe(0);
    // Alice has nothing unread in any of the three: the trades' system messages (opened, cancelled) are nobody's to read.
    const aliceList = await call<Array<{ channel: string; unread: number }>>(alice, 'market/chat/', { type: 'conversations' });
    expect(aliceList.filter((c) => trades.some((trade) => trade.channel === c.channel)).map((c) => c.unread)).toEqual([0, 0, 0]);
    expect(await notReloaded(bob.page)).toBe(true);
  });

  it('bob’s /chat in a background tab marks nothing read: alice’s message keeps its count until the tab is in view again', async () => {
    const { channel } = trades[0]!;
    const entry = row(bob.page, channel);
    const serverUnread = async () => (await call<Array<{ channel: string; unread: number }>>(bob, 'market/chat/', { type: 'conversations' })).find((c) => c.channel === channel)?.unread;
    // The browser says the tab went to the background (as it does when another tab is brought to the front).
    const setVisibility = (state: 'hidden' | 'visible') =>
      bob.page.evaluate((value) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    await setVisibility('hidden');
    await call(alice, `market/chat/${channel}/`, { type: 'send_message', message_type: 'text', text: 'Sent, please check' });
    const conversation = bob.page.locator(`article[data-channel="${channel}"]`);
    await conversation.getByText('Sent, please check').waitFor(within);
    await entry.getByText('1 unread message', { exact: true }).waitFor(within);
    // It stays unread, on the page and for the server, however long the tab waits.
    await bob.page.waitForTimeout(1500);
    expect(await entry.getAttribute('data-unread')).toBe('1');
    expect(await serverUnread()).toBe(1);

    await setVisibility('visible');
    await expect.poll(() => entry.getAttribute('data-unread'), within).toBe('0');
    await expect.poll(serverUnread, within).toBe(0);
    expect(await notReloaded(bob.page)).toBe(true);
  });

  it('"Open trades" hides the cancelled one without a reload; "All" brings it back', async () => {
    expect(await filter(bob.page, 'All').getAttribute('aria-pressed')).toBe('true');
    await filter(bob.page, 'Open trades').click();
    expect(await filter(bob.page, 'Open trades').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => row(bob.page, trades[2]!.channel).count(), within).toBe(0);
    for (const { channel } of trades.slice(0, 2)) expect(await row(bob.page, channel).count()).toBe(1);
    await screenshot(bob.page, 'conversations-open-filter-dark');
    await filter(bob.page, 'All').click();
    await row(bob.page, trades[2]!.channel).waitFor(within);
    expect(await notReloaded(bob.page)).toBe(true);
  });
});
