import { notificationList, unreadCount } from '../../contracts/index.ts';
import type { Api } from './api.ts';

/** The calls of `user/notifications/` (docs/api.md "Notifications"). */
export function createNotificationService(api: Api) {
  return {
    /**
     * The unread count and the newest items. "Fetch errors are swallowed and treated as no data"
     * (docs/web-app.md "Failures"): no toast, the chart keeps what it shows.
     */
    list: () => api.read('user/notifications/', { type: 'list' }, notificationList, { noToast: true }),
    /** Marks one of the trader's own notifications read; answers the new unread count. */
    openOne: (id: number) => api.write('user/notifications/', { type: 'open_one', id }, unreadCount),
    /** Marks every notification read; answers the new unread count (0 unless one arrived meanwhile). */
    openAll: () => api.write('user/notifications/', { type: 'open_all' }, unreadCount),
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
