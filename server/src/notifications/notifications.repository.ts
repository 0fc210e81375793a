import { PREPARED, type Queryable } from '../infra/db/db.ts';

/** A stored notification as the bell lists it. */
export interface NotificationRow {
  id: string;
  title: string;
  body: string;
  link: string | null;
  fresh: boolean;
  created_at: Date;
}

/**
 * The bell's reads and marks (migration 017). Every statement names the user, so nobody reads or marks
 * another user's notifications: an id that is not the caller's behaves exactly like one that does not exist.
 */
export function notificationsRepository(db: Queryable) {
  return {
    /** The user's newest `limit`, newest first (notifications_user_newest). */
    newest: (userId: string, limit: number) =>
      db.query<NotificationRow>(
        `SELECT id, title, body, link, fresh, created_at FROM notifications
         WHERE user_id = $1 ORDER BY id DESC LIMIT $2`,
        [userId, limit],
        PREPARED,
      ),

    /** How many of the user's are unread (notifications_user_fresh). */
    unread: async (userId: string) =>
      (await db.one<{ count: number }>('SELECT count(*)::integer AS count FROM notifications WHERE user_id = $1 AND fresh', [userId], PREPARED))
        .count,

    /** These users' usernames, the names of their own channels (`wallet` tells a trade's two parties at once). */
    usernames: async (userIds: readonly string[]) =>
      (await db.query<{ username: string }>('SELECT username FROM users WHERE id = ANY($1::bigint[])', [userIds])).map((row) => row.username),

    /**
     * Marks one of the user's read and answers the user's unread count after it, or undefined when the id
     * is none of the user's (then nothing changed). Opening one already read changes nothing and still answers.
     */
    openOne: async (userId: string, id: string): Promise<number | undefined> => {
      const row = await db.maybe<{ count: number }>(
        `WITH mine AS (
           SELECT id, fresh FROM notifications WHERE id = $2 AND user_id = $1
         ), opened AS (
           UPDATE notifications SET fresh = false FROM mine WHERE notifications.id = mine.id AND mine.fresh RETURNING notifications.id
         )
         SELECT (SELECT count(*)::integer FROM notifications WHERE user_id = $1 AND fresh)
                - (SELECT count(*)::integer FROM opened) AS count
         FROM mine`,
        [userId, id],
        PREPARED,
      );
      return row?.count;
    },

    /** Marks all of the user's read; afterwards their unread count is 0. */
    openAll: async (userId: string): Promise<void> => {
      await db.query('UPDATE notifications SET fresh = false WHERE user_id = $1 AND fresh', [userId], PREPARED);
    },
  };
}
