/// <reference types="vitest/config" />
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { build, createServer, defineConfig, minify, type Plugin } from 'vite';
import type { PrerenderAudience } from './src/prerender.tsx';
import { OFFLINE_FILES } from './src/sw/offline.ts';
import react from '@vitejs/plugin-react';
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel';
import { lingui } from '@lingui/vite-plugin';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

/**
 * Lingui (docs/i18n.md): its macros (`Trans`, `t`, `msg`) compiled by Babel before the React plugin, only in the
 * files that import them (Lingui 6's `linguiTransformerBabelPreset` does the same; Lingui 6 needs Node 22, the
 * product runs on 20); and the catalogs (src/locales/*.po) compiled when imported, a chunk per language.
 */
const linguiMacros = defineRolldownBabelPreset({
  preset: { plugins: ['@lingui/babel-plugin-lingui-macro'] },
  rolldown: { filter: { code: /from ['"]@lingui\/(?:core|react)\/macro['"]/ } },
});
const i18nPlugins = () => [babel({ presets: [linguiMacros] }), lingui({ failOnCompileError: true })];

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

const SERVICE_WORKER_SOURCE = new URL('./src/sw/service-worker.ts', import.meta.url).pathname;
const SERVICE_WORKER_FILE = 'service-worker.js';

/** The offline files' hash: written into the worker, so a new offline page is a new worker, which keeps it anew. */
async function offlineVersion(): Promise<string> {
  const hash = createHash('sha256');
  for (const path of OFFLINE_FILES) hash.update(await readFile(new URL(`./public${path}`, import.meta.url)));
  return hash.digest('base64url').slice(0, 12);
}

/** src/sw/service-worker.ts as one self-contained classic script (no `import`), bundled by Vite itself. */
async function bundleServiceWorker(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    define: { __PEEREX_OFFLINE_VERSION__: JSON.stringify(await offlineVersion()) },
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
 * /service-worker.js at the site root, where the Beams SDK looks for it (docs/pusher-and-beams.md "Service worker"): the Beams SDK
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
 * `preCompressed`, server/src/infra/web-app.plugin.ts). A copy that would not be smaller is not written.
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

/** Panda's generated runtime (`styled-system/css`), for the app's build and the prerender's module loader alike. */
const STYLED_SYSTEM_ALIAS = { 'styled-system': new URL('./styled-system', import.meta.url).pathname };
const ROUTES_DIR = new URL('./src/routes/', import.meta.url).pathname;
/** Where the pages and their index go in the build; the server reads PAGES_INDEX (server/src/infra/web-app.plugin.ts). */
const PAGES_DIR = 'pages';
const PAGES_INDEX = `${PAGES_DIR}/pages.json`;

/** `_app/offers/$id` → `/offers/$id`: pathless layouts (`_x`) and `index` add no segment. */
const routePathOf = (routeId: string) =>
  `/${routeId
    .split('/')
    .filter((segment) => !segment.startsWith('_') && segment !== 'index')
    .join('/')}`;

/** The modules of the `forms` chunk (see codeSplitting below). */
const FORMS_CHUNK = new RegExp(
  [
    '/src/ui/primitives/(looks|Card|Form|TextField|PasswordField)\\.tsx?$',
    '/src/ui/auth/(fields|AuthLayout)\\.tsx$',
    '/src/machines/codeEntry/',
    '/src/machines/shared/(rules|validation|binding)\\.ts$',
    '/domain/(money|offerConditions)\\.ts$',
    '/src/ui/format/money\\.ts$',
    '/src/routes/-useFlow\\.ts$',
    '/node_modules/@ark-ui/react/dist/(components/(field|password-input)/|utils/create-split-props)',
    '/node_modules/@zag-js/password-input/',
  ].join('|'),
);

const EMPTY_ROOT = '<div id="root"></div>';
/** Who a route's page is drawn for at build time: the signed-out pages' visitors, or the product's signed-in traders. */
const audienceOf = (routeId: string): PrerenderAudience | undefined =>
  routeId.startsWith('_public/') ? 'signed-out' : routeId.startsWith('_app/') ? 'signed-in' : undefined;
const AFTER_PAINT_SOURCE = new URL('./src/boot/after-paint.js', import.meta.url);
const LOCALE_SOURCE = new URL('./src/boot/locale.js', import.meta.url);
/** A language's catalog module (src/i18n/catalogs.ts): `src/locales/pt-BR.po` → `pt-BR`. */
const CATALOG_MODULE = /\/src\/locales\/([A-Za-z-]+)\.po$/;

/** A classic script (not a module: its top level is the page's) as the build ships it. */
async function minifiedScript(source: URL): Promise<string> {
  const { code, errors } = await minify(source.pathname, await readFile(source, 'utf8'), { module: false });
  if (errors.length > 0) throw new Error(`${source.pathname}: ${errors.map((error) => error.message).join('; ')}`);
  return code;
}

/** src/prerender.tsx, loaded through Vite's own SSR module loader (no second bundle to build). */
async function startPrerenderer() {
  const server = await createServer({
    configFile: false,
    root: new URL('.', import.meta.url).pathname,
    plugins: [...i18nPlugins(), react()],
    resolve: { alias: STYLED_SYSTEM_ALIAS },
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: 'custom',
    logLevel: 'warn',
  });
  const module = (await server.ssrLoadModule('/src/prerender.tsx')) as typeof import('./src/prerender.tsx');
  return { render: module.prerender, close: () => server.close() };
}

/**
 * One copy of index.html per page route (`pages/_app.offers.$id.html`), each with `modulepreload` links for the
 * chunks that route's components need (its own, its layouts', and what they import statically), and an index of
 * route paths to pages for the server. The first visit then fetches the route's code together with the entry
 * instead of after it has run: one round trip less before the page shows, and nothing preloaded that the page
 * does not use. Pages without a parameter also carry their HTML (src/prerender.tsx), so they show before any
 * script runs: the signed-out pages as they are, the signed-in ones as the product looks before the trader's data.
 */
function routePages(): Plugin {
  let outDir = 'dist';
  return {
    name: 'peerex-route-pages',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (files: string[], into = new Set<string>()) => {
        for (const file of files) {
          if (into.has(file)) continue;
          into.add(file);
          closure(byFile.get(file)?.imports ?? [], into);
        }
        return into;
      };
      const entries = chunks.filter((chunk) => chunk.isEntry);
      if (entries.length !== 1) throw new Error(`route pages: expected the one entry (index.html), found ${entries.length}`);
      // The entry and its stages (src/main.tsx), which it imports dynamically: every page preloads them all.
      const entry = entries[0]!;
      const loadedByEntry = closure([entry.fileName, ...entry.dynamicImports]);
      const chunkOfModule = new Map(chunks.flatMap((chunk) => chunk.moduleIds.map((id) => [id, chunk.fileName] as const)));
      // Route id (`_public/login`, `__root`) → the chunks holding its split-off parts (component, pending, error)...
      const routeChunks = new Map<string, string[]>();
      const addRouteChunk = (routeId: string, file: string) => routeChunks.set(routeId, [...(routeChunks.get(routeId) ?? []), file]);
      for (const chunk of chunks) {
        for (const id of chunk.moduleIds) {
          const [file, query] = id.split('?');
          if (!query?.includes('tsr-split') || !file?.startsWith(ROUTES_DIR)) continue;
          addRouteChunk(relative(ROUTES_DIR, file).replace(/\.tsx?$/, ''), chunk.fileName);
        }
      }
      // ...and the chunks its own module imports dynamically: what a route's `beforeLoad` awaits before anything
      // renders (the signed-in layout's top bar), which would otherwise be fetched only once the entry has run.
      for (const id of this.getModuleIds()) {
        if (id.includes('?') || !id.startsWith(ROUTES_DIR) || !/\.tsx$/.test(id)) continue;
        for (const imported of this.getModuleInfo(id)?.dynamicallyImportedIds ?? []) {
          const file = chunkOfModule.get(imported);
          if (file && !imported.includes('?tsr-split')) addRouteChunk(relative(ROUTES_DIR, id).replace(/\.tsx$/, ''), file);
        }
      }
      const leaves = (await readdir(ROUTES_DIR, { recursive: true }))
        .filter((file) => /\.tsx$/.test(file) && !file.split('/').some((part) => part.startsWith('-')))
        .map((file) => file.replace(/\.tsx$/, ''))
        .filter((routeId) => routeId !== '__root' && !/^_[^/]+$/.test(routeId));
      // Every page picks its language before its first paint (src/boot/locale.js, render-blocking in the head) and
      // preloads that language's catalog, a chunk of its own: data-catalogs maps each language to its chunk.
      const catalogs = chunks.flatMap((chunk) =>
        chunk.moduleIds.flatMap((id) => {
          const locale = CATALOG_MODULE.exec(id)?.[1];
          return locale ? [`${locale}=/${chunk.fileName}`] : [];
        }),
      );
      const localeSource = await minifiedScript(LOCALE_SOURCE);
      const localeScript = `assets/locale-${createHash('sha256').update(localeSource).digest('base64url').slice(0, 8)}.js`;
      await writeFile(join(outDir, localeScript), localeSource);
      const localeTag = `<script src="/${localeScript}" data-catalogs="${catalogs.join(' ')}"></script>`;
      const builtHtml = await readFile(join(outDir, 'index.html'), 'utf8');
      if (!/<title>/.test(builtHtml)) throw new Error('route pages: index.html has no <title>');
      const html = builtHtml.replace(/^(\s*)<title>/m, `$1${localeTag}\n$1<title>`);
      if (!html.includes(EMPTY_ROOT)) throw new Error(`route pages: index.html has no ${EMPTY_ROOT}`);
      const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
      if (!entryTag) throw new Error('route pages: index.html has no module script');
      const entrySrc = entryTag[1]!;
      const staticPreloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]!);
      const stagePreloads = [...loadedByEntry].map((file) => `/${file}`).filter((src) => src !== entrySrc && !staticPreloads.includes(src));
      const entryPreloads = [...staticPreloads, ...stagePreloads];
      const preloadLinks = (srcs: string[]) => srcs.map((src) => `    <link rel="modulepreload" crossorigin href="${src}">\n`).join('');
      // index.html (what the server answers for a path no route has) preloads the stages too.
      await writeFile(join(outDir, 'index.html'), html.replace(/^(\s*)<\/head>/m, `${preloadLinks(stagePreloads)}$1</head>`));
      // Minified: it is copied, not bundled, and its comments were half of what /login's first visit downloads of it.
      const afterPaintSource = await minifiedScript(AFTER_PAINT_SOURCE);
      const afterPaint = `assets/after-paint-${createHash('sha256').update(afterPaintSource).digest('base64url').slice(0, 8)}.js`;
      await writeFile(join(outDir, afterPaint), afterPaintSource);
      const prerenderer = await startPrerenderer();
      /** The page's markup inside #root, or undefined when the page is not drawn at build time for that audience. */
      const prerendered = async (path: string, audience: PrerenderAudience) => {
        const rendered = await prerenderer.render(path, audience);
        if (rendered === undefined) return undefined;
        // Shown before the app runs, and only to be looked at: inert, its fields and buttons disabled, so nothing
        // typed or clicked there is lost when the live page takes its place. Without the router's scroll-restoring
        // script and the toaster's style attribute: the pages' CSP allows no inline script or style, and neither
        // does anything before the app runs. A signed-in page is shown only to a browser that holds a session
        // (src/index.css, src/boot/after-paint.js): anyone else is on their way to /login.
        const markup = rendered
          .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
          .replace(/ style="[^"]*"/g, '')
          .replace(/<(input|button|select|textarea)\b/g, '<$1 disabled');
        return `<div id="root"><div inert data-prerendered="${audience}">${markup}</div></div>`;
      };
      const pages: { path: string; page: string }[] = [];
      await mkdir(join(outDir, PAGES_DIR), { recursive: true });
      for (const leaf of leaves) {
        const parts = leaf.split('/');
        const layouts = ['__root', ...parts.slice(0, -1).map((_part, index) => parts.slice(0, index + 1).join('/'))];
        const needed = closure([...layouts, leaf].flatMap((routeId) => routeChunks.get(routeId) ?? []));
        const routeScripts = [...needed].filter((file) => !loadedByEntry.has(file)).map((file) => `/${file}`);
        const page = `${PAGES_DIR}/${leaf.replaceAll('/', '.')}.html`;
        const path = routePathOf(leaf);
        // Pages with a parameter (an offer, a trader) are not drawn ahead: what they show is the parameter's.
        const audience = audienceOf(leaf);
        const root = audience && !path.includes('$') ? await prerendered(path, audience) : undefined;
        if (root === undefined) {
          await writeFile(join(outDir, page), html.replace(/^(\s*)<\/head>/m, `${preloadLinks([...stagePreloads, ...routeScripts])}$1</head>`));
        } else {
          // The page's HTML, and its scripts (the entry's preloads and the route's) started by the after-paint loader.
          const loader = `<script defer src="/${afterPaint}" data-entry="${entrySrc}" data-preloads="${[...entryPreloads, ...routeScripts].join(' ')}"></script>`;
          const prerenderedPage = html
            .replace(entryTag[0], loader)
            .replace(/^\s*<link rel="modulepreload"[^>]*>\n/gm, '')
            .replace(EMPTY_ROOT, root);
          await writeFile(join(outDir, page), prerenderedPage);
        }
        pages.push({ path: routePathOf(leaf), page });
      }
      await prerenderer.close();
      await writeFile(join(outDir, PAGES_INDEX), `${JSON.stringify(pages, null, 2)}\n`);
    },
  };
}

export default defineConfig({
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true }), ...i18nPlugins(), react(), serviceWorker(), routePages(), precompress()],
  // MARKETING_URL (the logo's link) is read at build time, like any VITE_ variable.
  envPrefix: ['VITE_', 'MARKETING_URL'],
  resolve: { alias: STYLED_SYSTEM_ALIAS },
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
            // The entry's stages (src/main.tsx), one chunk each: React DOM; zod; the contracts every page parses with (the
            // desk's, profiles', account protections' and the operator console's stay in their own pages' chunks: contracts/index.ts does not
            // re-export them); TanStack Router's packages (with them the app's evaluation was still one of a signed-in
            // page's longest tasks); the app, with everything else it imports statically. A few scripts on a first visit (and
            // the route's, preloaded by its page, see routePages) instead of a dozen small shared chunks over HTTP/1.1's
            // six connections. Vite's preload helper, which the entry's imports go through, is in none of them: the
            // entry would import that stage statically and evaluate it at once.
            { name: 'preload', test: /vite\/preload-helper/, priority: 5 },
            { name: 'react', test: /\/node_modules\/(react|react-dom|scheduler)\//, priority: 4 },
            { name: 'zod', test: /\/node_modules\/zod\//, priority: 4 },
            { name: 'router', test: /\/node_modules\/@tanstack\/(react-router|router-core|history|store|react-store)\//, priority: 4 },
            { name: 'contracts', test: /\/contracts\/(?!moderation|traders|account-protections|operator)/, priority: 3 },
            { name: 'app', test: /\/src\/app\.tsx$/, priority: 2 },
            // What the signed-out pages' forms share (the fields and their Ark parts, the form's looks and rules, the
            // flow binding), one chunk instead of a dozen of a few hundred bytes each: every chunk costs the first
            // visit its own imports and exports by hashed name, which do not compress. Signed-in pages use them too.
            { name: 'forms', test: FORMS_CHUNK, priority: 1 },
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
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // Migrates once per run on PGlite and on PostgreSQL; each test app starts from a copy (tests/README.md).
          globalSetup: ['tests/support/migrated-databases.ts'],
        },
      },
      {
        extends: true,
        // The rules both sides share (domain/): pure logic, no browser, no database.
        test: { name: 'domain', environment: 'node', include: ['tests/domain/**/*.test.ts'] },
      },
      {
        extends: true,
        // The import boundaries and the comments' citations, read from the files: no browser, no database.
        test: { name: 'architecture', environment: 'node', include: ['tests/architecture/**/*.test.ts'] },
      },
      {
        extends: true,
        // The packages' own tests (packages/<name>/tests/), next to what they test.
        test: { name: 'packages', environment: 'node', include: ['packages/*/tests/**/*.test.ts'] },
      },
    ],
  },
});
