import type { Client } from '@pusher/push-notifications-web';
import { GENERAL_INTEREST, type WebAppConfig } from '../../contracts/index.ts';

export type PushSupport = 'supported' | 'unsupported';
export type PushPermission = 'default' | 'granted' | 'denied';

/**
 * Why this device could not be registered, in the three cases /settings tells apart: `denied`, notifications are
 * blocked for the site (the trader's own choice, undone in the browser's site settings); `browser`, this browser or
 * profile cannot subscribe to web push (a headless or private window, a push service that refuses it); `service`,
 * Peerex's side could not be reached (the configuration, the device API, the network).
 */
export type PushFailureReason = 'denied' | 'browser' | 'service';

/** A registration that failed, with its reason; `cause` is what the browser or the SDK threw. */
export class PushRegistrationFailed extends Error {
  readonly reason: PushFailureReason;
  constructor(reason: PushFailureReason, cause: unknown) {
    super(cause instanceof Error && cause.message ? cause.message : 'The push registration failed.', { cause });
    this.name = 'PushRegistrationFailed';
    this.reason = reason;
  }
}

/**
 * What `PushManager.subscribe` (which the SDK's `start` calls) rejects with when the browser itself will not
 * subscribe: Chrome's "Registration failed - permission denied" (NotAllowedError, also with the permission granted,
 * in a headless or an incognito window) and "- push service error" (AbortError), Firefox's AbortError, a service
 * worker that cannot take a subscription (InvalidStateError), no push in this build (NotSupportedError).
 */
const BROWSER_REFUSALS = new Set(['NotAllowedError', 'AbortError', 'InvalidStateError', 'NotSupportedError', 'SecurityError']);

/** Reads why a registration failed: the permission as it is now first, then what was thrown. */
export function pushFailureReason(error: unknown, permission: PushPermission): PushFailureReason {
  if (permission === 'denied') return 'denied';
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  const message = error instanceof Error ? error.message : '';
  return BROWSER_REFUSALS.has(name) || message.startsWith('Registration failed') ? 'browser' : 'service';
}

type PushConfig = WebAppConfig['push'] | null;

/** What the Beams SDK module gives us; a test hands in its own. */
export type BeamsModule = Pick<typeof import('@pusher/push-notifications-web'), 'Client' | 'TokenProvider'>;

/** The browser objects web push needs (docs/web-app.md "Web push registration"); `window` in the app, a stand-in in tests. */
export type PushEnvironment = {
  isSecureContext: boolean;
  indexedDB?: unknown;
  navigator: {
    serviceWorker?: unknown;
    permissions?: { query: (descriptor: { name: 'notifications' }) => Promise<{ state: PermissionState }> };
  };
  PushManager?: unknown;
  Notification?: { permission: NotificationPermission; requestPermission: () => Promise<NotificationPermission> };
};

export type PushServiceOptions = {
  /** From GET /api/config: the Beams instance id and the built-in device API's base (null: hosted Beams). */
  config: PushConfig | Promise<PushConfig>;
  /** `/api/push/beams-auth/`: the Beams TokenProvider's url. */
  tokenUrl: string;
  /** The session token, read when a registration asks for a Beams token. */
  getToken: () => string | null;
  /** Default: the real SDK, downloaded only when a device is registered or reset (never with /login). */
  loadSdk?: () => Promise<BeamsModule>;
  environment?: PushEnvironment;
};

/**
 * Web push registration through `@pusher/push-notifications-web` (docs/web-app.md "Web push registration"):
 * this device registered under the username and subscribed to "general", against the built-in Beams-compatible
 * device API (`endpointOverride`) or hosted Beams. Every SDK call goes through one queue: the SDK keeps the
 * device in IndexedDB and in its own fields, so a reset started while a registration runs must wait for it,
 * or the registration would finish after the reset and bind the device to the user who just left.
 */
export function createPushService(options: PushServiceOptions) {
  const environment = options.environment ?? (window as unknown as PushEnvironment);
  const loadSdk = options.loadSdk ?? (() => import('@pusher/push-notifications-web'));
  let client: Client | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const serialised = <T>(operation: () => Promise<T>): Promise<T> => {
    const result = queue.then(operation, operation);
    queue = result.catch(() => undefined);
    return result;
  };

  const browserSupports = () =>
    environment.isSecureContext === true &&
    environment.indexedDB !== undefined &&
    environment.navigator.serviceWorker !== undefined &&
    environment.PushManager !== undefined &&
    environment.Notification !== undefined;

  /** The SDK client, made once; one that failed to start (service worker missing, say) is made anew next time. */
  async function beams(): Promise<{ sdk: BeamsModule; client: Client }> {
    const config = await options.config;
    if (!config) throw new Error('The push configuration could not be read.');
    const sdk = await loadSdk();
    client ??= new sdk.Client({
      instanceId: config.instance_id,
      ...(config.endpoint === null ? {} : { endpointOverride: config.endpoint }),
    });
    return { sdk, client };
  }

  return {
    /** docs/web-app.md "Web push registration": a secure context, IndexedDB, service workers, web push and notifications, and a push configuration. */
    async support(): Promise<PushSupport> {
      if (!browserSupports()) return 'unsupported';
      return (await options.config) ? 'supported' : 'unsupported';
    },

    /**
     * The notification permission, asked through the Permissions API where there is one: reading
     * `Notification.permission` waits for the browser's answer with the page's main thread blocked (3 to 77 ms
     * in Chromium on this machine, the longer the busier it was), and every signed-in page asks as it starts
     * (bench/README.md "Browse Offers' first visit and the permission read"). Both say the same; `prompt` is
     * `default`.
     */
    async permission(): Promise<PushPermission> {
      if (!environment.Notification) return 'default';
      try {
        const answer = await environment.navigator.permissions?.query({ name: 'notifications' });
        if (answer) return answer.state === 'prompt' ? 'default' : answer.state;
      } catch {
        // A browser whose Permissions API does not know notifications: the property answers.
      }
      return environment.Notification.permission;
    },

    /** Shows the browser's prompt; call it from a user gesture (browsers ignore it otherwise). */
    async requestPermission(): Promise<PushPermission> {
      if (!environment.Notification) return 'denied';
      return environment.Notification.requestPermission();
    },

    /**
     * Registers this device with the push service under `username` and subscribes it to "general". A device
     * still bound to someone else (a session that ended without a reset) is stopped first: the SDK refuses to
     * change a device's user. Fails with `PushRegistrationFailed`, saying why.
     */
    register(username: string): Promise<void> {
      return serialised(async () => {
        try {
          const { sdk, client: beamsClient } = await beams();
          const bound = await beamsClient.getUserId();
          if (bound && bound !== username) await beamsClient.stop();
          await beamsClient.start();
          const token = options.getToken();
          const tokenProvider = new sdk.TokenProvider({
            url: options.tokenUrl,
            headers: token ? { Authorization: `Bearer ${token}` } : {},
          });
          await beamsClient.setUserId(username, tokenProvider);
          await beamsClient.addDeviceInterest(GENERAL_INTEREST);
        } catch (error) {
          client = null;
          throw new PushRegistrationFailed(pushFailureReason(error, environment.Notification?.permission ?? 'default'), error);
        }
      });
    },

    /** The username this device is registered under, or null. */
    registeredUserId(): Promise<string | null> {
      return serialised(async () => {
        if (!browserSupports()) return null;
        const { client: beamsClient } = await beams();
        return (await beamsClient.getUserId()) ?? null;
      });
    },

    /**
     * Unregisters this device (logout, session expiry), after whatever registration is running. Never
     * rejects: the session ends whatever the push service says.
     */
    reset(): Promise<void> {
      return serialised(async () => {
        // Without a client in this page and without permission there is no subscription the SDK could stop:
        // the SDK is not even downloaded.
        if (!browserSupports() || (client === null && environment.Notification?.permission !== 'granted')) return;
        try {
          const { client: beamsClient } = await beams();
          await beamsClient.stop();
        } catch {
          client = null;
        }
      });
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
