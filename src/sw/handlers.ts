/**
 * What the service worker does with a web push and with a click on the notification it showed (docs/pusher-and-beams.md
 * "Service worker"), written against the few worker APIs it uses so a test can hand in stand-ins. The payload is the
 * one a Beams `web` publish makes: `{notification: {title, body, icon, deep_link,
 * hide_notification_if_site_has_focus}, data: {..., pusher: {...}}}`.
 */

export type PushNotificationPayload = {
  title?: string;
  body?: string;
  icon?: string;
  deep_link?: string;
  hide_notification_if_site_has_focus?: boolean;
};
export type PushPayload = { notification?: PushNotificationPayload; data?: Record<string, unknown> };

/** What a shown notification carries for its click. */
export type NotificationData = { deepLink: string | null; data: Record<string, unknown> };

export type WindowClientLike = {
  url: string;
  focused: boolean;
  focus: () => Promise<unknown>;
  navigate: (url: string) => Promise<unknown>;
};

export type WorkerScope = {
  location: { origin: string };
  registration: { showNotification: (title: string, options: { body: string; icon?: string; data: NotificationData }) => Promise<void> };
  clients: {
    matchAll: (options: { type: 'window'; includeUncontrolled: boolean }) => Promise<readonly WindowClientLike[]>;
    openWindow: (url: string) => Promise<unknown>;
  };
};

export type PushEventLike = { data: { json: () => unknown } | null; waitUntil: (promise: Promise<unknown>) => void };
export type NotificationClickEventLike = {
  notification: { data: unknown; close: () => void };
  waitUntil: (promise: Promise<unknown>) => void;
};

const windowsOf = (scope: WorkerScope) => scope.clients.matchAll({ type: 'window', includeUncontrolled: true });

function readPayload(event: PushEventLike): PushPayload | null {
  try {
    const payload = event.data?.json();
    return payload && typeof payload === 'object' ? (payload as PushPayload) : null;
  } catch {
    return null;
  }
}

/** Shows the notification, unless the payload asks to stay quiet while a window of the site has focus. */
export async function showPush(payload: PushPayload, scope: WorkerScope): Promise<void> {
  const notification = payload.notification;
  if (!notification) return;
  if (notification.hide_notification_if_site_has_focus === true) {
    const windows = await windowsOf(scope);
    if (windows.some((client) => client.focused)) return;
  }
  // The Beams metadata is only for delivery reports; the click needs the link and the publisher's own data.
  const { pusher: _metadata, ...data } = payload.data ?? {};
  await scope.registration.showNotification(notification.title ?? '', {
    body: notification.body ?? '',
    ...(notification.icon ? { icon: notification.icon } : {}),
    data: { deepLink: notification.deep_link ?? null, data },
  });
}

export function onPush(event: PushEventLike, scope: WorkerScope): void {
  const payload = readPayload(event);
  if (payload) event.waitUntil(showPush(payload, scope));
}

/**
 * Where a click leads: the deep link (absolute, or a path of this site) when it is on this site; anything
 * else opens the home page, so a push can never send the trader to another site.
 */
export function clickTarget(deepLink: unknown, origin: string): string {
  if (typeof deepLink !== 'string' || deepLink === '') return `${origin}/`;
  try {
    const url = new URL(deepLink, origin);
    return url.origin === origin ? url.href : `${origin}/`;
  } catch {
    return `${origin}/`;
  }
}

/** Focuses a window of this site already on the page, or one elsewhere on the site and takes it there, or opens one. */
export async function openTarget(target: string, scope: WorkerScope): Promise<void> {
  const windows = (await windowsOf(scope)).filter((client) => client.url.startsWith(`${scope.location.origin}/`));
  const onPage = windows.find((client) => client.url === target);
  if (onPage) {
    await onPage.focus();
    return;
  }
  const open = windows.find((client) => client.focused) ?? windows[0];
  if (open) {
    try {
      await open.focus();
      await open.navigate(target);
      return;
    } catch {
      // A window this worker does not control cannot be navigated: a new one is opened instead.
    }
  }
  await scope.clients.openWindow(target);
}

export function onNotificationClick(event: NotificationClickEventLike, scope: WorkerScope): void {
  event.notification.close();
  const data = event.notification.data as Partial<NotificationData> | null | undefined;
  event.waitUntil(openTarget(clickTarget(data?.deepLink, scope.location.origin), scope));
}
