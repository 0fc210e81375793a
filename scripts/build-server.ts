/**
 * The server's production build: `server/src/main.ts` and everything it imports of ours, bundled by esbuild into
 * one ES module, `server/dist/main.js` (with its source map), which plain `node` runs without compiling any
 * TypeScript at start (`npm run serve`). Packages stay in node_modules (imported, not bundled): their own files
 * (PGlite's WebAssembly, Scalar's bundle, pino-pretty's worker) are found where they are.
 * Run: npm run build:server [-- --outfile <file>]
 */
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { callFileNames, SERVER_SOURCE } from '../server/src/infra/http/call-files.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SERVER_BUNDLE = join(ROOT, 'server', 'dist', 'main.js');

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

/** Bundles `entry` (the server's main.ts unless told) into `outfile`, the way the production build does. */
export async function buildServer(outfile = SERVER_BUNDLE, entry = join(ROOT, 'server', 'src', 'main.ts')): Promise<void> {
  const toRoot = relative(dirname(outfile), ROOT).split('\\').join('/');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: true,
    // Stack traces name the source files and lines (node's --enable-source-maps reads the map).
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [callFilesInBundle],
    // server/src/infra/root.ts: from the bundle's directory to the repository's root.
    define: { PEEREX_BUNDLE_TO_ROOT: JSON.stringify(`${toRoot ? `${toRoot}/` : './'}`) },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--outfile');
  const outfile = at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]!) : SERVER_BUNDLE;
  await buildServer(outfile);
  console.log(`Built the server into ${relative(process.cwd(), outfile) || outfile}.`);
}
