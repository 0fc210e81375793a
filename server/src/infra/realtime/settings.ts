import type { WebAppConfig } from '../../../../contracts/chat.ts';
import type { Config } from '../../config.ts';
import type { RealtimeApp } from '../../../../packages/realtime/index.ts';

/** The built-in server's app when PUSHER_APP_ID / PUSHER_KEY are unset. The key is public: it is in every socket URL. */
export const BUILT_IN_APP_ID = 'peerex';
export const BUILT_IN_KEY = 'peerex';

/**
 * Where realtime events go (README.md "Configuration"):
 * - `built-in`: our own Pusher-protocol server on the product's port (`/app/{key}`), with the trigger API at
 *   `/apps/{id}/…`. PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET, when set, name its app, so integrators can
 *   publish with credentials the operator chose; unset, the secret is derived from APP_SECRET.
 * - `hosted`: PUSHER_HOST (soketi, another Peerex, …) or PUSHER_CLUSTER (Pusher itself) is set: the product
 *   publishes there through the `pusher` SDK and runs no socket server.
 */
export type RealtimeSettings =
  | { mode: 'built-in'; app: RealtimeApp }
  | { mode: 'hosted'; app: RealtimeApp; host: string | undefined; port: number | undefined; cluster: string | undefined; useTLS: boolean };

export function realtimeSettings(config: Pick<Config, 'pusher'>, derivedSecret: string): RealtimeSettings {
  const { pusher } = config;
  if (pusher.host === undefined && pusher.cluster === undefined) {
    return {
      mode: 'built-in',
      app: { id: pusher.appId ?? BUILT_IN_APP_ID, key: pusher.key ?? BUILT_IN_KEY, secret: pusher.secret ?? derivedSecret },
    };
  }
  // loadConfig refuses PUSHER_HOST/PUSHER_CLUSTER without the app's three values.
  const app = { id: pusher.appId ?? '', key: pusher.key ?? '', secret: pusher.secret ?? '' };
  // Pusher itself is TLS only; another server is TLS when it listens on 443.
  const useTLS = pusher.host === undefined || pusher.port === 443;
  return { mode: 'hosted', app, host: pusher.host, port: pusher.port, cluster: pusher.cluster, useTLS };
}

/** What GET /api/config tells the browser about the socket (docs/api.md "Realtime"). */
export function browserRealtimeConfig(settings: RealtimeSettings): WebAppConfig['realtime'] {
  if (settings.mode === 'built-in') return { key: settings.app.key, cluster: null, ws_host: null, ws_port: null, force_tls: false };
  return {
    key: settings.app.key,
    cluster: settings.host === undefined ? (settings.cluster ?? null) : null,
    ws_host: settings.host ?? null,
    ws_port: settings.host === undefined ? null : (settings.port ?? null),
    force_tls: settings.useTLS,
  };
}

/** The origin the browser's socket connects to when it is not this page's (the CSP's connect-src needs it). */
export function externalSocketOrigin(settings: RealtimeSettings): string | undefined {
  if (settings.mode === 'built-in') return undefined;
  const scheme = settings.useTLS ? 'wss' : 'ws';
  if (settings.host === undefined) return `${scheme}://ws-${settings.cluster ?? 'mt1'}.pusher.com`;
  return `${scheme}://${settings.host}${settings.port === undefined ? '' : `:${settings.port}`}`;
}
