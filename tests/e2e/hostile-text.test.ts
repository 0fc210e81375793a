import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TRADE_CHANNEL_HEADER } from '../../contracts/index.ts';
import { DEMO_PASSWORD, newPage, screenshot, type Product } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

/**
 * Issue 14, "Hostile input" in the browser: what traders write (chat messages, offer terms, dispute reasons)
 * is shown as the text it is, never run as HTML; a username with markup is refused by the server. Each text
 * below would set `window.__pwned` if the page ever parsed it as HTML, and the `javascript:` one would become
 * a clickable link if the page turned text into links.
 */

const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = '<script>window.__pwned=1</script>';
const SVG = '<svg onload="window.__pwned=1"></svg>';
const LINK = 'javascript:window.__pwned=1';
const ANCHOR = '<a href="javascript:window.__pwned=1">click me</a>';
const HOSTILE = [IMG, SCRIPT, SVG, LINK, ANCHOR];

let product: Product;
let browser: Browser;
let bobToken = '';
let aliceToken = '';
let channel = '';
const within = { timeout: 15_000 };

productAndBrowserPerFile((running) => ({ product, browser } = running));
beforeAll(async () => {
  bobToken = (await product.call<{ token: string }>('security/login/', { username: 'bob', password: DEMO_PASSWORD })).token;
  aliceToken = (await product.call<{ token: string }>('security/login/', { username: 'alice', password: DEMO_PASSWORD })).token;
});

/** A message of the list whose text ends with `text` (the bubble starts with its sender and time). */
const messageEndingWith = (list: Locator, text: string) =>
  list.getByRole('list', { name: 'Messages' }).locator('li', { hasText: new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });

/** Nothing the page parsed ran, and no link leads to script. */
async function expectNothingRan(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.locator('a[href^="javascript:" i], [onerror], [onload], img[src="x"]').count()).toBe(0);
  expect(await page.getByRole('link', { name: 'click me' }).count()).toBe(0);
}

describe('text that traders write renders as text', () => {
  it('the server refuses a username with markup', async () => {
    for (const username of ['<b>bob</b>', IMG, 'a"onmouseover="x']) {
      const answer = await product.post('security/register/', {
        email: 'hostile@peerex.test',
        username,
        password: 'secret-1',
        confirmPassword: 'secret-1',
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ success: false, code: 'request.invalid_field', info: expect.stringMatching(/^Username/) });
    }
  });

  it('chat messages with HTML and script show literally to the partner, and nothing runs', async () => {
    const list = await product.call<{ offers: Array<{ id: number; rate: string; min_amount: string; payment_methods: string[] }> }>(
      'market/offers/',
      { type: 'list', page: 1, filters: { user__username__icontains: 'alice', offer_type: 'sell' } },
      bobToken,
    );
    const offer = list.offers[0]!;
    const opened = await product.post('market/trade/', { type: 'open', offer: offer.id, amount: offer.min_amount, payment_method: offer.payment_methods[0], rate: offer.rate }, bobToken);
    expect(opened.status).toBe(200);
    channel = opened.headers.get(TRADE_CHANNEL_HEADER) ?? '';
    for (const text of HOSTILE) await product.call(`market/chat/${channel}/`, { type: 'send_message', message_type: 'text', text }, bobToken);

    const { page } = await newPage(browser);
    await product.signIn(page, 'alice');
    await page.goto(`${product.baseUrl}/chat?channel=${channel}`);
    const pane = page.locator(`article[data-channel="${channel}"]`);
    for (const text of HOSTILE) await expect.poll(() => messageEndingWith(pane, text).count(), within).toBe(1);
    await expectNothingRan(page);
    await screenshot(page, 'hostile-text-chat');
    await page.context().close();
  });

  it('offer terms with HTML show literally in the offer form', async () => {
    const terms = HOSTILE.join(' ');
    await product.call('market/offers/', {
      type: 'create',
      offer_type: 'sell',
      coin: '1',
      currency: 'EUR',
      rate: '1',
      min_amount: '10',
      max_amount: '20',
      payment_methods: ['SEPA'],
      terms,
    }, aliceToken);
    const mine = await product.call<{ offers: Array<{ id: number }> }>('market/offers/', { type: 'list', page: 1, filters: { user__username__icontains: 'alice' } }, aliceToken);
    const newest = Math.max(...mine.offers.map((item) => item.id));

    const { page } = await newPage(browser);
    await product.signIn(page, 'alice');
    await page.goto(`${product.baseUrl}/offers/${newest}`);
    await expect.poll(() => page.locator('textarea[name="terms"]').inputValue(), within).toBe(terms);
    await expect.poll(() => page.getByText(terms, { exact: true }).count(), within).toBeGreaterThanOrEqual(1);
    await expectNothingRan(page);
    await page.context().close();
  });

  it('a dispute reason with HTML shows literally at the dispute desk', async () => {
    const reason = `${IMG} ${SCRIPT} paid, not released`;
    await product.call('market/trade/', { type: 'mark_paid', channel }, bobToken);
    await product.call('market/trade/', { type: 'raise_dispute', channel, reason }, bobToken);

    const { page } = await newPage(browser);
    await product.signIn(page, 'mod');
    await page.goto(`${product.baseUrl}/moderation`);
    const row = page.getByRole('list', { name: 'Disputes' }).locator(`li[data-channel="${channel}"]`);
    await expect.poll(() => row.count(), within).toBe(1);
    await row.getByRole('button').first().click();
    const dispute = page.getByRole('article', { name: 'Dispute between bob and alice' });
    await expect.poll(() => dispute.getByText(reason).count(), within).toBeGreaterThanOrEqual(1);
    // The chat the moderator reads holds bob's messages too.
    for (const text of HOSTILE) await expect.poll(() => messageEndingWith(dispute, text).count(), within).toBe(1);
    await expectNothingRan(page);
    await page.context().close();
  });
});
