import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, startProduct, type Product } from './support.ts';

/**
 * The product (as `npm start` runs it) and a browser for one test file: both started before its first test, handed
 * to `started`, and stopped after its last. Hooks the file registers after this call run after the start and before
 * the stop (vitest runs after-hooks in reverse). Not in support.ts, which the benchmarks import outside vitest.
 */
export function productAndBrowserPerFile(started: (running: { product: Product; browser: Browser }) => void) {
  let running: { product: Product; browser: Browser } | undefined;
  beforeAll(async () => {
    const [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
    running = { product, browser };
    started(running);
  });
  afterAll(async () => {
    await running?.browser.close();
    await running?.product.stop();
  });
}
