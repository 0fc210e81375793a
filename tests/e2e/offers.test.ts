import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, type Product, toast } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

let product: Product;
let browser: Browser;

productAndBrowserPerFile((running) => ({ product, browser } = running));

const signIn = (page: Page, username: string) => product.signIn(page, username);

/** Picks options of an Ark select by its label: opens it, clicks each option, closes it. */
async function choose(page: Page, label: string, options: string[]) {
  await page.getByRole('combobox', { name: label }).click();
  for (const option of options) await page.getByRole('option', { name: option, exact: true }).click();
  if (await page.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
}

const cardsBy = (page: Page, username: string) => page.getByRole('article', { name: new RegExp(`offer by ${username}$`) });

describe('offers between two traders', () => {
  it('alice publishes a sell offer for seasoned traders, sees it as hers, edits and pauses it; bob finds it and is told why he cannot take it', async () => {
    const alice = await newPage(browser);
    const page = alice.page;
    await signIn(page, 'alice');
    await page.goto(`${product.baseUrl}/offers/create`);
    await page.getByRole('heading', { name: 'Create New Offer' }).waitFor();
    const publish = page.getByRole('button', { name: 'Publish Offer' });
    expect(await publish.isDisabled()).toBe(true);

    await page.getByText('I want to Sell').click();
    await choose(page, 'Cryptocurrency', ['Litecoin']);
    await choose(page, 'Fiat currency', ['Kenyan Shilling (KES)']);
    await page.getByText(/^Market Rate: 1\.00 USD ≈ [\d,.]+ KES$/).waitFor();
    await page.getByLabel('Minimum amount (KES)').fill('1500');
    await page.getByLabel('Maximum amount (KES)').fill('250000');
    await page.getByLabel('USD Rate').fill('131.75');
    await page.getByText('None selected').waitFor();
    await choose(page, 'Payment methods', ['M-Pesa', 'Bank Transfer']);
    await page.getByLabel('Terms (optional)').fill('M-Pesa only from a registered line. <b>not bold</b>');
    // Who may take it: 5 completed trades, two-factor on, 2 open trades at once.
    await page.getByLabel('Minimum completed trades (optional)').fill('5');
    await page.getByText('Takers must have two-factor authentication on').click();
    await page.getByLabel('Open trades at once').fill('2');
    await page.getByText('5+ completed trades · two-factor on').waitFor();
    await screenshot(page, 'offer-form-light');
    await publish.click();
    await page.waitForURL(`${product.baseUrl}/offers`);
    await toast(page, 'Offer published successfully.').waitFor();

    await page.getByLabel('Search trader').fill('alice');
    const mine = cardsBy(page, 'alice').filter({ hasText: 'Rate: 1.00 USD = 131.75 KES' });
    await mine.waitFor();
    await expect.poll(() => mine.getByText('alice (me)').count()).toBe(1);
    expect(await mine.getByText('1,500.00 KES').count()).toBe(1);
    expect(await mine.getByText('250,000.00 KES').count()).toBe(1);
    await screenshot(page, 'offers-alice-light');

    await mine.getByRole('link', { name: 'Edit offer' }).click();
    await page.getByRole('heading', { name: 'Edit Offer' }).waitFor();
    await expect.poll(() => page.getByLabel('USD Rate').inputValue()).toBe('131.75');
    expect(await page.getByLabel('Minimum completed trades (optional)').inputValue()).toBe('5');
    expect(await page.getByLabel('Open trades at once').inputValue()).toBe('2');
    expect(await page.getByRole('checkbox', { name: 'Takers must have two-factor authentication on' }).isChecked()).toBe(true);
    await page.getByLabel('USD Rate').fill('132.10');
    await page.getByRole('button', { name: 'Edit Offer' }).click();
    await page.waitForURL(`${product.baseUrl}/offers`);
    await toast(page, 'Offer updated successfully.').waitFor();

    const bob = await newPage(browser, { colorScheme: 'dark' });
    await signIn(bob.page, 'bob');
    await bob.page.goto(`${product.baseUrl}/offers`);
    await choose(bob.page, 'Offer type', ['Sell Offers']);
    await choose(bob.page, 'Cryptocurrency', ['Litecoin']);
    await choose(bob.page, 'Fiat currency', ['Kenyan Shilling (KES)']);
    await choose(bob.page, 'Payment methods', ['M-Pesa']);
    await bob.page.getByLabel('Search trader').fill('ALI');
    const found = cardsBy(bob.page, 'alice').filter({ hasText: 'Rate: 1.00 USD = 132.10 KES' });
    await found.waitFor();
    expect(await found.getByText('(me)').count()).toBe(0);
    // bob has no completed trade: the card says what it asks, and why he cannot take it, before he tries.
    await found.getByText('For traders with 5+ completed trades · two-factor on').waitFor();
    const take = found.getByRole('button', { name: 'Buy from this seller' });
    await expect.poll(() => take.isDisabled()).toBe(true);
    expect(await found.getByRole('note').textContent()).toBe('This offer is for traders with at least 5 completed trades.');
    await screenshot(bob.page, 'offers-bob-filtered-dark');

    await bob.page.getByRole('button', { name: 'Clear All' }).click();
    await expect.poll(() => bob.page.getByLabel('Search trader').inputValue()).toBe('');

    // alice pauses it: bob's list no longer has it.
    await page.goto(`${product.baseUrl}/offers`);
    await page.getByLabel('Search trader').fill('alice');
    await cardsBy(page, 'alice').filter({ hasText: '132.10 KES' }).getByRole('link', { name: 'Edit offer' }).click();
    await page.getByRole('button', { name: 'Pause offer' }).click();
    await page.getByText('This offer is paused').waitFor();
    await bob.page.getByLabel('Search trader').fill('alice');
    await cardsBy(bob.page, 'alice').first().waitFor();
    await expect.poll(() => cardsBy(bob.page, 'alice').filter({ hasText: '132.10 KES' }).count()).toBe(0);

    await alice.context.close();
    await bob.context.close();
  });

  it('a filter that matches nothing shows the empty state', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'carol');
    await page.goto(`${product.baseUrl}/offers`);
    await page.getByLabel('Search trader').fill('nobody-by-this-name');
    await page.getByText('No offers found matching your criteria.').waitFor();
    expect(await page.getByRole('link', { name: 'Create the first offer' }).getAttribute('href')).toBe('/offers/create');
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await context.close();
  });
});
