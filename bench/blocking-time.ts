/**
 * Total blocking time as Lighthouse's mobile preset would count it, estimated from the CPU time of the page's tasks
 * (issue 32): on this shared machine the wall time of a task (what Lighthouse reads from its trace) grows with the
 * load of everything else running, and one run's score says more about the neighbours than about the page.
 *
 * Lighthouse's mobile preset loads the page at full speed, then counts each main-thread task four times as long (a
 * phone's CPU) and adds up what is beyond 50 ms after the first contentful paint. This script does the same with each
 * task's thread time (`tdur` in Chromium's trace: the CPU the task used, not the time it waited for a core), which
 * moves far less with the load. It does not simulate the network as Lighthouse does, so the two are not the same
 * figure: compare two builds with it (alternating them, run after run), not a build with Lighthouse.
 *
 * How: starts the built product as `npm start` does (tests/e2e/support.ts startProduct), puts alice's session into
 * local storage for signed-in pages (as the login page keeps it), loads each page BENCH_RUNS times in a fresh
 * context with a phone's viewport while Chromium traces it, and prints per page the median estimate, each run's, and
 * each run's tasks over 50 ms at 4× (time from the document's parsing : estimated length).
 *
 * Run: npm run build && node --import tsx bench/blocking-time.ts
 * Knobs: BENCH_PAGES (/,/offers; /login and the other signed-out pages are loaded signed out), BENCH_RUNS (5).
 */
import { DEMO_PASSWORD, launchBrowser, startProduct } from '../tests/e2e/support.ts';
import { loadavg } from 'node:os';

const PAGES = (process.env.BENCH_PAGES ?? '/,/offers').split(',');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SIGNED_OUT_PAGES = new Set(['/login', '/signup', '/forgot-password']);
/** Lighthouse's mobile preset: a CPU four times slower, and 50 ms a task may take before it blocks. */
const CPU_SLOWDOWN = 4;
const BLOCKING_MS = 50;

type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { beginData?: { url?: string } } };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const product = await startProduct();
const browser = await launchBrowser();
try {
  const session = await product.call<{ token: string; user: unknown }>('security/login/', { username: 'alice', password: DEMO_PASSWORD });
  console.log(`Blocking time estimated from thread time × ${CPU_SLOWDOWN}, after the first contentful paint; ${RUNS} runs per page; load ${loadavg()[0]!.toFixed(2)}\n`);
  for (const path of PAGES) {
    const runs: { blocking: number; tasks: string[] }[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
      const page = await context.newPage();
      await page.goto(`${product.baseUrl}/api/health`);
      if (!SIGNED_OUT_PAGES.has(path)) {
        await page.evaluate(({ token, user }) => {
          localStorage.setItem('authToken', token);
          localStorage.setItem('user', JSON.stringify(user));
        }, session);
      }
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading'] });
      await page.goto(`${product.baseUrl}${path}`, { waitUntil: 'networkidle' });
      await page.waitForTimeout(1_500);
      const events = (JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
      await context.close();
      // The page's renderer main thread: where the navigation's document was parsed.
      const parse = events.find((event) => event.name === 'ParseHTML' && String(event.args?.beginData?.url ?? '').includes(path));
      if (!parse) throw new Error(`${path}: no ParseHTML event in the trace`);
      const firstPaint = events.find((event) => event.name === 'firstContentfulPaint' && event.pid === parse.pid)?.ts ?? parse.ts;
      const slowed = (event: TraceEvent) => ((event.tdur ?? event.dur ?? 0) / 1000) * CPU_SLOWDOWN;
      const long = events.filter(
        (event) => event.name === 'RunTask' && event.ph === 'X' && event.pid === parse.pid && event.tid === parse.tid && event.ts >= firstPaint && slowed(event) > BLOCKING_MS,
      );
      runs.push({
        blocking: long.reduce((sum, task) => sum + slowed(task) - BLOCKING_MS, 0),
        tasks: long.map((task) => `${((task.ts - parse.ts) / 1000).toFixed(0)}:${slowed(task).toFixed(0)}`),
      });
    }
    console.log(`${path.padEnd(8)} ${median(runs.map((run) => run.blocking)).toFixed(0).padStart(5)} ms  [${runs.map((run) => run.blocking.toFixed(0)).join(', ')}]`);
    for (const run of runs) console.log(`           ${run.tasks.join(' ') || '(none over 50 ms)'}`);
  }
} finally {
  await browser.close();
  await product.stop();
}
