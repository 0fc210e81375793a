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

/** A stored notification, as the statement that wrote it answers it (for `announce`). */
export interface Notified {
  id: string;
  user_id: string;
  title: string;
  body: string;
  link: string | null;
  created_at: Date;
}

/** The columns `notificationSteps` returns from its `notified` step, for a statement's final SELECT. */
export const NOTIFIED_COLUMNS = 'id, user_id, title, body, link, created_at';

/**
 * The CTE steps that store `drafts` and their web pushes' outbox rows, as part of a bigger statement:
 * `notified` (RETURNING NOTIFIED_COLUMNS) and `notified_pushes`. With `onlyIf`, the name of an earlier step,
 * they write only when that step returned a row (a compare-and-set that lost writes no notification).
 * The caller joins them into its WITH list; `SELECT … FROM notified` reads what was written.
 */
export function notificationSteps(p: SqlParams, drafts: readonly NotificationDraft[], at: Date, onlyIf?: string): string[] {
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
    // makes the link absolute (PUBLIC_URL) and adds `data.pusher` when it sends.
    `notified_pushes AS (
       INSERT INTO push_publishes (publish_id, users, web, next_attempt_at, created_at)
       SELECT 'notification-' || n.id, ARRAY[u.username],
              jsonb_build_object(
                'notification', jsonb_strip_nulls(jsonb_build_object('title', n.title, 'body', n.body, 'deep_link', n.link)),
                'data', jsonb_build_object('notification_id', n.id)),
              ${stamp}, ${stamp}
       FROM notified n JOIN users u ON u.id = n.user_id
       RETURNING id
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
  return q.query<Notified>(`WITH ${steps.join(', ')} SELECT ${NOTIFIED_COLUMNS} FROM notified ORDER BY id`, p.values);
}

/**
 * For a statement whose final SELECT answers its own row (a trade's id, a message) and the notifications its
 * `notified` step wrote: this expression, as a column, holds them as JSON; `notifiedOf` reads it back.
 */
export const NOTIFIED_JSON = `(SELECT coalesce(json_agg(json_build_object('id', n.id::text, 'user_id', n.user_id::text, 'title', n.title,
  'body', n.body, 'link', n.link, 'created_at', n.created_at) ORDER BY n.id), '[]'::json) FROM notified n)`;

export const notifiedOf = (json: unknown): Notified[] =>
  (Array.isArray(json) ? (json as Array<Omit<Notified, 'created_at'> & { created_at: string }>) : []).map((row) => ({
    ...row,
    created_at: new Date(row.created_at),
  }));
