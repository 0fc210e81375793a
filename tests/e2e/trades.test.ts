import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, newPage, screenshot, standingStill, type Product, toast } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

let product: Product;
let browser: Browser;

productAndBrowserPerFile((running) => ({ product, browser } = running));

const signIn = (page: Page, username: string) => product.signIn(page, username);

describe('a trade opened from Browse Offers', () => {
  it('bob buys from one of alice’s sell offers; both see it in Recent Trades', async () => {
    const bob = await newPage(browser);
    await signIn(bob.page, 'bob');
    await bob.page.goto(`${product.baseUrl}/offers`);
    await bob.page.getByRole('combobox', { name: 'Offer type' }).click();
    await bob.page.getByRole('option', { name: 'Sell Offers', exact: true }).click();
    await bob.page.getByLabel('Search trader').fill('alice');
    const card = bob.page.getByRole('article', { name: /^sell offer by alice$/ }).first();
    await card.waitFor();
    await card.getByRole('button', { name: 'Buy from this seller' }).click();

    const dialog = bob.page.getByRole('dialog', { name: 'Trade Preview' });
    await dialog.getByText('Review the trade details before confirming your order').waitFor();
    const hint = (await dialog.getByText(/^Amount must be between /).textContent()) ?? '';
    const [, min, max] = /between ([\d.]+) - ([\d.]+) /.exec(hint) ?? [];
    expect(min).toBeTruthy();
    const confirm = dialog.getByRole('button', { name: 'Confirm Buy Order' });
    expect(await confirm.isDisabled()).toBe(true);

    await dialog.getByLabel(/^Amount/).fill(String(Number(max) * 10));
    await dialog.getByText(`Amount can not be greater than ${max}`).waitFor();
    await dialog.getByLabel(/^Amount/).fill(min!);
    await dialog.getByText('Please select a payment method').waitFor();
    await dialog.getByRole('combobox', { name: 'Payment method' }).click();
    await bob.page.getByRole('option').first().click();
    await dialog.getByRole('term').filter({ hasText: 'Fee' }).waitFor();
    await expect.poll(() => confirm.isDisabled()).toBe(false);
    await screenshot(bob.page, 'trade-preview-light');
    await confirm.click();
    // "Trade Opened!" lands in the new trade's conversation (/chat?channel=…, the channel the open answer names).
    await bob.page.waitForURL((url) => url.pathname === '/chat');
    await toast(bob.page, 'Trade Opened!').waitFor();

    await bob.page.goto(`${product.baseUrl}/trades`);
    const bobRow = bob.page.getByRole('row').filter({ hasText: 'alice' }).first();
    await bobRow.waitFor();
    expect(await bobRow.textContent()).toMatch(/buy/i);
    expect(await bobRow.getByText('pending').count()).toBe(1);
    await screenshot(bob.page, 'trades-bob-light');

    const alice = await newPage(browser, { colorScheme: 'dark' });
    await signIn(alice.page, 'alice');
    await alice.page.goto(`${product.baseUrl}/trades`);
    const aliceRow = alice.page.getByRole('row').filter({ hasText: 'bob' }).first();
    await aliceRow.waitFor();
    expect(await aliceRow.textContent()).toMatch(/sell/i);
    expect(await aliceRow.getByText('pending').count()).toBe(1);
    await screenshot(alice.page, 'trades-alice-dark');

    await alice.page.goto(`${product.baseUrl}/`);
    await expect.poll(() => alice.page.getByText('You have no trades yet.').count()).toBe(0);
    await alice.page.getByText('Sold').first().waitFor();

    await bob.context.close();
    await alice.context.close();
  });
});

describe('a rate that changes while the Trade Preview is open', () => {
  it('is refused with a sentence when carol confirms, and nothing opens at the old rate', async () => {
    const carol = await newPage(browser);
    await signIn(carol.page, 'carol');
    await carol.page.goto(`${product.baseUrl}/offers`);
    await carol.page.getByRole('combobox', { name: 'Offer type' }).click();
    await carol.page.getByRole('option', { name: 'Sell Offers', exact: true }).click();
    await carol.page.getByLabel('Search trader').fill('alice');
    const card = carol.page.getByRole('article', { name: /^sell offer by alice$/ }).first();
    await card.waitFor();
    await card.getByRole('button', { name: 'Buy from this seller' }).click();
    const dialog = carol.page.getByRole('dialog', { name: 'Trade Preview' });
    const hint = (await dialog.getByText(/^Amount must be between /).textContent()) ?? '';
    const [, min] = /between ([\d.]+) - /.exec(hint) ?? [];
    await dialog.getByLabel(/^Amount/).fill(min ?? '');
    await dialog.getByRole('combobox', { name: 'Payment method' }).click();
    await carol.page.getByRole('option').first().click();
    const confirm = dialog.getByRole('button', { name: 'Confirm Buy Order' });
    await expect.poll(() => confirm.isDisabled()).toBe(false);

    // Meanwhile alice re-prices that very offer from her phone.
    const alice = await product.call<{ token: string }>('security/login/', { username: 'alice', password: DEMO_PASSWORD });
    const list = await product.call<{ offers: Array<{ id: number }> }>(
      'market/offers/',
      { type: 'list', page: 1, filters: { offer_type: 'sell', user__username__icontains: 'alice' } },
      alice.token,
    );
    const id = list.offers[0]?.id;
    const offer = await product.call<Record<string, unknown>>('market/offers/', { type: 'get', id }, alice.token);
    await product.call('market/offers/', {
      type: 'create', update: true, id, offer_type: offer.offer_type, coin: String(offer.coin__id), currency: offer.currency__code,
      rate: (Number(offer.rate) * 1.1).toFixed(2), min_amount: offer.min_amount, max_amount: offer.max_amount,
      payment_methods: offer.payment_methods, terms: offer.terms,
    }, alice.token);
    const tradesBefore = await product.call<{ trades: unknown[] }>('market/trade/', { type: 'history', page: 1 }, alice.token);

    await confirm.click();
    const refusal = toast(carol.page, 'The rate of this offer has changed since you saw it.');
    await refusal.waitFor();
    await standingStill(refusal);
    await screenshot(carol.page, 'trade-rate-changed-light');
    // The dialog stays, with its busy state cleared; carol has opened nothing.
    expect(carol.page.url()).toBe(`${product.baseUrl}/offers`);
    await expect.poll(() => confirm.isDisabled()).toBe(false);
    const tradesAfter = await product.call<{ trades: unknown[] }>('market/trade/', { type: 'history', page: 1 }, alice.token);
    expect(tradesAfter.trades.length).toBe(tradesBefore.trades.length);
    await carol.context.close();
  });
});
