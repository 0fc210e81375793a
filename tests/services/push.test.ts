import { createPushService, pushFailureReason, PushRegistrationFailed, type BeamsModule, type PushEnvironment } from '../../src/services/push.ts';

const pushConfig = { instance_id: 'peerex-instance', endpoint: 'https://peerex.example/push' };

/** The Beams SDK as far as the service uses it, recording every call in order; `answers` decides each call's fate. */
function fakeSdk(answers: { userId?: string | null; failStop?: boolean; holdStart?: Promise<void>; failStart?: unknown } = {}) {
  const log: string[] = [];
  const clients: Array<{ config: unknown }> = [];
  let userId = answers.userId ?? null;
  class Client {
    constructor(readonly config: unknown) {
      clients.push(this);
    }
    async getUserId() {
      log.push('getUserId');
      return userId;
    }
    async start() {
      log.push('start');
      await answers.holdStart;
      if (answers.failStart !== undefined) throw answers.failStart;
      log.push('started');
    }
    async setUserId(id: string, provider: { url: string; headers: Record<string, string> }) {
      log.push(`setUserId ${id} ${provider.url} ${provider.headers.Authorization ?? '(no token)'}`);
      userId = id;
    }
    async addDeviceInterest(interest: string) {
      log.push(`addDeviceInterest ${interest}`);
    }
    async stop() {
      log.push('stop');
      if (answers.failStop) throw new Error('Unexpected status code 500');
      userId = null;
    }
  }
  class TokenProvider {
    url: string;
    headers: Record<string, string>;
    constructor(options: { url: string; headers: Record<string, string> }) {
      this.url = options.url;
      this.headers = options.headers;
    }
  }
  const load = vi.fn(async () => ({ Client, TokenProvider }) as unknown as BeamsModule);
  return { load, log, clients };
}

const chrome = (permission: NotificationPermission = 'granted'): PushEnvironment => ({
  isSecureContext: true,
  indexedDB: {},
  navigator: { serviceWorker: {} },
  PushManager: function PushManager() {},
  Notification: { permission, requestPermission: async () => 'granted' },
});

function service(sdk: ReturnType<typeof fakeSdk>, options: { environment?: PushEnvironment; config?: typeof pushConfig | null } = {}) {
  return createPushService({
    config: Promise.resolve(options.config === undefined ? pushConfig : options.config),
    tokenUrl: '/api/push/beams-auth/',
    getToken: () => 'session-token',
    loadSdk: sdk.load,
    environment: options.environment ?? chrome(),
  });
}

describe('push service', () => {
  it('reads the permission through the Permissions API, without the property that blocks the page; the property where the API cannot answer', async () => {
    const sdk = fakeSdk();
    const read = vi.fn(() => 'denied' as NotificationPermission);
    const asking = (query: () => Promise<{ state: PermissionState }>): PushEnvironment => ({
      ...chrome(),
      navigator: { serviceWorker: {}, permissions: { query } },
      Notification: { get permission() { return read(); }, requestPermission: async () => 'granted' },
    });
    expect(await service(sdk, { environment: asking(async () => ({ state: 'granted' })) }).permission()).toBe('granted');
    expect(await service(sdk, { environment: asking(async () => ({ state: 'prompt' })) }).permission()).toBe('default');
    expect(read, 'Notification.permission is not read when the API answers').not.toHaveBeenCalled();
    expect(await service(sdk, { environment: asking(() => Promise.reject(new TypeError('no such permission'))) }).permission()).toBe('denied');
    expect(await service(sdk, { environment: chrome('denied') }).permission()).toBe('denied');
    expect(await service(sdk, { environment: { ...chrome(), Notification: undefined } }).permission()).toBe('default');
  });

  it('is supported only with a secure context, IndexedDB, service workers, PushManager, Notification and a configuration', async () => {
    const sdk = fakeSdk();
    expect(await service(sdk).support()).toBe('supported');
    const without = (change: Partial<PushEnvironment>) => service(sdk, { environment: { ...chrome(), ...change } }).support();
    expect(await without({ isSecureContext: false })).toBe('unsupported');
    expect(await without({ indexedDB: undefined })).toBe('unsupported');
    expect(await without({ navigator: {} })).toBe('unsupported');
    expect(await without({ PushManager: undefined })).toBe('unsupported');
    expect(await without({ Notification: undefined })).toBe('unsupported');
    expect(await service(sdk, { config: null }).support()).toBe('unsupported');
    expect(sdk.load, 'asking costs no download').not.toHaveBeenCalled();
  });

  it('registers under the username with a Beams token fetched with the session token, then subscribes to "general"', async () => {
    const sdk = fakeSdk();
    await service(sdk).register('alice');
    expect(sdk.clients.map((client) => client.config)).toEqual([{ instanceId: 'peerex-instance', endpointOverride: 'https://peerex.example/push' }]);
    expect(sdk.log).toEqual(['getUserId', 'start', 'started', 'setUserId alice /api/push/beams-auth/ Bearer session-token', 'addDeviceInterest general']);
  });

  it('uses hosted Beams (no endpoint override) when the configuration has no endpoint', async () => {
    const sdk = fakeSdk();
    await service(sdk, { config: { ...pushConfig, endpoint: null } as never }).register('alice');
    expect(sdk.clients[0]!.config).toEqual({ instanceId: 'peerex-instance' });
  });

  it('a device still bound to someone else is stopped before it is registered anew', async () => {
    const sdk = fakeSdk({ userId: 'bob' });
    await service(sdk).register('alice');
    expect(sdk.log.slice(0, 3)).toEqual(['getUserId', 'stop', 'start']);
    const same = fakeSdk({ userId: 'alice' });
    await service(same).register('alice');
    expect(same.log).not.toContain('stop');
  });

  it('a reset waits for the registration that is running, so the device does not end up bound to the user who left', async () => {
    let release!: () => void;
    const sdk = fakeSdk({ holdStart: new Promise<void>((resolve) => (release = resolve)) });
    const push = service(sdk);
    const registering = push.register('alice');
    const resetting = push.reset();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sdk.log).not.toContain('stop');
    release();
    await Promise.all([registering, resetting]);
    expect(sdk.log.at(-1)).toBe('stop');
    expect(sdk.log.indexOf('stop')).toBeGreaterThan(sdk.log.indexOf('addDeviceInterest general'));
    expect(await push.registeredUserId()).toBeNull();
  });

  it('reset never rejects, and a failed registration does not block the next call', async () => {
    const sdk = fakeSdk({ failStop: true });
    const push = service(sdk);
    await push.register('alice');
    await expect(push.reset()).resolves.toBeUndefined();
    await expect(push.register('alice')).resolves.toBeUndefined();
  });

  it('reset downloads nothing when this page never registered and permission was never granted', async () => {
    const sdk = fakeSdk();
    await service(sdk, { environment: chrome('default') }).reset();
    await service(sdk, { environment: { ...chrome(), PushManager: undefined } }).reset();
    expect(sdk.load).not.toHaveBeenCalled();
  });

  it('a registration without a configuration fails, saying why', async () => {
    const failure = await service(fakeSdk(), { config: null }).register('alice').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PushRegistrationFailed);
    expect(failure).toMatchObject({ reason: 'service', message: 'The push configuration could not be read.' });
  });

  it('tells a browser that cannot subscribe from notifications blocked by the trader', async () => {
    // Headless or incognito Chromium: the permission reads "granted", and subscribing still fails with these words.
    const refusal = new DOMException('Registration failed - permission denied', 'NotAllowedError');
    const failure = await service(fakeSdk({ failStart: refusal })).register('alice').catch((error: unknown) => error);
    expect(failure).toMatchObject({ reason: 'browser', cause: refusal });
    // The same refusal once the trader has blocked notifications for the site is theirs.
    const blocked = await service(fakeSdk({ failStart: refusal }), { environment: chrome('denied') }).register('alice').catch((error: unknown) => error);
    expect(blocked).toMatchObject({ reason: 'denied' });
  });

  it('reads the reason of a failure from the permission, then from what was thrown', () => {
    const dom = (name: string, message = 'x') => new DOMException(message, name);
    expect(pushFailureReason(dom('NotAllowedError'), 'denied')).toBe('denied');
    expect(pushFailureReason(new TypeError('Failed to fetch'), 'denied')).toBe('denied');
    for (const name of ['NotAllowedError', 'AbortError', 'InvalidStateError', 'NotSupportedError', 'SecurityError']) {
      expect(pushFailureReason(dom(name), 'granted'), name).toBe('browser');
    }
    expect(pushFailureReason(new Error('Registration failed - push service not available'), 'granted')).toBe('browser');
    expect(pushFailureReason(new TypeError('Failed to fetch'), 'granted')).toBe('service');
    expect(pushFailureReason(new Error('Unexpected status code 503: Service Unavailable, No description'), 'default')).toBe('service');
    expect(pushFailureReason('nope', 'granted')).toBe('service');
  });
});
