import { realtimeEvents, userChannelName, type WalletEvent } from '../../../contracts/chat.ts';
import { NOTIFICATIONS_LIST_LIMIT, type NotificationItem, type NotificationList } from '../../../contracts/notifications.ts';
import type { Db } from '../infra/db/db.ts';
import { notificationsRepository } from './notifications.repository.ts';
import { refuse } from '../sentences.ts';
import type { Notified } from './notify.ts';

export interface NotificationsDeps {
  db: Db;
  publish: (channel: string, event: string, data: unknown) => void;
  /** Wakes the push worker: the notifications' outbox rows are committed. */
  kick: () => void;
  log: { error(obj: object, msg?: string): void };
}

const itemOf = (row: { id: string; title: string; body: string; link: string | null; created_at: Date }, fresh: boolean): NotificationItem => ({
  id: Number(row.id),
  title: row.title,
  body: row.body,
  created: row.created_at.toISOString(),
  fresh,
  link: row.link,
});

/**
 * The bell (docs/api.md "Notifications"): each user reads and marks only
 * their own. The notifications themselves are written by their producers through the notify seam
 * (notify.ts), in the event's own transaction; `announce` tells the users once that committed.
 */
export function notificationsService(deps: NotificationsDeps) {
  const { db } = deps;
  const walletChangedOf = (usernames: readonly string[]): void => {
    for (const username of new Set(usernames)) deps.publish(userChannelName(username), realtimeEvents.wallet, {} satisfies WalletEvent);
  };
  return {
    /** `list`: the unread count and the newest NOTIFICATIONS_LIST_LIMIT, newest first. */
    async list(userId: string): Promise<NotificationList> {
      const repository = notificationsRepository(db);
      const [count, rows] = await Promise.all([repository.unread(userId), repository.newest(userId, NOTIFICATIONS_LIST_LIMIT)]);
      return { count, items: rows.map((row) => itemOf(row, row.fresh)) };
    },

    /** `open_one`: one of the caller's read; anyone else's id is answered as an unknown one and changes nothing. */
    async openOne(userId: string, id: number): Promise<number> {
      const count = await notificationsRepository(db).openOne(userId, String(id));
      if (count === undefined) throw refuse.noSuchNotification();
      return count;
    },

    /** `open_all`: every one of the caller's read. */
    async openAll(userId: string): Promise<number> {
      await notificationsRepository(db).openAll(userId);
      return 0;
    },

    /**
     * After the commit of a change to these traders' balances or wallet history: `wallet` on each one's own
     * channel, so the wallet screens they have open read them again (docs/api.md "Realtime"). Never throws: the
     * change is committed, and a screen that is not told reads it when it is opened again.
     */
    async walletChanged(userIds: readonly string[]): Promise<void> {
      if (userIds.length === 0) return;
      try {
        walletChangedOf(await notificationsRepository(db).usernames([...new Set(userIds)]));
      } catch (error) {
        deps.log.error({ err: error }, 'wallet change not published live');
      }
    },

    /**
     * `walletChanged` for a caller that knows the traders' usernames already (a trade's change: its row names both
     * parties), without the query: a trade's action answers after it, and it is the product's busiest write.
     */
    walletChangedOf,

    /**
     * After the commit of the rows' event: each row on its user's channel as `notification` (as `list` shows
     * it), then `unread` with the user's unread count, and the push worker woken when any went to the outbox. Never
     * throws: the event is committed, the bell catches up on its next list, and the push rows are in the
     * outbox whether or not the worker hears of them now (it also runs on its own timer).
     */
    async announce(rows: readonly Notified[]): Promise<void> {
      if (rows.length === 0) return;
      try {
        for (const row of rows) {
          const channel = userChannelName(row.username);
          deps.publish(channel, realtimeEvents.notification, itemOf(row, true));
          deps.publish(channel, realtimeEvents.unread, { count: row.unread });
        }
      } catch (error) {
        deps.log.error({ err: error }, 'notifications not published live');
      }
      try {
        if (rows.some((row) => row.pushed)) deps.kick();
      } catch (error) {
        deps.log.error({ err: error }, 'push worker not woken');
      }
    },
  };
}

export type NotificationsService = ReturnType<typeof notificationsService>;
