/**
 * /service-worker.js: the web push worker the Beams SDK registers (docs/pusher-and-beams.md "Service worker"). Built by Vite into one
 * classic script at the site root (vite.config.ts), since the SDK registers it without `type: 'module'`.
 */
import { onNotificationClick, onPush, type NotificationClickEventLike, type PushEventLike, type WorkerScope } from './handlers.ts';

type ExtendableEventLike = { waitUntil: (promise: Promise<unknown>) => void };
type WorkerGlobal = WorkerScope & {
  skipWaiting: () => Promise<void>;
  clients: { claim: () => Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationClickEventLike) => void): void;
};

const worker = self as unknown as WorkerGlobal;

// A new worker takes over at once and controls the open pages, so a click can navigate them (a window
// the worker does not control cannot be navigated).
worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));
worker.addEventListener('push', (event) => onPush(event, worker));
worker.addEventListener('notificationclick', (event) => onNotificationClick(event, worker));
