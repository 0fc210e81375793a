/**
 * The server's production build: `server/src/main.ts`, everything it imports of ours and the packages it uses,
 * bundled by esbuild into one ES module, `server/dist/main.bundle.js` (with its source map), started by
 * `server/dist/main.js`, which plain `node` runs without compiling any TypeScript at start (`npm run serve`).
 * One file instead of a few thousand: resolving, reading and compiling node_modules' files one by one was a
 * second of every start (bench/README.md "Restart to ready"). The packages in EXTERNAL stay in node_modules,
 * imported where they are: those that read their own files beside them (PGlite's WebAssembly, Scalar's bundle,
 * pino's transport worker, ioredis's package.json) or are native (argon2), and nodemailer, loaded with the first
 * mail (infra/mail.ts): in the bundle, its imports of Node's modules would be made at start.
 * Run: npm run build:server [-- --outfile <file>]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { callFileNames, SERVER_SOURCE } from '../server/src/infra/http/call-files.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SERVER_BUNDLE = join(ROOT, 'server', 'dist', 'main.js');
const SERVER_ENTRY = join(ROOT, 'server', 'src', 'main.ts');

/**
 * In the bundle, server/src/infra/http/call-modules.ts is this module instead: every `*.call.ts` found now,
 * imported statically, so the bundle holds them all; a new call file is in the next build, as in the next start.
 */
const callFilesInBundle: Plugin = {
  name: 'peerex-call-files',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]server[\\/]src[\\/]infra[\\/]http[\\/]call-modules\.ts$/ }, () => {
      const files = callFileNames(SERVER_SOURCE);
      const imports = files.map((file, index) => `import * as call${index} from ${JSON.stringify(join(SERVER_SOURCE, file))};`);
      const entries = files.map((file, index) => `[${JSON.stringify(file)}, call${index}]`);
      return {
        contents: `${imports.join('\n')}\nexport async function importCallFiles() {\n  return [${entries.join(', ')}];\n}\n`,
        loader: 'ts',
        resolveDir: SERVER_SOURCE,
      };
    });
  },
};

export const EXTERNAL = ['@electric-sql/pglite', '@electric-sql/pglite/*', '@node-rs/argon2', 'pino', 'pino-pretty', 'thread-stream', '@scalar/*', 'ioredis', 'nodemailer'];

/** See the start script below. */
export const WASM_TIERING_BUDGET = 200_000_000;

/**
 * The script `node` starts (`outfile`), built from this text: it turns on Node's compile cache (Node 22.1 and later;
 * Node 20 has none and skips it), so V8's compiled code for the bundle is kept on disk between starts instead of
 * made again at each one; has stack traces name our TypeScript files, reading the source map at the first trace
 * (infra/stack-traces.ts) rather than at start as `--enable-source-maps` would; and only then loads the bundle,
 * which a cache turned on later would not cover. Before the bundle too, with no DATABASE_URL, it starts the thread that
 * opens PGlite (infra/db/pglite-thread.ts, from its own small bundle `worker`): the WebAssembly PostgreSQL's start
 * then runs while this thread loads and evaluates the server.
 */
const startScript = (bundle: string, worker: string | undefined) => `// Written by scripts/build-server.ts: the compile cache, PGlite's thread and stack traces first, then the server.
import module from 'node:module';
import v8 from 'node:v8';
import { startPgliteEarly } from ${JSON.stringify(join(SERVER_SOURCE, 'infra', 'db', 'pglite-thread.ts'))};
import { mapStackTraces } from ${JSON.stringify(join(SERVER_SOURCE, 'infra', 'stack-traces.ts'))};
// V8 recompiles a WebAssembly function with its optimizing compiler once it has run about this many bytes of code
// (Node 24's default 13 million, Node 20's 1.8 million): PGlite's own start (PostgreSQL's, the first queries) made
// background threads recompile its hottest functions, a few hundred milliseconds of CPU taken from the start on a
// 2-core machine (bench/README.md "Restart to ready") for code it does not run again. Read when PGlite's
// WebAssembly is instantiated, so set before its thread starts; what a running server keeps calling is still
// optimized, after more calls.
v8.setFlagsFromString('--wasm-tiering-budget=${WASM_TIERING_BUDGET}');
module.enableCompileCache?.();
${worker ? `startPgliteEarly(new URL(${JSON.stringify(`./${worker}`)}, import.meta.url));` : '// No database of its own to open.'}
mapStackTraces(new URL(${JSON.stringify(`./${bundle}`)}, import.meta.url).href);
await import(${JSON.stringify(`./${bundle}`)});
`;

/**
 * Bundles `entry` (the server's main.ts unless told) the way the production build does: into `<outfile>.bundle.js`,
 * with `outfile` the script that starts it. `pgliteThread` (the server's own build, and others that open its
 * database as it does): the start script starts PGlite's thread, from `<outfile>.pglite-worker.js`.
 */
export async function buildServer(
  outfile = SERVER_BUNDLE,
  entry = SERVER_ENTRY,
  { pgliteThread = entry === SERVER_ENTRY }: { pgliteThread?: boolean } = {},
): Promise<void> {
  const toRoot = relative(dirname(outfile), ROOT).split('\\').join('/');
  const bundle = outfile.replace(/\.js$/, '') + '.bundle.js';
  const worker = pgliteThread ? outfile.replace(/\.js$/, '') + '.pglite-worker.js' : undefined;
  await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external: EXTERNAL,
    // Packages written as CommonJS call require(), which an ES module has not got: one made for this file.
    banner: { js: "import { createRequire as peerexCreateRequire } from 'node:module'; const require = peerexCreateRequire(import.meta.url);" },
    sourcemap: true,
    // Stack traces name the source files and lines (infra/stack-traces.ts reads the map at the first one).
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [callFilesInBundle],
    // node-fetch (under the `pusher` SDK) asks for Node's own punycode, deprecated since Node 21: every start on
    // Node 22 and later printed a DeprecationWarning. The same code, from the npm package, instead.
    alias: { punycode: 'punycode/' },
    // Two packages' classes of one name would otherwise be renamed apart (pg's DatabaseError became DatabaseError2),
    // and the log's `err.type` is the class's name.
    keepNames: true,
    // Every start reads the whole bundle, decodes it, hashes it against the compile cache, and V8 parses each function
    // it calls for the first time: 6.8 MB as written, 3.4 MB minified (bench/README.md "Restart to ready"). The names
    // stay (keepNames) and stack traces still name our sources' lines (the source map).
    minify: true,
    // server/src/infra/root.ts: from the bundle's directory to the repository's root.
    define: { PEEREX_BUNDLE_TO_ROOT: JSON.stringify(`${toRoot ? `${toRoot}/` : './'}`) },
  });
  await keepOnlyOurSources(`${bundle}.map`);
  if (worker) {
    await build({
      entryPoints: [join(SERVER_SOURCE, 'infra', 'db', 'pglite-worker.ts')],
      outfile: worker,
      // A thread has no compile cache of its own (Node 22.1 and later): PGlite's modules, which pglite.ts loads
      // when it opens, then come compiled from disk as the server's bundle does.
      banner: { js: "import peerexModule from 'node:module'; peerexModule.enableCompileCache?.();" },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      external: EXTERNAL,
      logLevel: 'warning',
    });
  }
  await build({
    stdin: { contents: startScript(basename(bundle), worker && basename(worker)), resolveDir: dirname(outfile), loader: 'ts', sourcefile: 'start.ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external: [`./${basename(bundle)}`],
    logLevel: 'warning',
  });
}

/**
 * The bundle's source map without the packages' code: stack traces name our TypeScript files and lines, and the
 * packages' frames their bundled lines, as before. Node parses the whole map at start when source maps are on
 * (`--enable-source-maps`): the packages' mappings, nine tenths of the map, cost about
 * 0.6 s of every start on Node 24 (bench/README.md "Restart to ready").
 */
async function keepOnlyOurSources(mapFile: string): Promise<void> {
  const map = JSON.parse(await readFile(mapFile, 'utf8')) as { sources: string[]; mappings: string; names: string[] };
  const kept = new Map<number, number>();
  const sources: string[] = [];
  map.sources.forEach((source, index) => {
    if (source.includes('node_modules/')) return;
    kept.set(index, sources.length);
    sources.push(source);
  });
  const lines = decode(map.mappings).map((line) =>
    line.flatMap((segment): SourceMapSegment[] => {
      if (segment.length === 1) return [];
      const source = kept.get(segment[1]);
      if (source === undefined) return [];
      return [segment.length === 4 ? [segment[0], source, segment[2], segment[3]] : [segment[0], source, segment[2], segment[3], segment[4]]];
    }),
  );
  await writeFile(mapFile, JSON.stringify({ ...map, sources, mappings: encode(lines) }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--outfile');
  const outfile = at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]!) : SERVER_BUNDLE;
  await buildServer(outfile);
  console.log(`Built the server into ${relative(process.cwd(), outfile) || outfile}.`);
}
