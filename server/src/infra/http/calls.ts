import type { FastifyInstance, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { SECRET_ANSWER } from '../api-compression.plugin.ts';
import { isDirectLocalRequest } from './client-address.ts';
import { parseBody } from './parse-body.ts';
import { refuse } from '../../sentences.ts';
import type { Call, CallContext, RateLimitName } from './call.ts';
import { SERVER_SOURCE } from './call-files.ts';
import { importCallFiles } from './call-modules.ts';

/**
 * Every call of the server, from the `*.call.ts` files of its feature folders (each exports its calls: one
 * `defineCall` as the default export, or several as named exports). Sorted by path and method, so the routes
 * and the OpenAPI document come out the same on every machine. A file that exports no call is a mistake and
 * throws, as does a method and path declared twice.
 */
export function loadCalls(root = SERVER_SOURCE): Promise<readonly Call[]> {
  // The files do not change while the process runs: found and imported once, however many apps it builds.
  let loading = loaded.get(root);
  if (!loading) {
    loading = findCalls(root);
    loaded.set(root, loading);
  }
  return loading;
}

const loaded = new Map<string, Promise<readonly Call[]>>();

async function findCalls(root: string): Promise<readonly Call[]> {
  const calls: Call[] = [];
  for (const [file, module] of await importCallFiles(root)) {
    const declared = Object.values(module).filter(isCall);
    if (declared.length === 0) throw new Error(`${file} declares no call (export a defineCall(…))`);
    calls.push(...declared);
  }
  const seen = new Set<string>();
  for (const call of calls) {
    const key = `${call.method.toUpperCase()} ${call.path}`;
    if (seen.has(key)) throw new Error(`${key} is declared twice`);
    seen.add(key);
  }
  return calls.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

const isCall = (value: unknown): value is Call =>
  typeof value === 'object' && value !== null && 'handle' in value && 'path' in value && 'method' in value && 'access' in value;

/** `/api/market/chat/{channel}/` → `/api/market/chat/:channel/`, Fastify's way. */
const routePathOf = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

const limiterOf = (app: FastifyInstance, name: RateLimitName): onRequestAsyncHookHandler =>
  ({
    security: app.securityRateLimit,
    realtimeAuth: app.realtimeAuthRateLimit,
    tradeOpen: app.tradeOpenRateLimit,
    chatMessage: app.chatMessageRateLimit,
    chatRead: app.chatReadRateLimit,
    withdrawal: app.withdrawalRateLimit,
  })[name];

/**
 * A development helper answers only a request straight from this machine: one that came through a proxy (a
 * tunnel, a dev proxy with X-Forwarded-For) may come from anywhere. app.ts registers them only where they may exist.
 */
const fromThisMachineOnly: onRequestAsyncHookHandler = async (request) => {
  if (!isDirectLocalRequest(request)) throw refuse.noSuchCall();
};

/**
 * Registers calls as routes: the access hooks (`session`, `trader` and `websocket` before the handler, `moderator`,
 * `operator` and `metrics` as the request arrives, before the body is read), the call's budget, its body parsed by its
 * request schema, its per-type budget once the body says what it asks, then its handler.
 */
export function registerCalls(app: FastifyInstance, calls: readonly Call[]) {
  for (const call of calls) {
    if (call.servedWhen && !call.servedWhen(app)) continue;
    if (call.request?.contentTypes?.includes(FORM)) {
      // Form bodies (pusher-js's channel authorization) only in this call's own scope: every other call stays JSON only.
      void app.register(async (scope) => {
        scope.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
        });
        registerCall(scope, call);
      });
    } else registerCall(app, call);
  }
}

const FORM = 'application/x-www-form-urlencoded';

function registerCall(app: FastifyInstance, call: Call) {
  const onRequest: onRequestAsyncHookHandler[] = [];
  const preHandler: preHandlerAsyncHookHandler[] = [];
  if (call.developmentOnly) onRequest.push(fromThisMachineOnly);
  if (call.rateLimit?.call) onRequest.push(limiterOf(app, call.rateLimit.call));
  if (call.access === 'moderator') onRequest.push(app.requireModerator);
  if (call.access === 'operator') onRequest.push(app.requireOperator);
  if (call.access === 'metrics') onRequest.push(app.requireMetricsAccess);
  if (call.access === 'session') preHandler.push(app.requireSession);
  // After the body is parsed, as `session`: a trader's calls answer a broken body and a missing session as before.
  if (call.access === 'trader') preHandler.push(app.requireTrader);
  if (call.access === 'websocket') preHandler.push(app.requireRealtimeSession);
  // Looked up once here, not on every request: this call's per-`type` budgets, by body type.
  const typeLimits = new Map(Object.entries(call.rateLimit?.types ?? {}).map(([type, name]) => [type, limiterOf(app, name as RateLimitName)]));

  app.route({
    method: call.method.toUpperCase() as Uppercase<Call['method']>,
    url: routePathOf(call.path),
    onRequest,
    preHandler,
    ...(call.compress === false ? SECRET_ANSWER : {}),
    handler: async (request, reply) => {
      const context: CallContext<unknown> = { app, request, reply, body: undefined };
      // No body reads as `{}` (parse-body.ts), so an optional body may be left out and one that is sent must fit.
      if (call.request) {
        try {
          context.body = parseBody(call.request.schema, request.body);
        } catch (error) {
          await call.onInvalidBody?.(context);
          throw error;
        }
      }
      const type = (context.body as { type?: unknown } | undefined)?.type;
      const limit = typeof type === 'string' ? typeLimits.get(type) : undefined;
      if (limit) await limit.call(app, request, reply);
      return (call.handle as (context: CallContext<unknown>) => Promise<unknown>)(context);
    },
  });
}
