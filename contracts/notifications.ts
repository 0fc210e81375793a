import { z } from 'zod/mini';
import { apiNames } from './common.ts';

/**
 * POST /api/user/notifications/ (docs/api.md "Notifications"), the
 * `notification` and `unread` events on `private-user-<username>`, and the push calls around them.
 */

/** The most items `list` answers: the newest ones. */
export const NOTIFICATIONS_LIST_LIMIT = 50;

/**
 * A notification (docs/api.md "Notifications"): `fresh` means unread. `link` (an addition) is the page it points to, a
 * path of the web app such as `/chat?channel=…` or `/wallets/transactions`, or null.
 */
export const notificationItem = z.object({
  id: z.int(),
  title: z.string(),
  body: z.string(),
  /** ISO 8601. */
  created: z.string(),
  fresh: z.boolean(),
  link: z.nullable(z.string()),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationIdField = z.int({ error: 'id must be a notification id' }).check(z.gte(1, 'id must be a notification id'), z.lte(Number.MAX_SAFE_INTEGER));

export const notificationsRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('list') }),
  z.object({ type: z.literal('open_one'), id: notificationIdField }),
  z.object({ type: z.literal('open_all') }),
]).register(apiNames, { id: 'NotificationsRequest' });
export type NotificationsRequest = z.infer<typeof notificationsRequest>;

/** `list` → the unread count and the newest items, newest first. */
export const notificationList = z.object({ count: z.int(), items: z.array(notificationItem) }).register(apiNames, { id: 'NotificationList' });
export type NotificationList = z.infer<typeof notificationList>;
/** `open_one` and `open_all` → the new unread count. */
export const unreadCount = z.int().register(apiNames, { id: 'UnreadCount' });

/** `private-user-<username>` → `notification`: a new item, as `list` would show it. */
export const notificationEvent = notificationItem;

// ---- Web push (docs/pusher-and-beams.md "Beams device API") ---------------------------------------------

/** The interest every signed-in device is subscribed to (docs/web-app.md "Web push registration"). */
export const GENERAL_INTEREST = 'general';
/** The longest Beams user id (docs/pusher-and-beams.md "Beams tokens"). */
export const PUSH_USER_ID_MAX_LENGTH = 164;

/** GET /api/push/beams-auth/?user_id= → what Beams' TokenProvider expects (not enveloped). */
export const beamsTokenResponse = z.object({ token: z.string() }).register(apiNames, { id: 'BeamsToken' });
