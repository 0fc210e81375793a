import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config.ts';

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
      appSecret: undefined,
      loginLockoutFailures: 10,
      loginLockoutMinutes: 15,
      loginAccountFailuresPerHour: 100,
      rateLimitPerMinute: 60,
      sessionIdleDays: 30,
      trustProxy: { kind: 'none' },
      allowedHosts: [],
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
      withdrawalReviewUsd: '10000',
      chainSource: 'simulated',
      chainPollSeconds: 5,
      evmNetworks: [],
      walletXpubs: {},
      publicUrl: 'http://localhost:3000',
      realtimeLimits: { maxFrameBytes: 10_240, maxSubscriptionsPerConnection: 100, maxConnectionsPerAddress: 50 },
      push: { vapidPublicKey: undefined, vapidPrivateKey: undefined, vapidSubject: undefined, allowedHosts: [], beams: undefined },
      metricsToken: undefined,
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
      TRUST_PROXY: '2',
      ALLOWED_HOSTS: ' Peerex.LAN , 192.168.1.20:3000 ,',
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
      WITHDRAWAL_REVIEW_USD: '2500.50',
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
      trustProxy: { kind: 'hops', hops: 2 },
      allowedHosts: ['peerex.lan', '192.168.1.20:3000'],
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
      withdrawalReviewUsd: '2500.50',
    });
  });

  it('takes the withdrawal review threshold as an exact amount of USD, 0 turning review off, and refuses anything else at start', () => {
    expect(loadConfig({ WITHDRAWAL_REVIEW_USD: '0' }).withdrawalReviewUsd).toBe('0');
    expect(loadConfig({ WITHDRAWAL_REVIEW_USD: '9999.99' }).withdrawalReviewUsd).toBe('9999.99');
    // Empty counts as unset: the default.
    expect(loadConfig({ WITHDRAWAL_REVIEW_USD: '' }).withdrawalReviewUsd).toBe('10000');
    for (const bad of ['-1', '10,000', '1e4', '100.001', 'off', ' 100', '.5', '1234567890123']) {
      expect(() => loadConfig({ WITHDRAWAL_REVIEW_USD: bad }), bad).toThrow(/WITHDRAWAL_REVIEW_USD: must be an amount of USD with at most 2 decimals/);
    }
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

  it('refuses to start in production without APP_SECRET, or with the one earlier versions published, saying why', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/NODE_ENV=production needs APP_SECRET, a long random value that every server process shares/);
    // The value earlier versions fell back to, public since it was in their source.
    const published = 'peerex-development-secret-do-not-use-in-production';
    expect(() => loadConfig({ NODE_ENV: 'production', APP_SECRET: published })).toThrow(/APP_SECRET is the development secret earlier versions published/);
    // Outside production it is allowed (knowingly, to read an old database): the app warns at boot.
    expect(loadConfig({ APP_SECRET: published }).appSecret).toBe(published);
  });

  it('reads METRICS_TOKEN as written, and refuses one shorter than 16 characters in production only', () => {
    const production = { NODE_ENV: 'production', APP_SECRET: 'a-real-secret-of-enough-length' };
    expect(loadConfig({ ...production, METRICS_TOKEN: '0123456789abcdef' }).metricsToken).toBe('0123456789abcdef');
    expect(loadConfig({ ...production }).metricsToken).toBeUndefined();
    expect(() => loadConfig({ ...production, METRICS_TOKEN: '0123456789abcde' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, METRICS_TOKEN: 'scrape-me' })).toThrow(
      /NODE_ENV=production but METRICS_TOKEN is shorter than 16 characters, so it could be guessed/,
    );
    // Outside production a short one is taken (a laptop's Prometheus), and an empty one counts as unset.
    expect(loadConfig({ METRICS_TOKEN: 'scrape-me' }).metricsToken).toBe('scrape-me');
    expect(loadConfig({ ...production, METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
  });

  it('reads TRUST_PROXY as a hop count or a list of proxy addresses, and refuses `true` with a sentence naming both forms', () => {
    for (const off of ['false', '0', ' ']) expect(loadConfig({ TRUST_PROXY: off }).trustProxy, off).toEqual({ kind: 'none' });
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ kind: 'hops', hops: 1 });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, fd00::/8,192.0.2.7' }).trustProxy).toEqual({
      kind: 'addresses',
      addresses: ['10.0.0.0/8', 'fd00::/8', '192.0.2.7'],
    });
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual({ kind: 'addresses', addresses: ['loopback'] });
    for (const bad of ['true', 'TRUE', 'yes', 'on', '1.5', '-1', '11', '10.0.0.0/33', '10.0.0.1,nginx', 'proxy.internal']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /TRUST_PROXY: must be a number of proxy hops \(`1` behind one load balancer\) or a comma-separated list of the proxies' addresses or CIDRs/,
      );
    }
  });

  it('reads ALLOWED_HOSTS as host names with optional ports, and refuses anything else', () => {
    expect(loadConfig({ ALLOWED_HOSTS: 'peerex.lan,[fd00::1]:3000' }).allowedHosts).toEqual(['peerex.lan', '[fd00::1]:3000']);
    for (const bad of ['http://peerex.lan', 'peerex.lan/path', 'a b', 'peerex.lan:port']) {
      expect(() => loadConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(/ALLOWED_HOSTS: must be a comma-separated list of host names/);
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

  it('reads an EVM network from EVM_NETWORKS and its EVM_<NETWORK>_* variables, with the defaults docs/chains.md names', () => {
    const config = loadConfig({
      EVM_NETWORKS: 'ethereum',
      EVM_ETHEREUM_CHAIN_ID: '1',
      EVM_ETHEREUM_RPC_URL: 'https://rpc.example/eth',
      EVM_ETHEREUM_TOKENS: 'USDT:0xdAC17F958D2ee523a2206206994597C13D831ec7:6',
      EVM_ETHEREUM_HOT_WALLET_KEY_FILE: '/etc/peerex/hot.key',
      EVM_ETHEREUM_COLD_ADDRESSES: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    expect(config.evmNetworks).toEqual([
      {
        network: 'ethereum',
        chainId: 1,
        rpcUrl: 'https://rpc.example/eth',
        wsUrl: undefined,
        confirmations: 12,
        native: 'ETH',
        tokens: [{ ticker: 'USDT', contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6 }],
        startBlock: undefined,
        hotWallet: { kind: 'key-file', path: '/etc/peerex/hot.key' },
        coldAddresses: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
        replaceAfterSeconds: 180,
        blocksPerPage: 100,
      },
    ]);
  });

  it('reads an EVM network beyond the built-in ones by its own key and native coin (docs/chains.md "Adding a network")', () => {
    const config = loadConfig({
      EVM_NETWORKS: 'ethereum,polygon',
      EVM_ETHEREUM_CHAIN_ID: '1',
      EVM_ETHEREUM_RPC_URL: 'https://rpc.example/eth',
      EVM_POLYGON_CHAIN_ID: '137',
      EVM_POLYGON_RPC_URL: 'https://rpc.example/polygon',
      EVM_POLYGON_NATIVE: 'POL',
      EVM_POLYGON_CONFIRMATIONS: '64',
    });
    expect(config.evmNetworks.map(({ network, chainId, native, confirmations }) => ({ network, chainId, native, confirmations }))).toEqual([
      { network: 'ethereum', chainId: 1, native: 'ETH', confirmations: 12 },
      { network: 'polygon', chainId: 137, native: 'POL', confirmations: 64 },
    ]);
  });

  it('refuses an EVM network that is not configured whole, naming each variable', () => {
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ EVM_NETWORKS: 'ethereum' })).toMatch(/EVM_ETHEREUM_CHAIN_ID[\s\S]*EVM_ETHEREUM_RPC_URL/);
    // Any network key may be an EVM network, but one without a default native coin must name it; a built-in non-EVM key cannot be one.
    expect(refused({ EVM_NETWORKS: 'polygon', EVM_POLYGON_CHAIN_ID: '137', EVM_POLYGON_RPC_URL: 'http://x' })).toMatch(/EVM_POLYGON_NATIVE: required/);
    expect(refused({ EVM_NETWORKS: 'bitcoin' })).toMatch(/EVM_NETWORKS: "bitcoin" is not an EVM network/);
    expect(refused({ EVM_NETWORKS: 'poly-gon' })).toMatch(/EVM_NETWORKS: "poly-gon" is not a network key/);
    expect(refused({ EVM_NETWORKS: 'ethereum', EVM_ETHEREUM_CHAIN_ID: '1', EVM_ETHEREUM_RPC_URL: 'ftp://x' })).toMatch(/EVM_ETHEREUM_RPC_URL: must be a http/);
    expect(refused({ EVM_NETWORKS: 'ethereum', EVM_ETHEREUM_CHAIN_ID: '1', EVM_ETHEREUM_RPC_URL: 'http://x', EVM_ETHEREUM_TOKENS: 'USDT:0x12:6' })).toMatch(
      /EVM_ETHEREUM_TOKENS: "USDT:0x12:6" is not TICKER:0xCONTRACT:DECIMALS/,
    );
    expect(
      refused({ EVM_NETWORKS: 'ethereum', EVM_ETHEREUM_CHAIN_ID: '1', EVM_ETHEREUM_RPC_URL: 'http://x', EVM_ETHEREUM_HOT_WALLET_SIGNER_URL: 'http://signer' }),
    ).toMatch(/HOT_WALLET_SIGNER_URL, EVM_ETHEREUM_HOT_WALLET_ADDRESS: set both/);
  });
});
