import { z } from 'zod';
import proxyAddr from '@fastify/proxy-addr';
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { NETWORK_KEYS, type BuiltInNetworkKey } from '../../contracts/wallet.ts';
import { CHAIN_SOURCE_NAMES, type ChainSourceName } from './chain/adapter.ts';
import { EvmConfigError, parseEvmNetworks, type EvmNetworkConfig } from './chain/evm/config.ts';
import { PRICE_SOURCE_NAMES, type PriceSourceName } from './prices/adapters.ts';

/**
 * The SHA-256 of the APP_SECRET earlier versions fell back to when none was set. That value was public (it
 * was written in their source), so production refuses it; the hash, not the value, is kept here, so nothing
 * in this source can sign anything (an unset APP_SECRET is generated into DATA_DIR, infra/secrets.ts).
 */
const PUBLISHED_APP_SECRET_SHA256 = '12b6f6777fd89a05336567a1c7f19f6ef4070a6c46274588826dde6c6540dfb5';

/** Whether APP_SECRET is the value earlier versions published as their development default. */
export const isPublishedAppSecret = (secret: string): boolean =>
  createHash('sha256').update(secret, 'utf8').digest('hex') === PUBLISHED_APP_SECRET_SHA256;

/**
 * TRUST_PROXY (docs/rules.md "Abuse and bad input"): how many proxies stand in front of the server, or which
 * addresses they have. The client is the right-most X-Forwarded-For entry that no trusted proxy added, so an
 * entry the client wrote itself (further left) changes nothing.
 */
export type TrustProxy =
  | { kind: 'none' }
  /** `1` behind one load balancer: the socket's peer and the `hops - 1` entries before it are proxies. */
  | { kind: 'hops'; hops: number }
  /** The proxies' addresses or CIDRs (and proxy-addr's names `loopback`, `linklocal`, `uniquelocal`). */
  | { kind: 'addresses'; addresses: string[] };

const TRUST_PROXY_FORMS =
  'must be a number of proxy hops (`1` behind one load balancer) or a comma-separated list of the proxies\' addresses or CIDRs ' +
  '(`10.0.0.0/8,fd00::/8`); `true` is refused because it would take the client\'s address from whatever X-Forwarded-For the client writes';

/** proxy-addr's names for address ranges. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Beyond any real chain of proxies: a larger number is a typo. */
const MAX_PROXY_HOPS = 10;

/** TRUST_PROXY as written, or undefined when it is neither form. `false`, `0` and unset mean no proxy. */
export function parseTrustProxy(raw: string | undefined): TrustProxy | undefined {
  const text = raw?.trim().toLowerCase() ?? '';
  if (text === '' || text === 'false' || text === '0') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= MAX_PROXY_HOPS ? { kind: 'hops', hops } : undefined;
  }
  const addresses = text.split(',').map((part) => part.trim()).filter((part) => part !== '');
  // Written out in full (proxy-addr would also read `1.5` as 1.0.0.5), with an optional prefix length, or one of its names.
  const written = (entry: string) => PROXY_NAMES.has(entry) || (isIP(entry.replace(/\/\d{1,3}$/, '')) !== 0 && !entry.startsWith('/'));
  if (addresses.length === 0 || !addresses.every(written)) return undefined;
  try {
    // proxy-addr's own parser: what it accepts is what Fastify and the realtime server will trust.
    proxyAddr.compile(addresses);
  } catch {
    return undefined;
  }
  return { kind: 'addresses', addresses };
}

/** `host` or `host:port`, a name or an address (`[::1]` for IPv6), as ALLOWED_HOSTS and Host headers write them. */
export const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(:\d{1,5})?$/i;

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
    error: 'must be one of 1, 0, true, false, yes, no, on, off',
  })
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

/** pino's levels, most to least severe; `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The shortest METRICS_TOKEN production takes: anything shorter is a password someone could guess. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

const positiveInt = z.coerce.number().int().positive();
const optionalText = z.string().trim().min(1).optional();

/** Empty variables count as unset, so `FOO= node …` falls back to the default instead of failing. */
const withoutEmpty = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATA_DIR: z.string().default('./.data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Peerex <no-reply@peerex.local>'),
  PUSHER_APP_ID: optionalText,
  PUSHER_KEY: optionalText,
  PUSHER_SECRET: optionalText,
  PUSHER_HOST: optionalText,
  PUSHER_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  PUSHER_CLUSTER: optionalText,
  SEED_DEMO: flag.optional(),
  APP_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  LOGIN_LOCKOUT_FAILURES: positiveInt.default(10),
  LOGIN_LOCKOUT_MINUTES: positiveInt.default(15),
  LOGIN_ACCOUNT_FAILURES_PER_HOUR: positiveInt.default(100),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(60),
  SESSION_IDLE_DAYS: positiveInt.default(30),
  TRUST_PROXY: z.string().refine((value) => parseTrustProxy(value) !== undefined, TRUST_PROXY_FORMS).optional(),
  ALLOWED_HOSTS: z
    .string()
    .refine(
      (value) => value.split(',').every((part) => part.trim() === '' || HOST_PATTERN.test(part.trim())),
      'must be a comma-separated list of host names or addresses, each with an optional port (`peerex.lan,192.168.1.20:3000`)',
    )
    .default(''),
  FLOW_ATLAS: flag.default(false),
  WEB_DIST: z.string().default('./dist'),
  PRICE_SOURCE: z
    .enum(PRICE_SOURCE_NAMES, { error: `must be one of: ${PRICE_SOURCE_NAMES.join(', ')}` })
    .default('simulated'),
  PRICE_TICK_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  TRADE_FEE_PERCENT: z
    .string()
    .regex(/^\d{1,2}(\.\d{1,4})?$/, 'must be a percentage from 0 to 99.9999, like 1 or 0.5')
    .default('1'),
  PAYMENT_WINDOW_MINUTES: positiveInt.default(30),
  MAX_OPEN_TRADES: z.coerce.number().int().min(1).max(10_000).default(5),
  REPUTATION_MIN_TRADE_USD: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, 'must be an amount of USD with at most 2 decimals, like 10 or 2.50 (0 counts every trade)')
    .default('10'),
  TRADE_OPENS_PER_HOUR: positiveInt.default(30),
  TRADE_SWEEP_SECONDS: z.coerce.number().min(0).max(3600).default(30),
  OFFER_LIST_CACHE_SECONDS: z.coerce.number().min(0).max(300).default(5),
  CHAT_MESSAGES_PER_MINUTE: positiveInt.default(60),
  WITHDRAWAL_CALLS_PER_MINUTE: positiveInt.default(30),
  WITHDRAWAL_REVIEW_USD: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, 'must be an amount of USD with at most 2 decimals, like 10000 or 2500.50 (0 turns review off)')
    .default('10000'),
  CHAIN_SOURCE: z
    .enum(CHAIN_SOURCE_NAMES, { error: `must be one of: ${CHAIN_SOURCE_NAMES.join(', ')}` })
    .default('simulated'),
  CHAIN_POLL_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  WALLET_XPUB_BITCOIN: optionalText,
  WALLET_XPUB_ETHEREUM: optionalText,
  WALLET_XPUB_TRON: optionalText,
  WALLET_XPUB_LITECOIN: optionalText,
  PUBLIC_URL: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^/?#]+$/, 'must be an origin such as https://peerex.example (no path)')
    .optional(),
  VAPID_PUBLIC_KEY: optionalText,
  VAPID_PRIVATE_KEY: optionalText,
  VAPID_SUBJECT: z
    .string()
    .trim()
    .regex(/^(mailto:|https:\/\/)/, 'must be a mailto: address or an https: URL')
    .optional(),
  PUSH_ALLOWED_HOSTS: z.string().default(''),
  REALTIME_MAX_FRAME_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(10_240),
  REALTIME_MAX_SUBSCRIPTIONS: positiveInt.default(100),
  REALTIME_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(50),
  BEAMS_INSTANCE_ID: optionalText,
  BEAMS_SECRET_KEY: optionalText,
  METRICS_TOKEN: z.string().optional(),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `must be one of: ${LOG_LEVELS.join(', ')}` })
    .optional(),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  /** LOG_LEVEL; default `info` (`warn` under NODE_ENV=test). Every request is logged at `debug`. */
  logLevel: LogLevel;
  port: number;
  /** The interface to listen on; the default, 127.0.0.1, serves this machine only. */
  host: string;
  /** PostgreSQL connection string; unset means embedded PGlite under `dataDir`. */
  databaseUrl: string | undefined;
  /** Where PGlite keeps its files (`<dataDir>/pgdata`); `memory://` keeps everything in memory. */
  dataDir: string;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  pusher: {
    appId: string | undefined;
    key: string | undefined;
    secret: string | undefined;
    host: string | undefined;
    port: number | undefined;
    cluster: string | undefined;
  };
  seedDemo: boolean;
  /**
   * APP_SECRET: the key of code hashes, sealed two-factor secrets and, unless PUSHER_SECRET is set, the built-in
   * realtime and Beams token secrets. Unset (never in production), the server generates one into DATA_DIR at
   * boot (infra/secrets.ts `loadAppSecret`); the running app reads it from `ServerConfig`.
   */
  appSecret: string | undefined;
  /** Failed sign-ins of one account from one client address within `loginLockoutMinutes` that lock that pair as long. */
  loginLockoutFailures: number;
  loginLockoutMinutes: number;
  /** Failed sign-ins of one account from all addresses within an hour that lock the account for an hour and mail its owner. */
  loginAccountFailuresPerHour: number;
  /** Requests per minute and client address, one budget across every security/ call (sign-in, codes, register, reset, logout, two-factor). */
  rateLimitPerMinute: number;
  /** A session that has not been used for this many days is expired. */
  sessionIdleDays: number;
  trustProxy: TrustProxy;
  /**
   * ALLOWED_HOSTS: host names (optionally `:port`) this server answers to besides localhost, 127.0.0.1, [::1] and
   * PUBLIC_URL's; lower-cased. On a loopback HOST other Host headers get 403 (DNS rebinding), and on any HOST a
   * websocket upgrade from a page of another origin gets 403 (server/src/infra/http/allowed-hosts.ts).
   */
  allowedHosts: string[];
  /** FLOW_ATLAS: /flows open to everyone in production too (in development it always is). */
  flowAtlas: boolean;
  webDist: string;
  /** Where coin prices come from (server/src/prices/adapters.ts); an unknown name fails at boot. */
  priceSource: PriceSourceName;
  /** Seconds between price ticks; 0 turns the timer off (tests tick by hand). */
  priceTickSeconds: number;
  /** The platform's fee on each trade, in percent of the trade, as an exact decimal string. */
  tradeFeePercent: string;
  /** A pending trade not marked paid this many minutes after opening is cancelled by the server. */
  paymentWindowMinutes: number;
  /** The most pending trades one buyer may hold at once, counting only trades they opened as the taker. */
  maxOpenTrades: number;
  /**
   * REPUTATION_MIN_TRADE_USD: a trade worth less (its escrow at the coin's USD price frozen at open) counts toward no
   * trades count, completion rate or rating, and cannot be rated (docs/rules.md "Reputation"). An exact decimal string.
   */
  reputationMinTradeUsd: string;
  /** Trades one trader may open within an hour. */
  tradeOpensPerHour: number;
  /** Seconds between payment-window sweeps; 0 turns the timer off (tests sweep by hand). */
  tradeSweepSeconds: number;
  /**
   * The longest a page of Browse Offers is served from memory (server/src/offers/offer-list-cache.ts);
   * writes drop pages at once, this bounds anything they miss. 0 turns the cache off.
   */
  offerListCacheSeconds: number;
  /** Chat messages one trader may send within a minute, over all their conversations. */
  chatMessagesPerMinute: number;
  /** Withdrawal previews and confirms one trader may ask for within a minute, together. */
  withdrawalCallsPerMinute: number;
  /**
   * WITHDRAWAL_REVIEW_USD: an external withdrawal worth this much or more when confirmed (its amount at the preview's
   * price) waits for an operator's approval (docs/operators.md "Withdrawal review"). An exact decimal string; `0`: never.
   */
  withdrawalReviewUsd: string;
  /** Where deposits are seen and withdrawals sent (server/src/chain/adapter.ts); an unknown name fails at boot. */
  chainSource: ChainSourceName;
  /** Seconds between chain watcher rounds; 0 turns the timer off (tests sync by hand). */
  chainPollSeconds: number;
  /** EVM_NETWORKS and their EVM_<NETWORK>_* settings: the networks read and paid on through a real node (docs/chains.md). */
  evmNetworks: EvmNetworkConfig[];
  /** WALLET_XPUB_<NETWORK>: each network's account-level extended public key; production needs all of them. */
  walletXpubs: Partial<Record<BuiltInNetworkKey, string>>;
  /**
   * PUBLIC_URL: the origin traders open (`https://peerex.example`): the links in web pushes (made away from any
   * request), the push endpoint GET /api/config names, and a host and origin the server answers to.
   * Default `http://localhost:<PORT>`.
   */
  publicUrl: string;
  /** The built-in realtime server's limits (packages/realtime/server.ts); what a client meets past each is pinned there. */
  realtimeLimits: {
    /** REALTIME_MAX_FRAME_BYTES: the largest frame a client may send (default 10 KB, Pusher's limit on a client event). */
    maxFrameBytes: number;
    /** REALTIME_MAX_SUBSCRIPTIONS: channels one connection may subscribe to (default 100). */
    maxSubscriptionsPerConnection: number;
    /**
     * REALTIME_MAX_CONNECTIONS_PER_ADDRESS: open sockets per client address and process, the address counted as
     * the HTTP rate limits count it (X-Forwarded-For as TRUST_PROXY says, IPv6 by /64). Default 50; 0 = no limit.
     */
    maxConnectionsPerAddress: number;
  };
  push: {
    /** VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY: both or neither; neither means a pair generated once into DATA_DIR. */
    vapidPublicKey: string | undefined;
    vapidPrivateKey: string | undefined;
    /** VAPID_SUBJECT: the contact push services see (default `mailto:` + MAIL_FROM's address). */
    vapidSubject: string | undefined;
    /** PUSH_ALLOWED_HOSTS: `host[:port]`s a subscription endpoint may name besides the browsers' push services. */
    allowedHosts: string[];
    /** BEAMS_INSTANCE_ID + BEAMS_SECRET_KEY: publish through hosted Beams instead of the built-in device API. */
    beams: { instanceId: string; secretKey: string } | undefined;
  };
  /**
   * METRICS_TOKEN: the bearer token GET /metrics asks for (docs/operators.md "Monitoring"). Unset: only a request
   * straight from this machine is answered, and none at all with TRUST_PROXY set.
   */
  metricsToken: string | undefined;
}

/** The configuration the app runs with: the environment's, with APP_SECRET resolved (infra/secrets.ts `loadAppSecret`). */
export type ServerConfig = Config & { appSecret: string };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once at boot; every problem is reported at once, by variable name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && e.APP_SECRET === undefined) {
    throw new ConfigError(
      'Refusing to start: NODE_ENV=production needs APP_SECRET, a long random value that every server process shares ' +
        '(for example `openssl rand -base64 48`); without it each process would make a secret of its own.',
    );
  }
  if (production && isPublishedAppSecret(e.APP_SECRET ?? '')) {
    throw new ConfigError(
      'Refusing to start: NODE_ENV=production but APP_SECRET is the development secret earlier versions published in their source. ' +
        'Set APP_SECRET to a long random value (for example `openssl rand -base64 48`).',
    );
  }
  if (production && e.METRICS_TOKEN !== undefined && e.METRICS_TOKEN.length < METRICS_TOKEN_MIN_LENGTH) {
    throw new ConfigError(
      `Refusing to start: NODE_ENV=production but METRICS_TOKEN is shorter than ${METRICS_TOKEN_MIN_LENGTH} characters, so it could be guessed. ` +
        'Set it to a long random value (for example `openssl rand -hex 32`), or leave it unset to answer /metrics on this machine only.',
    );
  }
  const external = e.PUSHER_HOST !== undefined || e.PUSHER_CLUSTER !== undefined;
  const missing = (['PUSHER_APP_ID', 'PUSHER_KEY', 'PUSHER_SECRET'] as const).filter((name) => e[name] === undefined);
  if (external && missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  ${missing.join(', ')}: required with ${e.PUSHER_HOST !== undefined ? 'PUSHER_HOST' : 'PUSHER_CLUSTER'} ` +
        '(the app of the Pusher-compatible server to publish to)',
    );
  }
  if ((e.VAPID_PUBLIC_KEY === undefined) !== (e.VAPID_PRIVATE_KEY === undefined)) {
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither (`npx web-push generate-vapid-keys` makes a pair)');
  }
  if ((e.BEAMS_INSTANCE_ID === undefined) !== (e.BEAMS_SECRET_KEY === undefined)) {
    throw new ConfigError('Invalid configuration:\n  BEAMS_INSTANCE_ID, BEAMS_SECRET_KEY: set both (hosted Beams) or neither (the built-in device API)');
  }
  let evmNetworks: EvmNetworkConfig[];
  try {
    evmNetworks = parseEvmNetworks(env);
  } catch (error) {
    if (error instanceof EvmConfigError) throw new ConfigError(error.message);
    throw error;
  }
  return {
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'warn' : 'info'),
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    pusher: {
      appId: e.PUSHER_APP_ID,
      key: e.PUSHER_KEY,
      secret: e.PUSHER_SECRET,
      host: e.PUSHER_HOST,
      port: e.PUSHER_PORT,
      cluster: e.PUSHER_CLUSTER,
    },
    seedDemo: e.SEED_DEMO ?? !production,
    appSecret: e.APP_SECRET,
    loginLockoutFailures: e.LOGIN_LOCKOUT_FAILURES,
    loginLockoutMinutes: e.LOGIN_LOCKOUT_MINUTES,
    loginAccountFailuresPerHour: e.LOGIN_ACCOUNT_FAILURES_PER_HOUR,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    sessionIdleDays: e.SESSION_IDLE_DAYS,
    // The schema refused what parseTrustProxy cannot read.
    trustProxy: parseTrustProxy(e.TRUST_PROXY) ?? { kind: 'none' },
    allowedHosts: e.ALLOWED_HOSTS.split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
    flowAtlas: e.FLOW_ATLAS,
    webDist: e.WEB_DIST,
    priceSource: e.PRICE_SOURCE,
    priceTickSeconds: e.PRICE_TICK_SECONDS,
    tradeFeePercent: e.TRADE_FEE_PERCENT,
    paymentWindowMinutes: e.PAYMENT_WINDOW_MINUTES,
    maxOpenTrades: e.MAX_OPEN_TRADES,
    reputationMinTradeUsd: e.REPUTATION_MIN_TRADE_USD,
    tradeOpensPerHour: e.TRADE_OPENS_PER_HOUR,
    tradeSweepSeconds: e.TRADE_SWEEP_SECONDS,
    offerListCacheSeconds: e.OFFER_LIST_CACHE_SECONDS,
    chatMessagesPerMinute: e.CHAT_MESSAGES_PER_MINUTE,
    withdrawalCallsPerMinute: e.WITHDRAWAL_CALLS_PER_MINUTE,
    withdrawalReviewUsd: e.WITHDRAWAL_REVIEW_USD,
    chainSource: e.CHAIN_SOURCE,
    chainPollSeconds: e.CHAIN_POLL_SECONDS,
    evmNetworks,
    walletXpubs: Object.fromEntries(
      NETWORK_KEYS.flatMap((network) => {
        const xpub = e[`WALLET_XPUB_${network.toUpperCase() as Uppercase<BuiltInNetworkKey>}`];
        return xpub === undefined ? [] : [[network, xpub]];
      }),
    ),
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    realtimeLimits: {
      maxFrameBytes: e.REALTIME_MAX_FRAME_BYTES,
      maxSubscriptionsPerConnection: e.REALTIME_MAX_SUBSCRIPTIONS,
      maxConnectionsPerAddress: e.REALTIME_MAX_CONNECTIONS_PER_ADDRESS,
    },
    push: {
      vapidPublicKey: e.VAPID_PUBLIC_KEY,
      vapidPrivateKey: e.VAPID_PRIVATE_KEY,
      vapidSubject: e.VAPID_SUBJECT,
      allowedHosts: e.PUSH_ALLOWED_HOSTS.split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== ''),
      beams: e.BEAMS_INSTANCE_ID !== undefined && e.BEAMS_SECRET_KEY !== undefined ? { instanceId: e.BEAMS_INSTANCE_ID, secretKey: e.BEAMS_SECRET_KEY } : undefined,
    },
    metricsToken: e.METRICS_TOKEN,
  };
}
