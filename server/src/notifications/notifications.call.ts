import { notificationList, notificationsRequest, unreadCount } from '../../../contracts/notifications.ts';
import { defineCall, envelope, info, named } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
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
  request: named('NotificationsRequest', notificationsRequest),
  answer: envelope(info(named('NotificationList', notificationList), 'list'), info(named('UnreadCount', unreadCount), 'open_one', 'open_all')),
  refusals: [404],
  handle: async ({ app, request, body }) => {
    const { userId } = signedIn(request);
    switch (body.type) {
      case 'list':
        return ok(notificationList, await app.notifications.list(userId));
      case 'open_one':
        return ok(unreadCount, await app.notifications.openOne(userId, body.id));
      case 'open_all':
        return ok(unreadCount, await app.notifications.openAll(userId));
    }
  },
});
