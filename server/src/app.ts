import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Config } from './config.ts';
import type { PgliteBoot } from './infra/db/pglite.ts';
import { hostRules } from './infra/http/allowed-hosts.ts';
import { isLoopbackHost, proxyTrust } from './infra/http/client-address.ts';
import { sendRefusal } from './infra/http/errors.ts';
import { refuse } from './sentences.ts';
import type { MailTransport } from './infra/mail.ts';
import { OWASP_ARGON2ID, type Argon2Parameters } from './infra/passwords.ts';
import { accountsPlugin } from './accounts/accounts.plugin.ts';
import { authPlugin } from './accounts/sessions.plugin.ts';
import { corePlugin } from './infra/core.plugin.ts';
import { dbPlugin } from './infra/db/db.plugin.ts';
import { emailCodesPlugin } from './accounts/email-codes.plugin.ts';
import { loginGuardPlugin } from './accounts/login-guard.plugin.ts';
import { mailPlugin } from './infra/mail.plugin.ts';
import { metricsPlugin } from './operator/metrics.plugin.ts';
import { jobsPlugin } from './infra/jobs.ts';
import { priceTick, pricesPlugin } from './prices/prices.plugin.ts';
import { realtimePlugin } from './infra/realtime/realtime.plugin.ts';
import { deviceApiOptions, pushPlugin, pushWorkerJob, type PushPluginOptions } from './push/push.plugin.ts';
import { createDeviceApi, deviceApiCalls } from '../../packages/push-service/index.ts';
import { notificationsPlugin } from './notifications/notifications.plugin.ts';
import { chatPlugin } from './chat/chat.plugin.ts';
import { livePricesPlugin } from './prices/live-prices.plugin.ts';
import { offerListCachePlugin } from './offers/offer-list-cache.plugin.ts';
import { offersPlugin } from './offers/offers.plugin.ts';
import { reputationPlugin } from './reputation/reputation.plugin.ts';
import { paymentWindowSweep, tradesPlugin } from './trades/trades.plugin.ts';
import { moderationPlugin } from './moderation/moderation.plugin.ts';
import { operatorTradersPlugin } from './operator/traders.plugin.ts';
import type { PriceFeedAdapter } from './prices/adapters.ts';
import type { ChainAdapter } from './chain/adapter.ts';
import { chainPlugin, chainWatcherJob } from './chain/chain.plugin.ts';
import { walletKeysCheckPlugin, walletKeysPlugin } from './wallets/wallet-keys.plugin.ts';
import { walletsPlugin } from './wallets/wallets.plugin.ts';
import { operatorReviewPlugin } from './operator/operator-review.plugin.ts';
import { auditLogPlugin } from './audit/audit.plugin.ts';
import { operatorOverviewPlugin, overviewHoldingsJob, overviewLiveJob } from './operator/overview.plugin.ts';
import { rateLimitPlugin } from './infra/rate-limit.plugin.ts';
import { apiCompressionPlugin, loadFetchGlobals } from './infra/api-compression.plugin.ts';
import { securityHeadersPlugin } from './infra/security-headers.plugin.ts';
import { twoFactorPlugin } from './accounts/two-factor.plugin.ts';
import { hasWebApp, pageFinder, webAppPlugin } from './infra/web-app.plugin.ts';
import { Refusal } from './refusals.ts';
import { loadCalls, registerCalls } from './infra/http/calls.ts';
import type { Call, CallDocumentation } from './infra/http/call.ts';
import { TRIGGER_API_CALLS } from '../../packages/realtime/index.ts';
import { beamsIssuer } from './push/instance.ts';
import { externalSocketOrigin, realtimeSettings } from './infra/realtime/settings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every call this product declares, served here or not (the development helpers, the device API with hosted Beams): the OpenAPI document's list. */
    documentedCalls: readonly CallDocumentation[];
  }
}

export interface BuildAppOptions {
  config: Config;
  /** The clock of every rule with a time in it (code lifetime, lockout, TOTP, sessions). Default: the system clock. */
  now?: () => Date;
  /** Mail transport; default: SMTP_URL, or the dev outbox printed on the console. Tests inject an outbox. */
  mailTransport?: MailTransport;
  /**
   * argon2id parameters. The default is OWASP's and nothing but a test should change it; tests lower it
   * explicitly to stay fast.
   */
  argon2?: Argon2Parameters;
  /** Faster PGlite boots for test suites (see PgliteBoot). */
  pgliteBoot?: PgliteBoot;
  logger?: FastifyServerOptions['logger'];
  /** Replaces the price adapter PRICE_SOURCE names (tests: the simulated walk with a seeded random). */
  priceFeed?: PriceFeedAdapter;
  /** Replaces the chain adapter CHAIN_SOURCE names (tests: a chain that refuses or fails broadcasts). */
  chainAdapter?: ChainAdapter;
  /**
   * Calls besides the product's, registered like them but left out of the OpenAPI document. The product adds
   * none; bench/offers-list.ts and bench/chat-roundtrip.ts add their `SELECT 1` ceiling probes here, because
   * routes cannot be added once the app is ready.
   */
  extraCalls?: readonly Call[];
  /**
   * The web push worker and, test-only, where it sends: `agent` (an HTTPS agent trusting a test CA, for a
   * local push endpoint) and `beamsEndpoint` (a fake hosted Beams over plain HTTP). Default: the worker runs
   * except with NODE_ENV=test, where tests call `app.push.drain()`.
   */
  push?: PushPluginOptions;
}

/**
 * One line per request, at debug level (server/src/infra/logging.ts): `POST /api/market/offers/ 200 12 ms`.
 * Fastify's own are two lines at info, which would bury start-up, warnings and errors under the traffic.
 */
class RequestLinesAtDebug extends LogController {
  override incomingRequest() {}

  override requestCompleted(_error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    // Built only when it will be written: at the default level this runs for every request and writes nothing.
    if (request.log.level !== 'debug' && request.log.level !== 'trace') return;
    // The path only: a query string may carry what a log need not keep. Errors have their own line (handleError).
    request.log.debug(`${request.method} ${request.url.split('?')[0]} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`);
  }
}

/** The largest legitimate body is a few kilobytes (an offer with 2,000 characters of terms). */
const BODY_LIMIT_BYTES = 64 * 1024;

/** Fastify's own refusals (body parsing, routing) in the envelope, with our code and sentence instead of its message. */
function refusalForFastifyError(error: FastifyError): Refusal | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return refuse.notJson();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return refuse.bodyTooLarge();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return refuse.malformedJson();
  }
  // JSON.parse failures and prototype-poisoning refusals carry 400 but no FST_ code.
  if (error.statusCode === 400) return refuse.malformedJson();
  return undefined;
}

/**
 * What Fastify answers before any route or hook runs: a path that is not valid percent-encoding (`%ED%A0%80`,
 * a lone surrogate) or a parameter over the router's length. Fastify's own answer was its error object without
 * the envelope or the security headers, since the hooks that set them have not run; these are set here.
 */
function handleFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
  return sendRefusal(reply, error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? refuse.addressTooLong() : refuse.badAddress());
}

function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof Refusal) {
    // A refusal caused by something broken (the mail server down) is worth a line in the log.
    if (error.cause !== undefined) request.log.warn({ err: error.cause }, error.sentence);
    return sendRefusal(reply, error);
  }
  const known = refusalForFastifyError(error);
  if (known) return sendRefusal(reply, known);
  // Everything else is a bug: log it whole, answer nothing about it.
  request.log.error({ err: error }, 'unhandled error');
  return sendRefusal(reply, refuse.internalError());
}

/**
 * The development helpers (/api/dev/*: the mail outbox, the simulated chain) hand out what only the
 * developer at this machine may see, such as other people's reset codes. They exist outside production on
 * a server that listens on a loopback address only; on any other HOST they are off altogether, because a
 * proxy on the same machine would make remote requests look local.
 */
export type DevHelpers = 'on' | 'off-in-production' | 'off-on-reachable-host';
export const devHelpersOf = (config: Pick<Config, 'nodeEnv' | 'host'>): DevHelpers =>
  config.nodeEnv === 'production' ? 'off-in-production' : isLoopbackHost(config.host) ? 'on' : 'off-on-reachable-host';

const isApiPath = (url: string): boolean => {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/api' || path.startsWith('/api/');
};

/** A page route of the web app, as opposed to a missing file (`/assets/old.js` must stay a 404). */
const isPagePath = (url: string): boolean => !/\.[A-Za-z0-9]+$/.test(url.split('?', 1)[0] ?? '');

/** Says at start-up what a HOST other machines can reach changes: the development helpers are off, sockets need a known origin. */
function warnAboutReachableHost(app: FastifyInstance, config: Config, devHelpers: DevHelpers) {
  // Browsers' sockets are refused from any other origin (infra/http/allowed-hosts.ts): say which they must use.
  const realtimeOrigins =
    realtimeSettings(config, '').mode === 'built-in'
      ? `Browsers must open it through PUBLIC_URL (${config.publicUrl}) or a host in ALLOWED_HOSTS ` +
        `(${config.allowedHosts.length > 0 ? config.allowedHosts.join(', ') : 'none set'}): the realtime socket refuses pages from any other origin (403).`
      : undefined;
  if (devHelpers === 'off-on-reachable-host') {
    app.log.warn(
      `HOST is ${config.host}, so other machines can reach this server: the development helpers (/api/dev/*) are off. ` +
        'Mails still appear on this console. Anyone who can reach the server can sign in to the demo accounts ' +
        `(password peerex-demo) unless the database was created with SEED_DEMO=off.${realtimeOrigins ? ` ${realtimeOrigins}` : ''}`,
    );
  } else if (!isLoopbackHost(config.host) && realtimeOrigins) {
    app.log.warn(`HOST is ${config.host}, so other machines can reach this server. ${realtimeOrigins}`);
  }
}

/**
 * The whole server: plugins in tiers (core → db, mail → sessions, rate limits, account rules), then
 * the API in a public and a private scope, then the web app. Resolves once migrated and ready.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  // The call files' list, sorted, needs nothing of the app: made now, before the database opens, rather than once it
  // is open, when the rest of the start waits for it. Its error, if any, is thrown where it is awaited below.
  const callsLoading = loadCalls();
  callsLoading.catch(() => {});
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new RequestLinesAtDebug(),
    // A trust function, never Fastify's `true` or a bare number (client-address.ts `proxyTrust`).
    trustProxy: proxyTrust(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: handleFrameworkError,
    // Fastify's own 503 while closing is written raw, without the envelope or the security headers; the
    // onRequest hook below answers it instead.
    return503OnClosing: false,
    // Opening PGlite, migrating and seeding (argon2id hashes) can outlast Fastify's 10 s default on a
    // busy 2-core machine; a database that never opens still fails, through its own connect error.
    pluginTimeout: 120_000,
  });

  // Bodies are JSON only. An empty JSON body counts as no body, so the schema names the missing field.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });

  // Before any route, so that every answer carries the headers, 404s and static files included.
  const socketOrigin = externalSocketOrigin(realtimeSettings(config, ''));
  // With hosted Beams the page's push SDK talks to Beams' own device API, which the page must be let reach.
  const beamsOrigin = config.push.beams ? beamsIssuer(config.push.beams.instanceId) : undefined;
  await app.register(securityHeadersPlugin, { connectSources: [socketOrigin, beamsOrigin].filter((origin): origin is string => origin !== undefined) });
  app.setErrorHandler(handleError);
  // A request that arrives on a kept-alive connection once shutdown has begun (main.ts drains on SIGTERM) is
  // refused with the envelope; Fastify has already set `Connection: close`, so the client reconnects elsewhere.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) return sendRefusal(reply, refuse.shuttingDown());
  });
  // DNS rebinding (infra/http/allowed-hosts.ts): on a loopback HOST, a request for a name this server does not answer to
  // gets 403 before any route runs: the API, the development helpers, the device and trigger APIs and static files.
  const hosts = hostRules(config);
  if (hosts.checksHost) {
    app.addHook('onRequest', async (request, reply) => {
      if (!hosts.hostAllowed(request.headers.host)) {
        return sendRefusal(reply.header('cache-control', 'no-store'), refuse.hostNotAllowed());
      }
    });
  }
  const webApp = hasWebApp(config.webDist);
  const pageFor = pageFinder(config.webDist);
  app.setNotFoundHandler((request, reply) => {
    if (webApp && (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url) && isPagePath(request.url)) {
      // History fallback: the web app's router owns every page path.
      return reply.header('cache-control', 'no-cache').sendFile(pageFor(request.url));
    }
    return sendRefusal(reply, refuse.noSuchCall());
  });

  // Tier 0–2: shared by everything registered after them.
  await app.register(corePlugin, { config, now: options.now ?? (() => new Date()), argon2: options.argon2 ?? OWASP_ARGON2ID });
  // Before every route and service: its histogram times every answer, and the services count through it.
  await app.register(metricsPlugin);
  // First, so that on close the jobs stop before any feature or the database does.
  await app.register(jobsPlugin);
  // Before the database: its work needs none, and so fills the wait for PGlite's thread.
  await app.register(walletKeysPlugin);
  loadFetchGlobals();
  await app.register(dbPlugin, { pgliteBoot: options.pgliteBoot });
  await app.register(mailPlugin, { transport: options.mailTransport });
  for (const plugin of [authPlugin, rateLimitPlugin, loginGuardPlugin, emailCodesPlugin, twoFactorPlugin, accountsPlugin, walletKeysCheckPlugin]) {
    await app.register(plugin);
  }
  // Tier 3: after the database is migrated and seeded, so the first prices are the stored ones.
  await app.register(pricesPlugin, { adapter: options.priceFeed });
  await app.register(realtimePlugin);
  await app.register(pushPlugin, options.push ?? {});
  // The features, each after those it uses (a plugin reaches another's service as app.<service>).
  for (const plugin of [notificationsPlugin, livePricesPlugin, chatPlugin, offerListCachePlugin, offersPlugin, tradesPlugin, moderationPlugin, reputationPlugin, operatorTradersPlugin]) {
    await app.register(plugin);
  }
  await app.register(chainPlugin, { adapter: options.chainAdapter });
  await app.register(walletsPlugin);
  await app.register(operatorReviewPlugin);
  // The operator's console: the audit log's reading, and the overview (after the chain: it reads its adapter).
  await app.register(auditLogPlugin);
  await app.register(operatorOverviewPlugin);

  // The periodic jobs (infra/jobs.ts): each a tick of a feature's service on a timer, from onReady to close.
  app.jobs.add(paymentWindowSweep(app));
  app.jobs.add(priceTick(app));
  app.jobs.add(chainWatcherJob(app));
  app.jobs.add(pushWorkerJob(app, options.push?.worker ?? config.nodeEnv !== 'test'));
  app.jobs.add(overviewLiveJob(app));
  app.jobs.add(overviewHoldingsJob(app));

  const calls = await callsLoading;
  app.decorate('documentedCalls', [...calls, ...TRIGGER_API_CALLS, ...deviceApiCalls]);
  const devHelpers = devHelpersOf(config);
  warnAboutReachableHost(app, config, devHelpers);

  await app.register(async (api) => {
    // API answers are per caller (tokens, balances, codes): no browser or proxy may keep a copy.
    api.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    await api.register(apiCompressionPlugin);
    // Every declared call (infra/http/calls.ts); the development helpers only where they may exist at all.
    registerCalls(api, [...calls.filter((call) => !call.developmentOnly || devHelpers === 'on'), ...(options.extraCalls ?? [])]);
  });

  // The Beams-compatible device API, outside /api: it answers as the Beams SDK expects, not in the envelope.
  // Hosted Beams has its own, so this server has none.
  if (!config.push.beams) await app.register(createDeviceApi(deviceApiOptions(app)));

  if (webApp) await app.register(webAppPlugin, { root: config.webDist, pageFor });

  await app.ready();
  return app;
}
