/**
 * Where a page's load spends the main thread, task by task (issue 16): what bench/lighthouse.ts counts as total
 * blocking time, taken apart. Starts the built product as `npm start` does, signs alice in (her session in local
 * storage, as the login page keeps it), slows Chromium's CPU 4× as Lighthouse's mobile preset assumes, and records
 * a Chromium trace (the renderer's tasks and the CPU profile on one clock) of loading the page until the network has
 * been idle and two more seconds have passed. Every sample is mapped through the build's source maps to the package
 * or source file it ran in. Each task of the page's main thread longer than 50 ms (the part beyond 50 ms is what
 * Lighthouse adds to total blocking time) is printed with the modules its samples ran in and the project's functions
 * they ran under, then the whole load's totals. Times are from the document's parsing.
 *
 * Run: npm run build && node --import tsx bench/load-profile.ts
 * Knobs: BENCH_PAGE (/offers), BENCH_SIGNED_OUT (set for a signed-out page), BENCH_CPU (4), BENCH_OWN (a pattern of
 * source paths whose functions are listed under each long task; default the project's own: src, contracts, domain).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { DEMO_PASSWORD, launchBrowser, startProduct } from '../tests/e2e/support.ts';

const PAGE = process.env.BENCH_PAGE ?? '/offers';
const SIGNED_IN = !process.env.BENCH_SIGNED_OUT;
const CPU_SLOWDOWN = Number(process.env.BENCH_CPU ?? 4);
const BLOCKING_MS = 50;

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: { data?: Record<string, unknown>; beginData?: Record<string, unknown> };
}
type Task = { start: number; end: number; byModule: Map<string, number>; byOwnFunction: Map<string, number> };
/** The project's own code, as the source maps name it (BENCH_OWN, a pattern, to look under a package instead). */
const OWN_CODE = process.env.BENCH_OWN ? new RegExp(process.env.BENCH_OWN) : /^(src|contracts|domain|styled-system)\//;
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler'];

const consumers = new Map<string, SourceMapConsumer | null>();
function consumerFor(url: string): SourceMapConsumer | null {
  if (!consumers.has(url)) {
    const path = new URL(url).pathname;
    let consumer: SourceMapConsumer | null = null;
    if (path.startsWith('/assets/')) {
      try {
        consumer = new SourceMapConsumer(JSON.parse(readFileSync(join('dist', `${path}.map`), 'utf8')) as RawSourceMap);
      } catch {
        consumer = null;
      }
    }
    consumers.set(url, consumer);
  }
  return consumers.get(url)!;
}

/** A frame's function name in the source, where the source map has one (the build shortens names). */
function functionNameOf(frame: ProfileNode['callFrame']): string {
  const position = frame.url?.startsWith('http') ? consumerFor(frame.url)?.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber }) : undefined;
  return position?.name ?? (frame.functionName || '(anonymous)');
}

/** The package (node_modules/<name>) or source file a frame ran in. */
function moduleOf(frame: ProfileNode['callFrame']): string {
  if (!frame.url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (!frame.url.startsWith('http')) return frame.url;
  const consumer = consumerFor(frame.url);
  const source = consumer?.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber }).source;
  // The chunk's own top level (line 0, column 0): every bundled module's top-level statements, run on import.
  if (!source) return frame.lineNumber === 0 && frame.columnNumber === 0 ? '(modules’ top level)' : new URL(frame.url).pathname;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (packageMatch) return packageMatch[1]!;
  return source.replace(/^(\.\.\/)+/, '');
}

const product = await startProduct();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
  const page = await context.newPage();
  await page.goto(`${product.baseUrl}/api/health`);
  if (SIGNED_IN) {
    const session = await product.call<{ token: string; user: unknown }>('security/login/', { username: 'alice', password: DEMO_PASSWORD });
    await page.evaluate(({ token, user }) => {
      localStorage.setItem('authToken', token);
      localStorage.setItem('user', JSON.stringify(user));
    }, session);
  }
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await page.goto(`${product.baseUrl}${PAGE}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(2_000);
  const events = (JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;

  // The page's renderer main thread: where the navigation's document was parsed.
  const parse = events.find((event) => event.name === 'ParseHTML' && String(event.args?.beginData?.url ?? '').includes(PAGE));
  if (!parse) throw new Error('no ParseHTML event for the page in the trace');
  const onMainThread = (event: TraceEvent) => event.pid === parse.pid && event.tid === parse.tid;
  const tasks: Task[] = events
    .filter((event) => event.name === 'RunTask' && event.ph === 'X' && onMainThread(event) && (event.dur ?? 0) > 0)
    .map((event) => ({ start: event.ts, end: event.ts + event.dur!, byModule: new Map(), byOwnFunction: new Map() }))
    .sort((a, b) => a.start - b.start);

  // The CPU profile arrives in chunks: nodes and samples with time deltas, on the trace's clock.
  const nodes = new Map<number, ProfileNode>();
  const samples: { time: number; node: number }[] = [];
  const profileStart = events.find((event) => event.name === 'Profile' && event.pid === parse.pid);
  let time = Number(profileStart?.args?.data?.startTime ?? 0);
  for (const event of events) {
    if (event.name !== 'ProfileChunk' || event.pid !== parse.pid || event.id !== profileStart?.id) continue;
    const data = event.args!.data!.cpuProfile as { nodes?: ProfileNode[]; samples?: number[] };
    for (const node of data.nodes ?? []) nodes.set(node.id, node);
    const deltas = event.args!.data!.timeDeltas as number[] | undefined;
    (data.samples ?? []).forEach((node, index) => {
      time += deltas?.[index] ?? 0;
      samples.push({ time, node });
    });
  }
  const moduleOfNode = new Map<number, string>();
  const moduleOfSample = (id: number) => {
    if (!moduleOfNode.has(id)) moduleOfNode.set(id, nodes.has(id) ? moduleOf(nodes.get(id)!.callFrame) : '(unknown)');
    return moduleOfNode.get(id)!;
  };
  // Every function of the project's own code on a sample's stack (inclusive time): which component or actor a task
  // spent its time under. Names come from the source maps where the build minified them.
  const ownFunctionsOfNode = new Map<number, string[]>();
  const ownFunctionsOf = (id: number): string[] => {
    if (!ownFunctionsOfNode.has(id)) {
      const node = nodes.get(id);
      const above = node?.parent === undefined ? [] : ownFunctionsOf(node.parent);
      const module = moduleOfSample(id);
      const name = node && OWN_CODE.test(module) ? `${module.replace(/^.*\//, '')}:${functionNameOf(node.callFrame)}` : undefined;
      ownFunctionsOfNode.set(id, name && !above.includes(name) ? [...above, name] : above);
    }
    return ownFunctionsOfNode.get(id)!;
  };
  const totals = new Map<string, number>();
  let taskIndex = 0;
  for (let index = 0; index < samples.length; index += 1) {
    const { time: at, node } = samples[index]!;
    const length = (samples[index + 1]?.time ?? at) - at;
    const module = moduleOfSample(node);
    if (module === '(idle)') continue;
    totals.set(module, (totals.get(module) ?? 0) + length);
    while (taskIndex < tasks.length && tasks[taskIndex]!.end < at) taskIndex += 1;
    const task = tasks[taskIndex];
    if (task && task.start <= at) {
      task.byModule.set(module, (task.byModule.get(module) ?? 0) + length);
      for (const name of ownFunctionsOf(node)) task.byOwnFunction.set(name, (task.byOwnFunction.get(name) ?? 0) + length);
    }
  }

  const top = (byModule: Map<string, number>, count: number) =>
    [...byModule]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([module, us]) => `${module} ${(us / 1000).toFixed(0)}`)
      .join(', ');
  const ms = (us: number) => us / 1000;
  const long = tasks.filter((task) => ms(task.end - task.start) > BLOCKING_MS);
  const blocking = long.reduce((sum, task) => sum + ms(task.end - task.start) - BLOCKING_MS, 0);
  console.log(`${PAGE} (${SIGNED_IN ? 'signed in' : 'signed out'}), CPU ${CPU_SLOWDOWN}× slower: ${tasks.length} tasks, ${long.length} over ${BLOCKING_MS} ms, ${blocking.toFixed(0)} ms beyond ${BLOCKING_MS} ms in all\n`);
  const longest = [...tasks].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, Math.max(long.length, 8));
  for (const task of longest.sort((a, b) => a.start - b.start)) {
    console.log(`  at ${ms(task.start - parse.ts).toFixed(0).padStart(6)} ms, ${ms(task.end - task.start).toFixed(0).padStart(4)} ms: ${top(task.byModule, 8)}`);
    console.log(`${' '.repeat(26)}under: ${top(task.byOwnFunction, 10)}`);
  }
  console.log(`\nThe whole load, ms of CPU by module: ${top(totals, 25)}`);
} finally {
  await browser.close();
  await product.stop();
}
