import type { FastifyInstance } from 'fastify';
import { notificationList, notificationsRequest, unreadCount } from '../../../contracts/notifications.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/user/notifications/ (signed in): `list`, `open_one`, `open_all` (docs/api.md "Notifications").
 * Every call acts on the caller's own notifications only.
 */
export default async function notificationsRoute(app: FastifyInstance) {
  app.post('/user/notifications/', async (request) => {
    const { userId } = signedIn(request);
    const body = parseBody(notificationsRequest, request.body);
    switch (body.type) {
      case 'list':
        return ok(notificationList, await app.notifications.list(userId));
      case 'open_one':
        return ok(unreadCount, await app.notifications.openOne(userId, body.id));
      case 'open_all':
        return ok(unreadCount, await app.notifications.openAll(userId));
    }
  });
}
