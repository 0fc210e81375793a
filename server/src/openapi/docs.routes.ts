import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { buildOpenApiDocument, productVersion } from './document.ts';
import { CONTENT_SECURITY_POLICY } from '../infra/security-headers.plugin.ts';

/**
 * GET /api/openapi.json, the OpenAPI document of every call (server/src/openapi/), and GET /api/docs, the same
 * as a page: Scalar's standalone bundle, served from the installed package rather than a CDN, started by a
 * script of ours because the Content-Security-Policy allows no inline script.
 */

/** Scalar's standalone browser bundle; the package's exports do not name it, so it is found next to its entry. */
export const SCALAR_BUNDLE = join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser', 'standalone.js');

/**
 * Nothing from any other site: system fonts instead of Scalar's font CDN, no telemetry, no request proxy, and
 * neither the API client nor the AI agent or MCP buttons, which would call out (connect-src is 'self' anyway).
 */
export const SCALAR_CONFIGURATION = {
  url: '/api/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: 'json',
  metaData: { title: 'Peerex API reference' },
} as const;

const INIT_SCRIPT = `Scalar.createApiReference('#api-reference-app', ${JSON.stringify(SCALAR_CONFIGURATION)});\n`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Peerex API reference</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <div id="api-reference-app"></div>
    <script src="/api/docs/scalar.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;

/**
 * The product's policy, except that Scalar adds its stylesheet as a `<style>` element: inline styles are allowed on
 * this page only. Scripts stay 'self' without 'unsafe-inline'.
 */
const PAGE_CSP = Object.entries({ ...CONTENT_SECURITY_POLICY, 'style-src': [...CONTENT_SECURITY_POLICY['style-src'], "'unsafe-inline'"] })
  .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
  .join(';');

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Scalar's bundle (4.3 MB) read and compressed once, at the first request for it: compressed per request, this
 * public call would cost a tenth of a second of CPU each, which anyone could ask for in a loop.
 */
function compressedOnce(file: string) {
  let copies: Promise<{ raw: Buffer; br: Buffer; gzip: Buffer }> | undefined;
  return () =>
    (copies ??= readFile(file).then(async (raw) => {
      const [br, gz] = await Promise.all([brotli(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 6 } }), gzipAsync(raw, { level: 6 })]);
      return { raw, br, gzip: gz };
    }));
}

export default async function docsRoutes(app: FastifyInstance) {
  const scalarBundle = compressedOnce(SCALAR_BUNDLE);
  // Once, at the first request for it (about 20 ms, which every start would otherwise pay): the catalogue does not
  // change while the server runs.
  let document: string | undefined;
  const openApiDocument = () => (document ??= JSON.stringify(buildOpenApiDocument({ version: productVersion() })));

  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(openApiDocument()));
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).send(PAGE));
  app.get('/docs/init.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(INIT_SCRIPT));
  // Not through the API's per-request compression (infra/api-compression.plugin.ts): sent as compressed once.
  app.get('/docs/scalar.js', { compress: false }, async (request, reply) => {
    const copies = await scalarBundle();
    // The client's preference among ours, as @fastify/static and @fastify/compress read it (`br;q=0` refuses brotli).
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
    reply.type('text/javascript; charset=utf-8').header('vary', 'accept-encoding');
    return encoding ? reply.header('content-encoding', encoding).send(copies[encoding]) : reply.send(copies.raw);
  });
}
