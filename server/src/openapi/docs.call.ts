import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { apiNames } from '../../../contracts/common.ts';
import { defineCall, json } from '../infra/http/call.ts';
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

const scalarBundle = compressedOnce(SCALAR_BUNDLE);

/** Built at the first request and kept: the calls of a running app do not change. */
const documents = new WeakMap<FastifyInstance, string>();
function openApiDocumentOf(app: FastifyInstance): string {
  let document = documents.get(app);
  if (document === undefined) {
    document = JSON.stringify(buildOpenApiDocument({ version: productVersion(), calls: app.documentedCalls }));
    documents.set(app, document);
  }
  return document;
}

/** What the document is, as far as a caller of GET /api/openapi.json may rely on it. */
const openApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
  .register(apiNames, { id: 'OpenApiDocument' });

export const openApiCall = defineCall({
  method: 'get',
  path: '/api/openapi.json',
  tag: 'System',
  summary: 'This OpenAPI document',
  description: 'The OpenAPI 3.1 document of every call, generated from the zod schemas in `contracts/` when the server starts.',
  access: 'public',
  answer: json(openApiDocument),
  handle: async ({ app, reply }) => reply.type('application/json; charset=utf-8').send(openApiDocumentOf(app)),
});

export const docsPageCall = defineCall({
  method: 'get',
  path: '/api/docs',
  tag: 'System',
  summary: 'API reference page',
  description: 'This document as a readable page (Scalar), served from the product itself: no CDN, no request to any other site.',
  access: 'public',
  answer: { kind: 'text', contentType: 'text/html', what: 'The page.' },
  handle: async ({ reply }) => reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).send(PAGE),
});

export const scalarScriptCall = defineCall({
  method: 'get',
  path: '/api/docs/scalar.js',
  tag: 'System',
  summary: 'API reference page: Scalar',
  description: "The API reference page's script: Scalar's standalone browser bundle (`@scalar/api-reference`), as installed.",
  access: 'public',
  answer: { kind: 'text', contentType: 'text/javascript', what: 'The script.' },
  // Not through the API's per-request compression (infra/api-compression.plugin.ts): sent as compressed once.
  compress: false,
  handle: async ({ request, reply }) => {
    const copies = await scalarBundle();
    // The client's preference among ours, as @fastify/static and @fastify/compress read it (`br;q=0` refuses brotli).
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
    reply.type('text/javascript; charset=utf-8').header('vary', 'accept-encoding');
    return encoding ? reply.header('content-encoding', encoding).send(copies[encoding]) : reply.send(copies.raw);
  },
});

export const docsStartCall = defineCall({
  method: 'get',
  path: '/api/docs/init.js',
  tag: 'System',
  summary: 'API reference page: start-up',
  description:
    "Starts Scalar on the API reference page with this document, without fonts, telemetry, proxy or API client (the page's Content-Security-Policy allows no inline script).",
  access: 'public',
  answer: { kind: 'text', contentType: 'text/javascript', what: 'The script.' },
  handle: async ({ reply }) => reply.type('text/javascript; charset=utf-8').send(INIT_SCRIPT),
});
