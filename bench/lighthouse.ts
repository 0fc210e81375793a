/**
 * Lighthouse on the built product (issue 16): /login, / and /offers (both signed in as a demo trader) with the
 * mobile preset (a mid-range phone on slow 4G, simulated) and the desktop preset, BENCH_RUNS (3) runs each;
 * prints the median scores (performance, accessibility, best practices) and Web Vitals per page and preset.
 *
 * The ceiling, measured in the same run with the same presets: a page of one heading and a paragraph, served
 * compressed by a bare Node server. It is the best this machine and the simulated network let any page reach;
 * each page's first and largest paint are also given as a multiple of the ceiling's.
 *
 * How: starts the product as `npm start` does (tests/e2e/support.ts startProduct: embedded database, demo data;
 * run `npm run build` first), launches Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) through
 * playwright-core with a DevTools port, and runs the `lighthouse` package against that port. Signed-out runs let
 * Lighthouse reset the origin's storage and cache; signed-in runs put alice's session into local storage (as
 * the login page does) and clear the HTTP cache themselves, since Lighthouse's reset would sign her out.
 *
 * Run: npm run build && node --import tsx bench/lighthouse.ts
 * Knobs: BENCH_RUNS (3), BENCH_PAGES (comma list of /login,/,/offers), BENCH_PRESETS (mobile,desktop),
 * BENCH_REPORTS (a folder: each run's full Lighthouse report is written there as JSON, to read its long tasks).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, DEMO_PASSWORD, startProduct } from '../tests/e2e/support.ts';

// The package's "exports" hide its package.json; read from disk.
const lighthouseVersion = (JSON.parse(readFileSync(new URL('../node_modules/lighthouse/package.json', import.meta.url), 'utf8')) as { version: string }).version;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PAGES = (process.env.BENCH_PAGES ?? '/login,/,/offers').split(',');
const PRESETS = (process.env.BENCH_PRESETS ?? 'mobile,desktop').split(',') as Preset[];
const REPORTS = process.env.BENCH_REPORTS;
const SIGNED_IN_PAGES = new Set(['/', '/offers']);
const TARGETS = { mobile: 95, desktop: 100, accessibility: 100, 'best-practices': 100 };

type Preset = 'mobile' | 'desktop';
type Category = 'performance' | 'accessibility' | 'best-practices';
const CATEGORIES: Category[] = ['performance', 'accessibility', 'best-practices'];
const METRICS = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
} as const;
type Metric = keyof typeof METRICS;

interface Run {
  scores: Record<Category, number>;
  metrics: Record<Metric, number>;
  /** What the page downloaded, as transferred (compressed), in bytes. */
  transferred: number;
  scriptTransferred: number;
  /** Accessibility and best-practices audits that did not pass, by id. */
  failed: string[];
}

class RecordingFailed extends Error {}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** The ceiling: the least a page can be, compressed like the product's files. */
async function startCeiling() {
  const html = brotliCompressSync(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<meta name="description" content="Lighthouse ceiling"><title>Ceiling</title></head>' +
      '<body><main><h1>Peerex</h1><p>The least a page can be: one heading and one paragraph, nothing to download.</p></main></body></html>',
  );
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'br', 'cache-control': 'no-cache' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const product = await startProduct();
const ceiling = await startCeiling();
const profile = mkdtempSync(join(tmpdir(), 'peerex-lighthouse-'));
const debuggingPort = 9300 + Math.floor(Math.random() * 500);
// The persistent context is the browser's default one, where Lighthouse opens its tab: alice's session set
// here is the one Lighthouse's page sees.
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROME_PATH,
  headless: true,
  args: [...CHROMIUM_FLAGS, `--remote-debugging-port=${debuggingPort}`],
});

try {
  const session = await product.call<{ token: string; user: unknown }>('security/login/', { username: 'alice', password: DEMO_PASSWORD });
  const helper = await context.newPage();
  const cdp = await context.newCDPSession(helper);
  await helper.goto(`${product.baseUrl}/api/health`);

  /** Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP): that run is taken again, twice at most. */
  async function measure(url: string, preset: Preset, signedIn: boolean, attempt = 1): Promise<Run> {
    try {
      return await measureOnce(url, preset, signedIn);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof RecordingFailed)) throw error;
      console.log(`  (${preset} ${url}: ${error.message}; again)`);
      return measure(url, preset, signedIn, attempt + 1);
    }
  }

  async function measureOnce(url: string, preset: Preset, signedIn: boolean): Promise<Run> {
    if (url.startsWith(product.baseUrl)) {
      // Signed in or out as the page asks, whatever the run before left (Lighthouse's own reset is not relied on).
      await helper.evaluate(
        ({ token, user }) => {
          localStorage.clear();
          if (token) {
            localStorage.setItem('authToken', token);
            localStorage.setItem('user', JSON.stringify(user));
          }
        },
        signedIn ? session : { token: '', user: null },
      );
      await cdp.send('Network.clearBrowserCache');
    }
    const flags: Flags = {
      port: debuggingPort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      disableStorageReset: signedIn,
    };
    const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
    const lhr: Result | undefined = result?.lhr;
    if (!lhr) throw new Error(`no Lighthouse result for ${url}`);
    if (lhr.runtimeError) throw new RecordingFailed(`${lhr.runtimeError.code}`);
    if (REPORTS) {
      mkdirSync(REPORTS, { recursive: true });
      const name = `${preset}${new URL(url).pathname.replaceAll('/', '_')}-${Date.now()}.json`;
      writeFileSync(join(REPORTS, name), JSON.stringify(lhr));
    }
    // A signed-in page that fell back to /login, or /login that moved on to the dashboard, measured the wrong page.
    if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) throw new Error(`${url}: ended at ${lhr.finalDisplayedUrl}`);
    const items = ((lhr.audits['network-requests']?.details as { items?: { transferSize?: number; resourceType?: string }[] } | undefined)?.items ?? []);
    return {
      scores: Object.fromEntries(CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)])) as Run['scores'],
      metrics: Object.fromEntries(Object.entries(METRICS).map(([name, id]) => [name, lhr.audits[id]?.numericValue ?? Number.NaN])) as Run['metrics'],
      failed: (['accessibility', 'best-practices'] as const).flatMap((category) =>
        (lhr.categories[category]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${category}: ${ref.id}`),
      ),
      transferred: items.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
      scriptTransferred: items.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    };
  }

  console.log(`Lighthouse (lighthouse npm ${lighthouseVersion}) in ${CHROME_PATH}; ${RUNS} runs per page and preset, medians; ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)}\n`);
  const failures: string[] = [];
  for (const preset of PRESETS) {
    const ceilingRuns: Run[] = [];
    for (let run = 0; run < RUNS; run += 1) ceilingRuns.push(await measure(ceiling.url, preset, false));
    const ceilingFcp = median(ceilingRuns.map((run) => run.metrics.FCP));
    const ceilingLcp = median(ceilingRuns.map((run) => run.metrics.LCP));
    console.log(`${preset}: ceiling page performance ${median(ceilingRuns.map((run) => run.scores.performance))}, FCP ${ceilingFcp.toFixed(0)} ms, LCP ${ceilingLcp.toFixed(0)} ms`);
    console.log('  page      perf  a11y  b.p.   FCP ms  LCP ms  TBT ms   CLS    SI ms  FCP×ceil LCP×ceil  kB transferred (JS)');
    for (const path of PAGES) {
      const runs: Run[] = [];
      for (let run = 0; run < RUNS; run += 1) runs.push(await measure(`${product.baseUrl}${path}`, preset, SIGNED_IN_PAGES.has(path)));
      const score = (category: Category) => median(runs.map((run) => run.scores[category]));
      const metric = (name: Metric) => median(runs.map((run) => run.metrics[name]));
      const perfTarget = TARGETS[preset];
      if (score('performance') < perfTarget) failures.push(`${preset} ${path}: performance ${score('performance')} < ${perfTarget}`);
      for (const category of ['accessibility', 'best-practices'] as const) {
        if (score(category) < TARGETS[category]) failures.push(`${preset} ${path}: ${category} ${score(category)} < ${TARGETS[category]}`);
      }
      console.log(
        `  ${path.padEnd(8)} ${String(score('performance')).padStart(5)} ${String(score('accessibility')).padStart(5)} ${String(score('best-practices')).padStart(5)}` +
          ` ${metric('FCP').toFixed(0).padStart(8)} ${metric('LCP').toFixed(0).padStart(7)} ${metric('TBT').toFixed(0).padStart(7)} ${metric('CLS').toFixed(3).padStart(6)}` +
          ` ${metric('SI').toFixed(0).padStart(8)} ${(metric('FCP') / ceilingFcp).toFixed(2).padStart(9)} ${(metric('LCP') / ceilingLcp).toFixed(2).padStart(8)}` +
          `  ${(median(runs.map((run) => run.transferred)) / 1024).toFixed(1)} (${(median(runs.map((run) => run.scriptTransferred)) / 1024).toFixed(1)})` +
          `   [perf per run: ${runs.map((run) => run.scores.performance).join(', ')}]`,
      );
      const failed = [...new Set(runs.flatMap((run) => run.failed))];
      if (failed.length > 0) console.log(`           failed: ${failed.join('; ')}`);
    }
  }
  console.log(failures.length === 0 ? '\nEvery target met.' : `\nBelow target:\n  ${failures.join('\n  ')}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  await ceiling.close();
  await product.stop();
}
