/**
 * Where a built server's start goes (bench/restart.ts bundles this file as the production build bundles
 * server/src/main.ts, with the same start script, and runs it on a warm DATA_DIR): Node's own start and the bundle's
 * parse, the evaluation of the server's modules, building the app (each plugin's share, as Fastify's plugin tree
 * times it; the database's plugin opens the database and checks the migrations and the reference data) and listen.
 * On PGlite, the start script opened it on its own thread (server/src/infra/db/pglite-thread.ts): when that began,
 * how long PGlite's open took there, and how long the database's plugin still waited for it. Prints one JSON line.
 */
const entered = process.uptime() * 1000;
const t0 = performance.now();
const since = (start: number) => Math.round(performance.now() - start);
/**
 * This thread's CPU time so far (Node 23.9 and later; undefined before): on a shared machine, where the wall-clock
 * phases stretch with the load, what a change saved shows here better.
 */
const threadCpu = () => {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage && Math.round((usage.user + usage.system) / 1000);
};

const [{ buildApp }, { loadConfig }, { earlyPgliteTimes }] = await Promise.all([
  import('../../server/src/app.ts'),
  import('../../server/src/config.ts'),
  import('../../server/src/infra/db/pglite-thread.ts'),
]);
const imported = since(t0);
const importedCpu = threadCpu();
const config = loadConfig();

let at = performance.now();
const app = await buildApp({ config, logger: false });
const buildAppMs = since(at);
at = performance.now();
await app.listen({ port: config.port, host: config.host });
const listen = since(at);
const ready = Math.round(process.uptime() * 1000);
const readyCpu = threadCpu();
const processCpu = process.cpuUsage();

/** The plugin tree's top-level entries (`├─┬ name 123 ms`), slowest first, named by their code's first words. */
const plugins = app
  .printPlugins()
  .split('\n')
  .map((line) => /^[├└]─[┬─] (.+?) (\d+) ms$/.exec(line))
  .filter((match): match is RegExpExecArray => match !== null)
  .map((match) => ({ plugin: match[1]!.slice(0, 70), ms: Number(match[2]) }))
  .sort((a, b) => b.ms - a.ms)
  .slice(0, 6);

await app.close();
console.log(
  JSON.stringify({
    nodeStartAndParse: Math.round(entered),
    importModules: imported,
    pgliteThread: earlyPgliteTimes(),
    buildApp: buildAppMs,
    listen,
    ready,
    mainThreadCpu: importedCpu === undefined ? undefined : { imported: importedCpu, ready: readyCpu },
    // Every thread's: PGlite's, V8's compilers' and garbage collector's too; what a busy machine has to find room for.
    processCpuAtReady: Math.round((processCpu.user + processCpu.system) / 1000),
    slowestPlugins: plugins,
  }),
);
process.exit(0);
export {};
