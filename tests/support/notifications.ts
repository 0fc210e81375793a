/**
 * Notifications for the web tests, shaped by the zod contract, and a fake `user/notifications/` service whose
 * calls wait until the test answers them.
 */
import type { NotificationItem, NotificationList } from '../../contracts/index.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { AppPath } from '../../src/machines/shared/appPath.ts';
import type { NotificationService } from '../../src/services/notifications.ts';
import { fakeRealtime } from './chat.ts';
import { scriptedService } from './machines.ts';

/** The signed-in trader of the notification tests. */
export const trader = 'alice';
export const traderChannel = `private-user-${trader}`;

/** A notification created `minutesAgo` before now. */
export function notification(id: number, overrides: Partial<NotificationItem> & { minutesAgo?: number } = {}): NotificationItem {
  const { minutesAgo = id, ...rest } = overrides;
  return {
    id,
    title: `Title ${id}`,
    body: `Body ${id}`,
    created: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    fresh: true,
    link: null,
    ...rest,
  };
}

/** A `list` answer: the count is the fresh items unless given. */
export const listOf = (items: NotificationItem[], count = items.filter((item) => item.fresh).length): NotificationList => ({ count, items });

/** The notification service, each call waiting until the test answers the oldest waiting call of its name. */
export function fakeNotificationCalls() {
  const calls = scriptedService<keyof NotificationService>(['list', 'openOne', 'openAll']);
  return { ...calls, service: calls.methods as unknown as NotificationService };
}

/** The flow dependencies the notifications chart binds, with the fakes above; visited pages recorded. */
export function notificationDeps(calls = fakeNotificationCalls(), realtime = fakeRealtime()) {
  const visited: AppPath[] = [];
  const deps = {
    notifications: calls.service,
    realtime: realtime.service,
    visit: (path: AppPath) => void visited.push(path),
  } as unknown as FlowDeps;
  return { deps, calls, realtime, visited };
}
