/**
 * Where a built server's start goes (bench/restart.ts bundles this file as the production build bundles
 * server/src/main.ts, and runs it on a warm DATA_DIR): Node's own start and the bundle's parse, the evaluation of
 * the server's modules, PGlite's open, the migrations' check, the rest of building the app (each plugin's
 * share, as Fastify's plugin tree times it) and listen. Prints one JSON line.
 */
const entered = process.uptime() * 1000;
const t0 = performance.now();
const since = (start: number) => Math.round(performance.now() - start);

const [{ buildApp }, { loadConfig }, { openDatabase }, { migrate }] = await Promise.all([
  import('../../server/src/app.ts'),
  import('../../server/src/config.ts'),
  import('../../server/src/infra/db/open.ts'),
  import('../../server/src/infra/db/migrate.ts'),
]);
const imported = since(t0);
const config = loadConfig();

let at = performance.now();
const db = await openDatabase(config);
const pgliteOpen = since(at);
at = performance.now();
const applied = await migrate(db);
const migrationsCheck = since(at);
await db.close();

at = performance.now();
const app = await buildApp({ config, logger: false });
const buildAppMs = since(at);
at = performance.now();
await app.listen({ port: config.port, host: config.host });
const listen = since(at);

/** The plugin tree's top-level entries (`├─┬ name 123 ms`), slowest first. */
const plugins = app
  .printPlugins()
  .split('\n')
  .map((line) => /^[├└]─[┬─] (.+?) (\d+) ms$/.exec(line))
  .filter((match): match is RegExpExecArray => match !== null)
  .map((match) => ({ plugin: match[1]!, ms: Number(match[2]) }))
  .sort((a, b) => b.ms - a.ms)
  .slice(0, 6);

await app.close();
console.log(
  JSON.stringify({
    nodeStartAndParse: Math.round(entered),
    importModules: imported,
    pgliteOpen,
    migrationsCheck,
    migrationsApplied: applied.length,
    buildApp: buildAppMs,
    listen,
    slowestPlugins: plugins,
  }),
);
process.exit(0);
export {};
