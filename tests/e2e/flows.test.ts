import type { Browser, Page } from 'playwright-core';
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
    await context.close();
  });

  it('opens on the first chart of the list, under the product’s bar: Login and Sign Up signed out, its pages signed in', async () => {
    const shots = async (page: Page, name: string) => {
      for (const [width, height] of [[1280, 800], [390, 844]] as const) {
        await page.setViewportSize({ width, height });
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          await screenshot(page, `flows-${name}-${width}-${colorScheme}`);
        }
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    };
    /** The atlas at /flows, no chart named: the first of the list is the one drawn. */
    const opensOnFirstChart = async (page: Page) => {
      await page.goto(`${product.baseUrl}/flows`);
      const first = page.getByRole('navigation', { name: 'Charts' }).getByRole('button').first();
      const id = (await first.locator('span').first().textContent()) ?? '';
      expect(id).toMatch(/^\w+$/);
      await page.getByRole('heading', { level: 1, name: id, exact: true }).waitFor();
      await page.locator(`[data-state^="${id}."]`).first().waitFor();
      expect(await first.getAttribute('aria-current')).toBe('page');
      expect(new URL(page.url()).searchParams.get('chart')).toBeNull();
    };

    const visitor = await newPage(browser);
    await opensOnFirstChart(visitor.page);
    const bar = visitor.page.getByRole('navigation', { name: 'Main' });
    await bar.getByRole('link', { name: 'Login' }).waitFor();
    await bar.getByRole('link', { name: 'Sign Up' }).waitFor();
    await bar.getByRole('link', { name: 'Peerex home' }).waitFor();
    await shots(visitor.page, 'signed-out');
    await bar.getByRole('link', { name: 'Login' }).click();
    await visitor.page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await visitor.context.close();

    const trader = await newPage(browser);
    await product.signIn(trader.page, 'carol');
    await opensOnFirstChart(trader.page);
    const signedIn = trader.page.getByRole('navigation', { name: 'Main' });
    await signedIn.getByRole('button', { name: /^Notifications/ }).waitFor();
    await shots(trader.page, 'signed-in');
    await signedIn.getByRole('link', { name: 'Dashboard' }).click();
    await trader.page.waitForURL(`${product.baseUrl}/`);
    await trader.page.getByRole('heading', { name: 'Welcome back, carol' }).waitFor();
    await trader.context.close();
  });
});
