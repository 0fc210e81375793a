/**
 * /service-worker.js: the web push worker the Beams SDK registers (docs/pusher-and-beams.md "Service worker"), and the
 * installed app's offline page (docs/web-app.md "Installed app and offline page"), registered by every page once it
 * has loaded (src/boot/after-paint.js). Built by Vite into one classic script at the site root (vite.config.ts),
 * since the SDK registers it without `type: 'module'`.
 */
import { onNotificationClick, onPush, type NotificationClickEventLike, type PushEventLike, type WorkerScope } from './handlers.ts';
import { dropOldOfflineFiles, keepOfflineFiles, onFetch, type FetchEventLike, type OfflineScope } from './offline.ts';

/** The offline files' hash, written in by the build (vite.config.ts): a new offline page makes a new worker. */
declare const __PEEREX_OFFLINE_VERSION__: string;

type ExtendableEventLike = { waitUntil: (promise: Promise<unknown>) => void };
type WorkerGlobal = WorkerScope &
  OfflineScope & {
    skipWaiting: () => Promise<void>;
    clients: { claim: () => Promise<void> };
    addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
    addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
    addEventListener(type: 'notificationclick', listener: (event: NotificationClickEventLike) => void): void;
    addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  };

const worker = self as unknown as WorkerGlobal;
const version = __PEEREX_OFFLINE_VERSION__;

// A new worker takes over at once and controls the open pages, so a click can navigate them (a window
// the worker does not control cannot be navigated).
// The offline files are kept on a best-effort basis: a failure to fetch them must not fail the install, which would
// leave the device without the push worker; the offline page is then missing until the next version installs.
worker.addEventListener('install', (event) =>
  event.waitUntil(Promise.all([keepOfflineFiles(worker, version).catch(() => undefined), worker.skipWaiting()])),
);
worker.addEventListener('activate', (event) => event.waitUntil(Promise.all([dropOldOfflineFiles(worker, version), worker.clients.claim()])));
worker.addEventListener('push', (event) => onPush(event, worker));
worker.addEventListener('notificationclick', (event) => onNotificationClick(event, worker));
worker.addEventListener('fetch', (event) => onFetch(event, worker, version));
