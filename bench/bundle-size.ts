/**
 * What JavaScript a first visit to /login downloads, gzip-compressed.
 * Boots the built product (run `npm run build` first), opens /login in Debian's Chromium with an
 * empty cache, records every script response, and gzips each body as a server would send it.
 * Run: npm run build && node --import tsx bench/bundle-size.ts
 */
import { gzipSync } from 'node:zlib';
import { launchBrowser, startProduct } from '../tests/e2e/support.ts';

const TARGET_KB = 170;

const product = await startProduct();
const browser = await launchBrowser();
try {
  const page = await (await browser.newContext()).newPage();
  const scripts: { url: string; raw: number; gzip: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      response.body().then((body) => {
        scripts.push({ url: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
      }),
    );
  });
  await page.goto(`${product.baseUrl}/login`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Login' }).waitFor();
  await Promise.all(pending);

  scripts.sort((a, b) => b.gzip - a.gzip);
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  for (const script of scripts) console.log(`${kb(script.gzip).padStart(7)} kB gz  ${kb(script.raw).padStart(7)} kB  ${script.url}`);
  const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
  const raw = scripts.reduce((sum, script) => sum + script.raw, 0);
  console.log(`\n/login first visit: ${scripts.length} scripts, ${kb(total)} kB gzip (${total} of ${TARGET_KB * 1024} bytes; ${kb(raw)} kB raw); target <= ${TARGET_KB} kB gzip`);
} finally {
  await browser.close();
  await product.stop();
}
