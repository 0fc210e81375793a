import { notificationList, notificationsRequest, unreadCount } from '../../../contracts/notifications.ts';
import { byType, defineCall } from '../infra/http/call.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/user/notifications/ (signed in): `list`, `open_one`, `open_all` (docs/api.md "Notifications").
 * Every call acts on the caller's own notifications only.
 */
export default defineCall({
  method: 'post',
  path: '/api/user/notifications/',
  tag: 'User',
  summary: 'Notifications',
  description:
    '`list` → `{count, items}`: the unread count and the newest 50, newest first. `open_one` and `open_all` → the new unread count (a number). An id that is not the caller\'s → 404 "No such notification".',
  access: 'session',
  request: notificationsRequest,
  answer: byType({ list: notificationList, open_one: unreadCount, open_all: unreadCount }),
  refusals: [404],
  handlers: ({ app, request }) => {
    const { userId } = signedIn(request);
    return {
      list: () => app.notifications.list(userId),
      open_one: (body) => app.notifications.openOne(userId, body.id),
      open_all: () => app.notifications.openAll(userId),
    };
  },
});
