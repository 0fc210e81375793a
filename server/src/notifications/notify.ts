import type { Queryable, SqlParams } from '../infra/db/db.ts';
import { sqlParams } from '../infra/db/db.ts';
import { TRADE_EVENTS } from '../../../contracts/trade.ts';

/**
 * The one seam every producer of a notification goes through (docs/rules.md "Notifications").
 * A producer states who is told what, as drafts, and writes them with its own event: in its transaction
 * (`notify`) or, for the producers that are one statement (a trade's open and changes), as steps of that
 * statement (`notificationSteps`). Either way the notification and its web push's outbox row commit or roll
 * back with the event; nothing is told before the commit. After the commit the producer hands the rows to
 * `app.notifications.announce`, which publishes them live and wakes the push worker.
 */

export const NOTIFICATION_KINDS = [
  'trade_opened',
  // A party's action tells the other party by the name of the event it publishes (contracts/trade.ts).
  ...TRADE_EVENTS,
  'trade_expired',
  'dispute_resolved',
  'chat_message',
  'deposit_credited',
  'withdrawal_completed',
  // A withdrawal at or above WITHDRAWAL_REVIEW_USD, decided by an operator (docs/operators.md "Withdrawal review").
  'withdrawal_approved',
  'withdrawal_rejected',
  'sign_in',
  'password_changed',
  'two_factor_changed',
  // Account protections (docs/rules.md "Account protections").
  'signed_out_elsewhere',
  'anti_phishing_code_changed',
  'withdrawal_allowlist_changed',
  // To operators (docs/operators.md "Notifications").
  'chain_incident',
  'withdrawal_review',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Who is told what; `link` is a path of the web app (`/chat?channel=…`) or null. */
export interface NotificationDraft {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
}

/**
 * A stored notification, as the statement that wrote it answers it (for `announce`): with its user's name (their
 * channel) and their unread count once the statement committed, so that announcing it asks the database nothing.
 */
export interface Notified {
  id: string;
  user_id: string;
  title: string;
  body: string;
  link: string | null;
  created_at: Date;
  username: string;
  unread: number;
  /** Whether its web push went to the outbox (the user had a device bound): the push worker has work. */
  pushed: boolean;
}

/** The columns `notificationSteps` returns from its `notified` step. */
const NOTIFIED_COLUMNS = 'id, user_id, title, body, link, created_at';

/**
 * Reads the `notified` step back as `n`, with `u` its user: their unread count is what was fresh before this
 * statement plus what it wrote (a statement's steps do not see one another's rows, so the new ones are counted
 * from `notified` itself).
 */
const NOTIFIED_FROM = 'FROM notified n JOIN users u ON u.id = n.user_id';
/** Whether the `notified_pushes` step put the row `n`'s web push in the outbox. */
const PUSHED = `EXISTS (SELECT FROM notified_pushes x WHERE x.publish_id = 'notification-' || n.id)`;

/**
 * Whose notifications go to the web push outbox: everyone's (hosted Beams, BEAMS_INSTANCE_ID, keeps the devices
 * and must be asked), or, with the built-in device API, only those of users with a device bound to them now: for
 * anyone else the worker would find no one to send it to, after writing and deleting the row, and on the busiest
 * writes (trades) most traders have none. A device bound later gets what is published later.
 */
export type PushOutbox = 'every user' | 'users with a device';
const UNREAD_AFTER = `((SELECT count(*) FROM notifications f WHERE f.user_id = n.user_id AND f.fresh)
  + (SELECT count(*) FROM notified m WHERE m.user_id = n.user_id))::integer`;

/**
 * The CTE steps that store `drafts` and their web pushes' outbox rows, as part of a bigger statement:
 * `notified` (RETURNING NOTIFIED_COLUMNS) and `notified_pushes`. With `onlyIf`, the name of an earlier step,
 * they write only when that step returned a row (a compare-and-set that lost writes no notification).
 * The caller joins them into its WITH list; `SELECT … FROM notified` reads what was written.
 */
export function notificationSteps(
  p: SqlParams,
  drafts: readonly NotificationDraft[],
  at: Date,
  onlyIf?: string,
  outbox: PushOutbox = 'every user',
): string[] {
  const when = onlyIf ? `WHERE EXISTS (SELECT FROM ${onlyIf})` : '';
  const stamp = p.add(at);
  return [
    `notified AS (
       INSERT INTO notifications (user_id, kind, title, body, link, created_at)
       SELECT draft.user_id, draft.kind, draft.title, draft.body, draft.link, ${stamp}
       FROM unnest(${p.add(drafts.map((d) => d.userId))}::bigint[], ${p.add(drafts.map((d) => d.kind))}::text[],
                   ${p.add(drafts.map((d) => d.title))}::text[], ${p.add(drafts.map((d) => d.body))}::text[],
                   ${p.add(drafts.map((d) => d.link))}::text[]) WITH ORDINALITY AS draft (user_id, kind, title, body, link, position)
       ${when}
       ORDER BY draft.position
       RETURNING ${NOTIFIED_COLUMNS}
     )`,
    // One Beams-style publish per notification, to its user (Beams user id = username). The push worker
    // makes the link absolute (PUBLIC_URL) and adds `data.pusher` when it sends. To whom: `outbox`.
    `notified_pushes AS (
       INSERT INTO push_publishes (publish_id, users, web, next_attempt_at, created_at)
       SELECT 'notification-' || n.id, ARRAY[u.username],
              jsonb_build_object(
                'notification', jsonb_strip_nulls(jsonb_build_object('title', n.title, 'body', n.body, 'deep_link', n.link)),
                'data', jsonb_build_object('notification_id', n.id)),
              ${stamp}, ${stamp}
       ${NOTIFIED_FROM}
       ${outbox === 'users with a device' ? 'WHERE EXISTS (SELECT FROM push_devices d WHERE d.user_id = n.user_id)' : ''}
       RETURNING publish_id
     )`,
  ];
}

/**
 * Stores `drafts` and their web pushes in the caller's transaction (or as one statement of its own when
 * `q` is the pool: then the notification alone is atomic). Answers the stored rows for `announce`.
 */
export async function notify(q: Queryable, drafts: readonly NotificationDraft[], at: Date): Promise<Notified[]> {
  if (drafts.length === 0) return [];
  const p = sqlParams();
  const steps = notificationSteps(p, drafts, at);
  return q.query<Notified>(
    `WITH ${steps.join(', ')} SELECT n.id, n.user_id, n.title, n.body, n.link, n.created_at, u.username, ${UNREAD_AFTER} AS unread,
            ${PUSHED} AS pushed
     ${NOTIFIED_FROM} ORDER BY n.id`,
    p.values,
  );
}

/**
 * For a statement whose final SELECT answers its own row (a trade's id, a message) and the notifications its
 * `notified` step wrote: this expression, as a column, holds them as JSON; `notifiedOf` reads it back.
 */
export const NOTIFIED_JSON = `(SELECT coalesce(json_agg(json_build_object('id', n.id::text, 'user_id', n.user_id::text, 'title', n.title,
  'body', n.body, 'link', n.link, 'created_at', n.created_at, 'username', u.username, 'unread', ${UNREAD_AFTER},
  'pushed', ${PUSHED}) ORDER BY n.id), '[]'::json)
  ${NOTIFIED_FROM})`;

export const notifiedOf = (json: unknown): Notified[] =>
  (Array.isArray(json) ? (json as Array<Omit<Notified, 'created_at'> & { created_at: string }>) : []).map((row) => ({
    ...row,
    created_at: new Date(row.created_at),
  }));
