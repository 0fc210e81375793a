import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TRADE_CHANNEL_HEADER } from '../../contracts/index.ts';
import { Money } from '../../server/src/ledger/money.ts';
import { DEMO_PASSWORD, newPage, screenshot, toast, type Product } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

/**
 * Issue 13, "Disputes that end, and reputation": bob pays alice and disputes the trade in his browser, the demo
 * moderator settles it at the dispute desk, both traders watch it settle live, and bob's rating of alice then
 * shows on her offer card and her profile. The steps share the pages, so they run in order.
 */

let product: Product;
let browser: Browser;
let alice: Page;
let bob: Page;
let mod: Page;
let channel = '';
/** What bob receives when the coins are released to him (the trade's preview, frozen at open). */
let bobReceives = '';
let bobBefore = '';
let bobToken = '';

const within = { timeout: 15_000 };
const PAYER_ACCOUNT = 'Bob Builder, Revolut';
const REASON = 'I paid two hours ago and alice has not released.';
const MODERATOR_ASK = 'Please both send a screenshot of the bank transfer.';
const RESOLUTION = 'The bank statement shows the transfer arrived in full. Released to the buyer.';
const COMMENT = 'Paid promptly; the moderator sorted it out.';

productAndBrowserPerFile((running) => ({ product, browser } = running));

type Wallet = { coin: { ticker: string }; balance: string };
const btcBalance = async (token: string) =>
  (await product.call<Wallet[]>('user/wallet/', { type: 'addresses' }, token)).find((wallet) => wallet.coin.ticker.toLowerCase() === 'btc')!.balance;

/** The open conversation of the trade, as ConversationPane shows it. */
const pane = (page: Page) => page.locator(`article[data-channel="${channel}"]`);
const actions = (conversation: Locator) => conversation.getByRole('group', { name: 'Trade actions' });

async function openChat(page: Page) {
  await page.goto(`${product.baseUrl}/chat?channel=${channel}`);
  await expect.poll(() => pane(page).count(), within).toBe(1);
}

describe('a dispute, settled at the dispute desk', () => {
  it('bob opens a trade on alice’s BTC offer and both open its chat', async () => {
    bobToken = (await product.call<{ token: string }>('security/login/', { username: 'bob', password: DEMO_PASSWORD })).token;
    const list = await product.call<{ offers: Array<{ id: number; rate: string; min_amount: string; payment_methods: string[]; coin__ticker: string }> }>(
      'market/offers/',
      { type: 'list', page: 1, filters: { user__username__icontains: 'alice', offer_type: 'sell' } },
      bobToken,
    );
    const offer = list.offers.find((item) => item.coin__ticker.toLowerCase() === 'btc') ?? list.offers[0]!;
    const ask = { offer: offer.id, amount: offer.min_amount, payment_method: offer.payment_methods[0] };
    bobReceives = (await product.call<{ amount_crypto: string }>('market/trade/', { type: 'preview', ...ask }, bobToken)).amount_crypto;
    bobBefore = await btcBalance(bobToken);
    const response = await product.post('market/trade/', { type: 'open', ...ask, rate: offer.rate }, bobToken);
    expect(response.status).toBe(200);
    channel = response.headers.get(TRADE_CHANNEL_HEADER) ?? '';
    expect(channel).not.toBe('');

    ({ page: alice } = await newPage(browser));
    ({ page: bob } = await newPage(browser, { colorScheme: 'dark' }));
    await Promise.all([product.signIn(alice, 'alice'), product.signIn(bob, 'bob')]);
    await Promise.all([openChat(alice), openChat(bob)]);
  });

  it('bob marks paid stating his account, and alice sees it beside Release Crypto', async () => {
    await pane(bob).getByLabel('Paid from (optional)').fill(PAYER_ACCOUNT);
    await actions(pane(bob)).getByRole('button', { name: 'Mark Paid' }).click();
    await expect.poll(() => toast(bob, 'Action Performed!').count(), within).toBe(1);

    const payer = pane(alice).getByRole('region', { name: 'Paying account' });
    await expect.poll(() => payer.textContent(), within).toContain(PAYER_ACCOUNT);
    await expect.poll(() => actions(pane(alice)).getByRole('button', { name: 'Release Crypto' }).count(), within).toBe(1);
    await screenshot(alice, 'e2e-disputes-seller-payer-account');
  });

  it('bob raises a dispute and both see it under review', async () => {
    await actions(pane(bob)).getByRole('button', { name: 'Raise Dispute' }).click();
    const dialog = bob.getByRole('dialog', { name: 'Raise Dispute' });
    await dialog.getByLabel('Reason').fill(REASON);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    for (const page of [alice, bob]) {
      await expect.poll(() => pane(page).getByRole('status', { name: 'Under review' }).count(), within).toBe(1);
      // Frozen: no party may act any more.
      await expect.poll(() => actions(pane(page)).getByRole('button').count(), within).toBe(0);
    }
    await screenshot(bob, 'e2e-disputes-under-review-dark');
  });

  it('a trader gets the 404 page at /moderation and no Disputes link', async () => {
    expect(await alice.getByRole('link', { name: 'Disputes' }).count()).toBe(0);
    await alice.goto(`${product.baseUrl}/moderation`);
    await expect.poll(() => alice.getByRole('heading', { name: 'Oops! Page not found' }).count(), within).toBe(1);
    await openChat(alice);
  });

  it('the moderator finds it at the desk with the payer account and writes in its chat, live for both traders', async () => {
    ({ page: mod } = await newPage(browser));
    await product.signIn(mod, 'mod');
    await mod.getByRole('link', { name: 'Disputes' }).first().click();
    await mod.waitForURL(/\/moderation/);
    const row = mod.getByRole('list', { name: 'Disputes' }).locator(`li[data-channel="${channel}"]`);
    await expect.poll(() => row.count(), within).toBe(1);
    expect(await row.textContent()).toMatch(/Waiting/i);
    await row.getByRole('button').first().click();

    const dispute = mod.getByRole('article', { name: 'Dispute between bob and alice' });
    await expect.poll(() => dispute.getByRole('region', { name: 'Trade facts' }).textContent(), within).toContain(PAYER_ACCOUNT);
    expect(await dispute.textContent()).toContain(REASON);

    await dispute.getByLabel('Message as Moderator').fill(MODERATOR_ASK);
    await dispute.getByLabel('Message as Moderator').press('Enter');
    for (const page of [alice, bob]) {
      const fromModerator = pane(page).locator('li[data-from="moderator"]', { hasText: MODERATOR_ASK });
      await expect.poll(() => fromModerator.count(), within).toBe(1);
      expect(await fromModerator.textContent()).toContain('Moderator');
    }
    await screenshot(mod, 'e2e-disputes-desk');
  });

  it('the moderator releases to the buyer: both chats settle live and bob holds exactly what the trade promised', async () => {
    const dispute = mod.getByRole('article', { name: 'Dispute between bob and alice' });
    await dispute.getByRole('button', { name: 'Release to buyer' }).click();
    const dialog = mod.getByRole('dialog', { name: 'Release to buyer' });
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Resolution').fill(RESOLUTION);
    await confirm.click();
    await expect.poll(() => dialog.count(), within).toBe(0);

    for (const page of [alice, bob]) {
      const settled = pane(page).getByRole('region', { name: 'Dispute settled' });
      await expect.poll(() => settled.count(), within).toBe(1);
      expect(await settled.textContent()).toContain(RESOLUTION);
      await expect.poll(() => pane(page).getByRole('status', { name: 'Under review' }).count(), within).toBe(0);
    }
    await screenshot(bob, 'e2e-disputes-settled-buyer-dark');
    await screenshot(alice, 'e2e-disputes-settled-seller');

    // The escrow moved once, to bob, less the fee: exactly the preview's figure.
    const after = await btcBalance(bobToken);
    expect(new Money(after).minus(bobBefore).toString()).toBe(new Money(bobReceives).toString());
    // The desk's list no longer holds it.
    await mod.goto(`${product.baseUrl}/moderation`);
    await expect.poll(() => mod.getByText('No open disputes').count(), within).toBe(1);
  });
});

describe('a rating after the completed trade', () => {
  it('bob rates alice from the chat, and it shows on her offer card and her profile', async () => {
    const form = pane(bob).getByRole('form', { name: 'Rate alice' });
    await expect.poll(() => form.count(), within).toBe(1);
    const submit = form.getByRole('button', { name: 'Submit rating' });
    expect(await submit.isDisabled()).toBe(true);
    await form.locator('label', { hasText: '5 stars' }).click();
    expect(await form.getByRole('radio', { name: '5 stars' }).isChecked()).toBe(true);
    await form.getByLabel('Comment (optional)').fill(COMMENT);
    await submit.click();
    await expect.poll(() => pane(bob).getByRole('region', { name: 'Your rating' }).count(), within).toBe(1);
    expect(await pane(bob).getByRole('region', { name: 'Your rating' }).textContent()).toMatch(/5\/5/);
    await screenshot(bob, 'e2e-disputes-rated-dark');

    // Nobody else rated alice in the demo data: her average is exactly this one rating.
    const { page: carol } = await newPage(browser, { width: 390, height: 844 });
    await product.signIn(carol, 'carol');
    await carol.goto(`${product.baseUrl}/offers`);
    const card = carol.getByRole('article', { name: /offer by alice/ }).first();
    await expect.poll(() => card.locator('[data-rating]').textContent(), within).toBe('★ 5.00 by 1 trader');
    await screenshot(carol, 'e2e-disputes-offer-card-mobile');

    await card.getByRole('link', { name: 'alice' }).click();
    await carol.waitForURL(/\/traders\/alice/);
    const ratings = carol.getByRole('region', { name: 'Latest ratings' });
    await expect.poll(() => ratings.textContent(), within).toContain(COMMENT);
    expect(await ratings.textContent()).toContain('bob');
    await screenshot(carol, 'e2e-disputes-profile-mobile');
  });
});
