/// <reference types="vitest/config" />
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

const SERVICE_WORKER_SOURCE = new URL('./src/sw/service-worker.ts', import.meta.url).pathname;
const SERVICE_WORKER_FILE = 'service-worker.js';

/** src/sw/service-worker.ts as one self-contained classic script (no `import`), bundled by Vite itself. */
async function bundleServiceWorker(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      minify: true,
      lib: { entry: SERVICE_WORKER_SOURCE, formats: ['iife'], name: 'peerexServiceWorker', fileName: () => SERVICE_WORKER_FILE },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as { output: { type: string; code?: string }[] }[];
  const chunk = outputs.flatMap((output) => output.output).find((item) => item.type === 'chunk');
  if (!chunk?.code) throw new Error('the service worker build produced no script');
  return chunk.code;
}

/**
 * /service-worker.js at the site root, where the Beams SDK looks for it (realtime.md 6.1): the Beams SDK
 * registers it as a classic worker, so it cannot be a module chunk of the app's own build.
 */
function serviceWorker(): Plugin {
  return {
    name: 'peerex-service-worker',
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: SERVICE_WORKER_FILE, source: await bundleServiceWorker() });
    },
    configureServer(server) {
      server.middlewares.use(`/${SERVICE_WORKER_FILE}`, (_request, response, next) => {
        bundleServiceWorker().then((code) => {
          response.setHeader('Content-Type', 'text/javascript');
          response.setHeader('Cache-Control', 'no-cache');
          response.end(code);
        }, next);
      });
    },
  };
}

/** Files worth compressing: text. Images other than SVG, fonts and source maps (read only by developer tools) are not. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
/** A file smaller than this gains less than a packet from compression. */
const PRECOMPRESS_MIN_BYTES = 512;
const brotli = promisify(brotliCompress);
const gzipFile = promisify(gzip);

/**
 * Every compressible file of the build beside a `.br` (brotli at its best quality) and a `.gz` (gzip level 9)
 * copy, made once here, so the server sends them with no compression work per request (@fastify/static's
 * `preCompressed`, server/src/plugins/web-app.ts). A copy that would not be smaller is not written.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'peerex-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          if (content.length < PRECOMPRESS_MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipFile(content, { level: 9 }),
          ]);
          if (br.length < content.length) await writeFile(`${file}.br`, br);
          if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true }), react(), serviceWorker(), precompress()],
  // MARKETING_URL (the logo's link) is read at build time, like any VITE_ variable.
  envPrefix: ['VITE_', 'MARKETING_URL'],
  resolve: { alias: { 'styled-system': new URL('./styled-system', import.meta.url).pathname } },
  server: { port: 5173, proxy: { '/api': apiTarget, '/app': { target: apiTarget, ws: true } } },
  preview: { proxy: { '/api': apiTarget } },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Every browser the product supports (those with web push and service workers) preloads modules itself;
    // the polyfill would only cost the first page its bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // zod's schema builders have no side effects: schemas only the server uses (request bodies) are dropped.
      treeshake: { manualPureFunctions: ['z', 'writtenText'] },
      output: {
        // Every chunk's name is written into the entry's preload map and into each import that loads it; a
        // 7-character hash (42 bits, rolldown's least for this many chunks) instead of 8 takes incompressible bytes out of
        // the first page's download (bench/bundle-size.ts).
        entryFileNames: 'assets/[name]-[hash:7].js',
        chunkFileNames: 'assets/[name]-[hash:7].js',
        codeSplitting: {
          groups: [
            // The contracts every page parses with, and zod, as one chunk; the desk's, profiles' and account protections'
            // contracts stay in their own pages' chunks (contracts/index.ts does not re-export them).
            { name: 'contracts', test: /\/contracts\/(?!moderation|traders|account-protections)|\/node_modules\/zod\// },
          ],
        },
      },
    },
  },
  test: {
    globals: true,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Server suites each boot their own database; more workers than cores only starves PGlite.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          setupFiles: ['tests/setup.ts'],
          include: ['tests/{machines,model,ui,routes,services}/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: { name: 'server', environment: 'node', include: ['tests/server/**/*.test.ts'] },
      },
      {
        extends: true,
        // The rules both sides share (domain/): pure logic, no browser, no database.
        test: { name: 'domain', environment: 'node', include: ['tests/domain/**/*.test.ts'] },
      },
    ],
  },
});
