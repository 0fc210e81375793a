/**
 * Draws the installed app's icons (public/icons/, listed in public/manifest.webmanifest) from public/favicon.svg in
 * Chromium, so the PNGs the manifest needs are made from the one logo rather than drawn by hand. Run it again after
 * the logo changes: `node --import tsx scripts/make-icons.ts` (Chromium at /usr/bin/chromium, or CHROMIUM_PATH).
 *
 * A maskable icon is cropped by the phone to a circle or a rounded square, keeping only the middle 80%: it is the
 * logo's mark on a full square of its colour, the mark inside that safe zone.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const PUBLIC = new URL('../public/', import.meta.url);
const LOGO_COLOUR = '#4f46e5';

/** The logo's own drawing: its rounded square keeps its transparent corners. */
const anyPurpose = (svg: string) => svg;
/** The mark alone, scaled to 60% of a full-bleed square of the logo's colour. */
const maskable = (svg: string) => {
  const mark = /<path[^>]*\/>/.exec(svg)?.[0];
  if (!mark) throw new Error('public/favicon.svg: no <path> (the mark) to put on the maskable icon');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${LOGO_COLOUR}"/><g transform="translate(6.4 6.4) scale(0.6)">${mark}</g></svg>`;
};

const ICONS = [
  { file: 'icons/icon-192.png', size: 192, draw: anyPurpose },
  { file: 'icons/icon-512.png', size: 512, draw: anyPurpose },
  { file: 'icons/maskable-512.png', size: 512, draw: maskable },
  // iOS's home screen takes no manifest icon: it reads apple-touch-icon, and draws its own rounded corners.
  { file: 'icons/apple-touch-icon-180.png', size: 180, draw: maskable },
];

const logo = await readFile(new URL('favicon.svg', PUBLIC), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const svg = icon.draw(logo).replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await writeFile(new URL(icon.file, PUBLIC), await page.screenshot({ omitBackground: true }));
    await page.close();
    console.log(`${icon.file}: ${icon.size}×${icon.size}`);
  }
} finally {
  await browser.close();
}
