import { describe, expect, it } from 'vitest';
import { ConfigError, DEVELOPMENT_APP_SECRET, loadConfig } from '../../server/src/config.ts';

describe('loadConfig', () => {
  it('works with no environment at all', () => {
    expect(loadConfig({})).toEqual({
      nodeEnv: 'development',
      logLevel: 'info',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: './.data',
      redisUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'Peerex <no-reply@peerex.local>',
      pusher: { appId: undefined, key: undefined, secret: undefined, host: undefined, port: undefined, cluster: undefined },
      seedDemo: true,
      appSecret: DEVELOPMENT_APP_SECRET,
      loginLockoutFailures: 10,
      loginLockoutMinutes: 15,
      loginAccountFailuresPerHour: 100,
      rateLimitPerMinute: 60,
      sessionIdleDays: 30,
      trustProxy: false,
      flowAtlas: false,
      webDist: './dist',
      priceSource: 'simulated',
      priceTickSeconds: 5,
      tradeFeePercent: '1',
      paymentWindowMinutes: 30,
      maxOpenTrades: 5,
      reputationMinTradeUsd: '10',
      tradeOpensPerHour: 30,
      tradeSweepSeconds: 30,
      offerListCacheSeconds: 5,
      chatMessagesPerMinute: 60,
      withdrawalCallsPerMinute: 30,
      chainSource: 'simulated',
      chainPollSeconds: 5,
      walletXpubs: {},
      publicUrl: 'http://localhost:3000',
      realtimeLimits: { maxFrameBytes: 10_240, maxSubscriptionsPerConnection: 100, maxConnectionsPerAddress: 50 },
      push: { vapidPublicKey: undefined, vapidPrivateKey: undefined, vapidSubject: undefined, allowedHosts: [], beams: undefined },
    });
  });

  it('reads each network\'s extended public key from WALLET_XPUB_<NETWORK>', () => {
    expect(loadConfig({ WALLET_XPUB_BITCOIN: ' zpub-b ', WALLET_XPUB_TRON: 'xpub-t' }).walletXpubs).toEqual({ bitcoin: 'zpub-b', tron: 'xpub-t' });
    expect(() => loadConfig({ CHAIN_SOURCE: 'bitcoind' })).toThrow(/CHAIN_SOURCE: must be one of: simulated/);
  });

  it('refuses an external realtime server without its app id, key and secret, naming what is missing', () => {
    expect(() => loadConfig({ PUSHER_HOST: 'soketi', PUSHER_KEY: 'k' })).toThrow(
      'PUSHER_APP_ID, PUSHER_SECRET: required with PUSHER_HOST',
    );
    expect(() => loadConfig({ PUSHER_CLUSTER: 'eu' })).toThrow(/PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET: required with PUSHER_CLUSTER/);
    // Without a host or cluster they name the built-in server's own app.
    expect(loadConfig({ PUSHER_KEY: 'k' }).pusher.key).toBe('k');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://peerex@db:5432/peerex',
      DATA_DIR: '/var/lib/peerex',
      REDIS_URL: 'redis://cache:6379',
      SMTP_URL: 'smtp://user:pass@mail:587',
      MAIL_FROM: 'Ops <ops@example.com>',
      PUSHER_APP_ID: '1',
      PUSHER_KEY: 'key',
      PUSHER_SECRET: 'secret',
      PUSHER_HOST: 'soketi',
      PUSHER_PORT: '6001',
      PUSHER_CLUSTER: 'mt1',
      SEED_DEMO: 'yes',
      APP_SECRET: 'a-real-secret-of-enough-length',
      LOGIN_LOCKOUT_FAILURES: '5',
      LOGIN_LOCKOUT_MINUTES: '30',
      RATE_LIMIT_PER_MINUTE: '120',
      SESSION_IDLE_DAYS: '7',
      TRUST_PROXY: 'true',
      WEB_DIST: '/srv/web',
      PRICE_SOURCE: 'simulated',
      PRICE_TICK_SECONDS: '2.5',
      TRADE_FEE_PERCENT: '0.75',
      PAYMENT_WINDOW_MINUTES: '15',
      MAX_OPEN_TRADES: '3',
      TRADE_OPENS_PER_HOUR: '12',
      LOGIN_ACCOUNT_FAILURES_PER_HOUR: '50',
      TRADE_SWEEP_SECONDS: '10',
      OFFER_LIST_CACHE_SECONDS: '30',
      WITHDRAWAL_CALLS_PER_MINUTE: '10',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      nodeEnv: 'production',
      logLevel: 'debug',
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://peerex@db:5432/peerex',
      pusher: { port: 6001, cluster: 'mt1' },
      seedDemo: true,
      loginLockoutFailures: 5,
      rateLimitPerMinute: 120,
      sessionIdleDays: 7,
      trustProxy: true,
      priceSource: 'simulated',
      priceTickSeconds: 2.5,
      tradeFeePercent: '0.75',
      paymentWindowMinutes: 15,
      maxOpenTrades: 3,
      tradeOpensPerHour: 12,
      loginAccountFailuresPerHour: 50,
      tradeSweepSeconds: 10,
      offerListCacheSeconds: 30,
      withdrawalCallsPerMinute: 10,
    });
  });

  it('logs at info by default, at warn under tests, and refuses a level pino does not know', () => {
    expect(loadConfig({ NODE_ENV: 'production', APP_SECRET: 'a-real-secret-of-enough-length' }).logLevel).toBe('info');
    expect(loadConfig({ NODE_ENV: 'test' }).logLevel).toBe('warn');
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL: must be one of: fatal, error, warn, info, debug, trace, silent/);
  });

  it('refuses a trade fee, payment window or sweep interval that makes no sense', () => {
    for (const fee of ['100', '-1', '1.5%', 'one', '0.12345']) {
      expect(() => loadConfig({ TRADE_FEE_PERCENT: fee }), fee).toThrow(/TRADE_FEE_PERCENT: must be a percentage/);
    }
    expect(() => loadConfig({ PAYMENT_WINDOW_MINUTES: '0' })).toThrow(/PAYMENT_WINDOW_MINUTES/);
    expect(() => loadConfig({ TRADE_SWEEP_SECONDS: '-5' })).toThrow(/TRADE_SWEEP_SECONDS/);
    expect(loadConfig({ TRADE_FEE_PERCENT: '0' }).tradeFeePercent).toBe('0');
  });

  it('takes an offer-list cache lifetime from 0 (off) to 300 seconds', () => {
    expect(loadConfig({ OFFER_LIST_CACHE_SECONDS: '0' }).offerListCacheSeconds).toBe(0);
    for (const bad of ['-1', '301', 'soon']) expect(() => loadConfig({ OFFER_LIST_CACHE_SECONDS: bad }), bad).toThrow(/OFFER_LIST_CACHE_SECONDS/);
  });

  it('refuses a price source it has no adapter for, naming the ones it has', () => {
    expect(() => loadConfig({ PRICE_SOURCE: 'binance' })).toThrow(ConfigError);
    expect(() => loadConfig({ PRICE_SOURCE: 'binance' })).toThrow('PRICE_SOURCE: must be one of: simulated');
    expect(() => loadConfig({ PRICE_TICK_SECONDS: '-1' })).toThrow(/PRICE_TICK_SECONDS/);
    expect(loadConfig({ PRICE_TICK_SECONDS: '0' }).priceTickSeconds).toBe(0);
  });

  it('turns demo data off by default in production', () => {
    expect(loadConfig({ NODE_ENV: 'production', APP_SECRET: 'a-real-secret-of-enough-length' }).seedDemo).toBe(false);
  });

  it('refuses to start in production with the development secret, saying why', () => {
    for (const env of [{ NODE_ENV: 'production' }, { NODE_ENV: 'production', APP_SECRET: DEVELOPMENT_APP_SECRET }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/NODE_ENV=production but APP_SECRET is the built-in development secret/);
    }
  });

  it('lists every invalid variable by name', () => {
    expect(() =>
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', TRUST_PROXY: 'maybe', APP_SECRET: 'short' }),
    ).toThrow(/PORT[\s\S]*DATABASE_URL: must start with postgres:\/\/[\s\S]*APP_SECRET: must be at least 16 characters[\s\S]*TRUST_PROXY/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', SEED_DEMO: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      seedDemo: true,
    });
  });
});
