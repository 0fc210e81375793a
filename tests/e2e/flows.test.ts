import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, type Product } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

let product: Product;
let browser: Browser;

productAndBrowserPerFile((running) => ({ product, browser } = running));

describe('the flow atlas', () => {
  it('draws the trade dialog, and in live mode follows the dialog of a page beside it', async () => {
    const { context, page: atlas } = await newPage(browser, { width: 1400, height: 900 });
    await atlas.goto(`${product.baseUrl}/flows`);
    const charts = atlas.getByRole('navigation', { name: 'Charts' });
    await charts.getByRole('button', { name: /^tradeDialog/ }).click();
    await atlas.waitForURL((url) => url.searchParams.get('chart') === 'tradeDialog');
    const state = (id: string) => atlas.locator(`[data-state="tradeDialog.${id}"]`);
    for (const id of ['closed', 'open', 'open.editing', 'open.waiting', 'open.previewing', 'open.ready', 'open.opening']) await state(id).waitFor();
    // Focusing a state shows its description.
    await state('open.waiting').focus();
    await atlas.getByRole('region', { name: 'Selected part' }).getByText('A short pause while the trader is still typing.').waitFor();
    await atlas.getByRole('button', { name: 'Paths', exact: true }).click();
    await atlas.getByRole('region', { name: 'Shortest paths' }).getByText('after previewDebounce (400 ms)').first().waitFor();
    await atlas.getByRole('button', { name: 'Diagram', exact: true }).click();

    // The product in a second tab of the same browser.
    const trader = await context.newPage();
    await product.signIn(trader, 'bob');
    await trader.goto(`${product.baseUrl}/offers`);
    const live = atlas.getByRole('region', { name: 'Live' });
    await live.getByRole('button', { name: /tradeDialog/ }).waitFor();
    await expect.poll(() => state('closed').getAttribute('data-active')).toBe('true');

    await trader.getByRole('article').first().getByRole('button', { name: /this (seller|buyer)/ }).click();
    const dialog = trader.getByRole('dialog', { name: 'Trade Preview' });
    await dialog.waitFor();
    await expect.poll(() => state('open.editing').getAttribute('data-active')).toBe('true');
    expect(await state('closed').getAttribute('data-active')).toBeNull();
    await screenshot(atlas, 'flows-live-dialog-open-light');

    await dialog.getByLabel(/^Amount/).fill('1');
    await live.getByText('amount.change').first().waitFor();
    await trader.keyboard.press('Escape');
    await expect.poll(() => state('closed').getAttribute('data-active')).toBe('true');
    await live.getByText('dialog.close').first().waitFor();
    await screenshot(trader, 'flows-live-trader-light');
    await context.close();
  });

  it('reads in dark and on a phone', async () => {
    const { context, page } = await newPage(browser, { colorScheme: 'dark', width: 390, height: 844 });
    await page.goto(`${product.baseUrl}/flows?chart=tradeConversation`);
    await page.locator('[data-state="tradeConversation.actions.releasing.confirming"]').waitFor();
    await screenshot(page, 'flows-tradeConversation-dark-390');
    await page.goto(`${product.baseUrl}/flows`);
    await page.getByRole('navigation', { name: 'Charts' }).getByRole('button', { name: /^withdrawal\b/ }).waitFor();
    await screenshot(page, 'flows-list-dark-390');
    await context.close();
  });
});
