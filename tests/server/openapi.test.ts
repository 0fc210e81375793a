/**
 * The OpenAPI document (GET /api/openapi.json) and its page (GET /api/docs): a valid OpenAPI 3.1 document
 * generated from the contracts, with every call the server registers and no call it does not, and a page that
 * runs under the product's Content-Security-Policy without inline script.
 */
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { refusal } from '../../contracts/common.ts';
import { offersRequest } from '../../contracts/market.ts';
import { loginRequest, recoveryCodesResponse, twoFactorRequest } from '../../contracts/security.ts';
import { tradeRequest } from '../../contracts/trade.ts';
import { walletRequest } from '../../contracts/wallet.ts';
import { deviceRegistration } from '../../packages/push-service/index.ts';
import { registeredRoutes } from '../support/route-tree.ts';
import { createTestApp, type TestApp } from '../support/server.ts';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** zod's own JSON Schema of a contract, as the document must carry it (less `$schema`: the document's dialect). */
function zodJsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = JSON.parse(JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }))) as Json;
  return rest;
}

/** The value a local `$ref` (`#/components/schemas/X`) points to, or undefined. */
function resolve(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => refsIn(item, found));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

/** A route and a documented path alike, parameters and wildcards as `{}`: `/api/market/chat/:channel/` → `/api/market/chat/{}`. */
const shapeOf = (route: string) =>
  route
    .replace(/\/+$/, '')
    .replace(/\/?\*$/, '/{}')
    .replace(/:[^/]+|\{[^}]+\}/g, '{}');

function documentedOperations(document: Json): Array<{ key: string; path: string; method: string; operation: Json }> {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((method) => method in item).map((method) => ({
      key: `${method.toUpperCase()} ${shapeOf(path)}`,
      path,
      method,
      operation: item[method] as Json,
    })),
  );
}

/** The request body schema of a documented call, its `$ref` followed. */
function requestSchemaOf(document: Json, path: string, method = 'post'): unknown {
  const operation = (document.paths as Record<string, Record<string, Json>>)[path]?.[method];
  const body = operation?.requestBody as { content: Record<string, { schema: { $ref: string } }> } | undefined;
  const schema = body?.content['application/json']?.schema;
  return schema && resolve(document, schema.$ref);
}

describe('OpenAPI document and API reference page', () => {
  let t: TestApp;
  let document: Json;
  let raw: string;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    raw = response.body;
    document = response.json<Json>();
  });
  afterAll(() => t.close());

  it('docs/api.md names each call by its declaration, and every one it names is declared there and in the document', async () => {
    const prose = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const references = [...prose.matchAll(/`(GET|POST) (\/api\/[^`]+)` \(\[[^\]]+\]\(\.\.\/(server\/src\/[^)]+\.call\.ts)\)\)/g)];
    expect(references.length, 'Reference: lines in docs/api.md').toBeGreaterThan(20);
    const { loadCalls } = await import('../../server/src/infra/http/calls.ts');
    const declared = new Set((await loadCalls()).map((call) => `${call.method.toUpperCase()} ${call.path}`));
    for (const [, method = '', path = '', file = ''] of references) {
      const module = (await import(`../../${file}`)) as Record<string, { method?: string; path?: string }>;
      const inFile = Object.values(module).some((call) => call.method?.toUpperCase() === method && call.path === path);
      expect(inFile, `${method} ${path} is declared in ${file}`).toBe(true);
      expect(declared.has(`${method} ${path}`), `${method} ${path} is a call of the server`).toBe(true);
      expect((document.paths as Record<string, Json>)[path]?.[method.toLowerCase()], `${method} ${path} is in the document`).toBeDefined();
    }
  });

  describe('GET /api/openapi.json', () => {
    it('answers JSON, public, not kept by any cache, the same document each time', async () => {
      const again = await t.app.inject({ method: 'GET', url: '/api/openapi.json/' });
      expect(again.statusCode).toBe(200);
      expect(again.headers['content-type']).toMatch(/^application\/json/);
      expect(again.headers['cache-control']).toBe('no-store');
      expect(again.headers['x-content-type-options']).toBe('nosniff');
      expect(again.body).toBe(raw);
    });

    it('is an OpenAPI 3.1 document in shape: info, paths whose operations all have responses, unique operation ids', () => {
      expect(document.openapi).toMatch(/^3\.1\.\d+$/);
      expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
      const operations = documentedOperations(document);
      expect(operations.length).toBeGreaterThan(40);
      for (const { key, operation } of operations) {
        const responses = operation.responses as Record<string, Json>;
        expect(Object.keys(responses).length, key).toBeGreaterThan(0);
        expect(Object.keys(responses).some((status) => /^2\d\d$/.test(status)), `${key} has a success`).toBe(true);
        for (const [status, response] of Object.entries(responses)) {
          expect(status, key).toMatch(/^[1-5]\d\d$/);
          expect(response.description, `${key} ${status}`).toEqual(expect.any(String));
        }
        // Every path parameter is declared.
        const declared = ((operation.parameters ?? []) as Json[]).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
        const inPath = [...(operations.find((entry) => entry.operation === operation)?.path ?? '').matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
        expect(declared.sort(), key).toEqual(inPath.sort());
      }
      const ids = operations.map(({ operation }) => operation.operationId);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('resolves every $ref, and names only security schemes it defines', () => {
      const refs = refsIn(document);
      expect(refs.length).toBeGreaterThan(100);
      for (const ref of new Set(refs)) expect(resolve(document, ref), ref).toBeDefined();
      const schemes = Object.keys((document.components as { securitySchemes: Json }).securitySchemes);
      for (const { key, operation } of documentedOperations(document)) {
        for (const requirement of (operation.security ?? []) as Json[]) {
          for (const name of Object.keys(requirement)) expect(schemes, key).toContain(name);
        }
      }
    });

    it('has every route the server registers, and no call the server does not have', () => {
      const documented = documentedOperations(document).map(({ key }) => key).sort();
      const registered = registeredRoutes(t.app).map((route) => {
        const [method = '', path = ''] = route.split(' ');
        return `${method} ${shapeOf(path)}`;
      });
      expect(new Set(documented).size, 'one operation per route').toBe(documented.length);
      expect(registered.filter((route) => !documented.includes(route)), 'registered by hand instead of declared (infra/http/call.ts)').toEqual([]);
      expect(documented.filter((route) => !registered.includes(route)), 'documented, not registered').toEqual([]);
    });

    it('flags the development helpers, and only them, as development-only', () => {
      for (const { key, path, operation } of documentedOperations(document)) {
        expect(operation['x-development-only'] === true, key).toBe(path.startsWith('/api/dev/'));
      }
      expect(documentedOperations(document).filter(({ path }) => path.startsWith('/api/dev/')).length).toBe(2);
    });

    it('asks for the bearer session token on signed-in calls, as the web app sends it', () => {
      const schemes = (document.components as { securitySchemes: Record<string, Json> }).securitySchemes;
      expect(schemes.session).toMatchObject({ type: 'http', scheme: 'bearer' });
      const operation = (document.paths as Record<string, Record<string, Json>>)['/api/user/overview/']?.post as Json;
      expect(operation.security).toEqual([{ session: [] }]);
      expect(Object.keys(operation.responses as Json)).toContain('401');
      const login = (document.paths as Record<string, Record<string, Json>>)['/api/security/login/']?.post as Json;
      expect(login.security).toEqual([]);
    });

    it("carries zod's own JSON Schema of the contracts: request bodies as input", () => {
      expect(requestSchemaOf(document, '/api/security/login/')).toEqual(zodJsonSchema(loginRequest, 'input'));
      expect(requestSchemaOf(document, '/api/security/two_factor/')).toEqual(zodJsonSchema(twoFactorRequest, 'input'));
      expect(requestSchemaOf(document, '/api/market/trade/')).toEqual(zodJsonSchema(tradeRequest, 'input'));
      expect(requestSchemaOf(document, '/api/market/offers/')).toEqual(zodJsonSchema(offersRequest, 'input'));
      expect(requestSchemaOf(document, '/api/user/wallet/')).toEqual(zodJsonSchema(walletRequest, 'input'));
      expect(requestSchemaOf(document, '/push/device_api/v1/instances/{instanceId}/devices/web')).toEqual(zodJsonSchema(deviceRegistration, 'input'));
      // A call chosen by `type` takes the union of its bodies.
      expect(Object.keys(requestSchemaOf(document, '/api/market/trade/') as Json)).toEqual(['oneOf']);
    });

    it("and answers as output: the envelope with `info` one of the call's payloads, refusals as the refusal envelope", () => {
      const operation = (document.paths as Record<string, Record<string, Json>>)['/api/security/two_factor/']?.post as Json;
      const responses = operation.responses as Record<string, { content: Record<string, { schema: Json }> }>;
      const success = responses['200']?.content['application/json']?.schema as { properties: { success: Json; info: { oneOf: Array<{ $ref: string }> } } };
      expect(success.properties.success).toEqual({ type: 'boolean', const: true });
      const payloads = success.properties.info.oneOf.map((member) => resolve(document, member.$ref));
      expect(payloads).toHaveLength(4);
      expect(payloads).toContainEqual(zodJsonSchema(recoveryCodesResponse, 'output'));
      expect(payloads).toContainEqual({ type: 'string' });
      const refused = responses['409']?.content['application/json']?.schema as { $ref: string };
      expect(resolve(document, refused.$ref)).toEqual(zodJsonSchema(refusal, 'output'));
    });
  });

  describe('GET /api/docs', () => {
    it('answers a page that loads Scalar and its start-up from this server, with no inline script', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/docs' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      const scripts = [...response.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.map((script) => /src="([^"]+)"/.exec(script[1] ?? '')?.[1])).toEqual(['/api/docs/scalar.js', '/api/docs/init.js']);
      for (const script of scripts) expect(script[2]?.trim()).toBe('');
      expect(response.body).not.toMatch(/https?:\/\//);
    });

    it("keeps the product's script policy; only styles may be inline, on this page alone", async () => {
      const policyOf = async (url: string) => {
        const header = String((await t.app.inject({ method: 'GET', url })).headers['content-security-policy']);
        return Object.fromEntries(header.split(';').map((directive) => directive.trim().split(/\s+/)).map(([name = '', ...sources]) => [name, sources]));
      };
      const page = await policyOf('/api/docs');
      expect(page['script-src']).toEqual(["'self'"]);
      expect(page['default-src']).toEqual(["'self'"]);
      expect(page['connect-src']).toEqual(["'self'"]);
      expect(page['frame-ancestors']).toEqual(["'none'"]);
      expect(page['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
      expect((await policyOf('/api/openapi.json'))['style-src']).toEqual(["'self'"]);
      expect((await policyOf('/api/docs/init.js'))['style-src']).toEqual(["'self'"]);
    });

    it('serves the start-up script: Scalar on this document, without fonts, telemetry, proxy or API client', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/docs/init.js' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/javascript/);
      expect(response.body).toContain('Scalar.createApiReference(');
      const configuration = JSON.parse(/createApiReference\('[^']+', (\{.*\})\);/.exec(response.body)?.[1] ?? '{}') as Json;
      expect(configuration).toMatchObject({ url: '/api/openapi.json', withDefaultFonts: false, telemetry: false, hideClientButton: true });
      expect(configuration).not.toHaveProperty('proxyUrl');
    });

    it("serves Scalar's standalone bundle as JavaScript", async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/docs/scalar.js' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/javascript/);
      expect(response.body.length).toBeGreaterThan(1_000_000);
      expect(response.body).toContain('createApiReference');
    });

    it('sends the bundle compressed as the client accepts, compressed once rather than per request', async () => {
      const get = (acceptEncoding: string) => t.app.inject({ method: 'GET', url: '/api/docs/scalar.js', headers: { 'accept-encoding': acceptEncoding } });
      const plain = await get('identity');
      const [first, second] = [await get('gzip, deflate, br'), await get('br')];
      expect(first.headers['content-encoding']).toBe('br');
      expect(first.headers.vary).toMatch(/accept-encoding/i);
      // The same buffer each time: nothing is compressed again.
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(brotliDecompressSync(first.rawPayload).equals(plain.rawPayload)).toBe(true);
      const gz = await get('br;q=0, gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
      expect(plain.headers['content-encoding']).toBeUndefined();
    });
  });
});
