import type { UserRole } from '../../../contracts/security.ts';
import type { Queryable } from '../infra/db/db.ts';

/** A user as the operator's search lists them. */
export interface TraderRowRecord {
  id: string;
  username: string;
  email: string;
  role: UserRole;
  created_at: Date;
  suspended: boolean;
  /** The newest use of any of their sessions, or null. */
  last_seen: Date | null;
}

/** A user as the trader's page and the console's actions read them. */
export interface TraderRecord extends TraderRowRecord {
  two_factor: boolean;
  suspended_at: Date | null;
  suspended_reason: string | null;
  /** The username of the operator who suspended them. */
  suspended_by: string | null;
}

export interface TraderBalanceRow {
  ticker: string;
  decimal_places: number;
  available: string;
  escrow: string;
  withdrawing: string;
}

export interface TraderTradeRow {
  channel: string;
  created_at: Date;
  role: 'buyer' | 'seller';
  partner: string;
  ticker: string;
  decimal_places: number;
  trading_amount_crypto: string;
  trading_amount: string;
  currency_code: string;
  status: 'pending' | 'completed' | 'cancelled';
  dispute_raised: boolean;
}

export interface DeviceRow {
  device: string;
  client_address: string;
  created_at: Date;
  last_used_at: Date;
}

export interface NoteRow {
  id: string;
  author: string;
  text: string;
  created_at: Date;
}

const LAST_SEEN = '(SELECT max(s.last_used_at) FROM sessions s WHERE s.user_id = u.id) AS last_seen';
const ROW_COLUMNS = `u.id, u.username, u.email, u.role, u.created_at, u.suspended_at IS NOT NULL AS suspended, ${LAST_SEEN}`;

/**
 * The operator console's reads of a trader (docs/operators.md "Traders and suspension") and its writes: the
 * suspension's columns of `users`, the password an operator makes unusable, and the notes (migration 032).
 */
export function tradersRepository(db: Queryable) {
  return {
    /**
     * Users whose username or email contains the search (an ILIKE pattern, wildcards escaped; undefined: everyone),
     * newest first, reading one row past the page.
     */
    search: (pattern: string | undefined, limit: number, offset: number) =>
      db.query<TraderRowRecord>(
        `SELECT ${ROW_COLUMNS} FROM users u
         WHERE $1::text IS NULL OR u.username ILIKE $1 OR u.email ILIKE $1
         ORDER BY u.created_at DESC, u.id DESC LIMIT $2 OFFSET $3`,
        [pattern ?? null, limit + 1, offset],
      ),

    /**
     * A user by username in any case, or undefined. `lock`: their row is held until the transaction ends (an action
     * on them), so two operators acting on one trader at once take turns and the second sees the first's result.
     */
    find: (username: string, lock = false) =>
      db.maybe<TraderRecord>(
        `SELECT ${ROW_COLUMNS}, u.totp_secret IS NOT NULL AS two_factor, u.suspended_at, u.suspended_reason,
                b.username AS suspended_by
         FROM users u LEFT JOIN users b ON b.id = u.suspended_by
         WHERE lower(u.username) = lower($1)${lock ? ' FOR NO KEY UPDATE OF u' : ''}`,
        [username],
      ),

    suspend: (userId: string, suspension: { at: Date; reason: string; by: string }) =>
      db.query('UPDATE users SET suspended_at = $2, suspended_reason = $3, suspended_by = $4 WHERE id = $1', [
        userId,
        suspension.at,
        suspension.reason,
        suspension.by,
      ]),

    reinstate: (userId: string) =>
      db.query('UPDATE users SET suspended_at = NULL, suspended_reason = NULL, suspended_by = NULL WHERE id = $1', [userId]),

    /** A hash no password matches (a forced reset): only the mailed code of "Forgot password?" sets a new one. */
    replacePasswordHash: (userId: string, passwordHash: string) => db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]),

    /** Every coin with the user's available, escrow and withdrawing balances, in coin order. */
    balances: (userId: string) =>
      db.query<TraderBalanceRow>(
        `SELECT c.ticker, c.decimal_places,
                coalesce(sum(a.balance) FILTER (WHERE a.kind = 'available'), 0) AS available,
                coalesce(sum(a.balance) FILTER (WHERE a.kind = 'escrow'), 0) AS escrow,
                coalesce(sum(a.balance) FILTER (WHERE a.kind = 'withdrawing'), 0) AS withdrawing
         FROM coins c LEFT JOIN ledger_account_balances a ON a.coin_id = c.id AND a.user_id = $1
         GROUP BY c.id, c.ticker, c.decimal_places ORDER BY c.id`,
        [userId],
      ),

    /** The user's newest trades as buyer or seller. `dispute_raised`: one was raised, settled since or not. */
    newestTrades: (userId: string, limit: number) =>
      db.query<TraderTradeRow>(
        `SELECT t.channel, t.created_at, CASE WHEN t.buyer_id = $1 THEN 'buyer' ELSE 'seller' END AS role,
                p.username AS partner, c.ticker, c.decimal_places, t.trading_amount_crypto, t.trading_amount,
                t.currency_code, t.status, t.disputed_at IS NOT NULL AS dispute_raised
         FROM trades t
         JOIN users p ON p.id = CASE WHEN t.buyer_id = $1 THEN t.seller_id ELSE t.buyer_id END
         JOIN coins c ON c.id = t.coin_id
         WHERE t.id IN (SELECT id FROM trades WHERE buyer_id = $1 UNION ALL SELECT id FROM trades WHERE seller_id = $1)
         ORDER BY t.created_at DESC, t.id DESC LIMIT $2`,
        [userId, limit],
      ),

    /** The user's live sessions (not ended, used after `idleBefore`), newest first. */
    liveSessions: (userId: string, idleBefore: Date) =>
      db.query<DeviceRow>(
        `SELECT device, client_address, created_at, last_used_at FROM sessions
         WHERE user_id = $1 AND revoked_at IS NULL AND last_used_at > $2 ORDER BY created_at DESC, id DESC`,
        [userId, idleBefore],
      ),

    /** Web-push devices bound to the user. */
    pushDevices: async (userId: string) =>
      (await db.one<{ count: number }>('SELECT count(*)::int AS count FROM push_devices WHERE user_id = $1', [userId])).count,

    /** The newest `limit` notes on the user, oldest first. */
    notes: (userId: string, limit: number) =>
      db.query<NoteRow>(
        `SELECT * FROM (
           SELECT n.id, a.username AS author, n.text, n.created_at FROM operator_notes n JOIN users a ON a.id = n.author_id
           WHERE n.user_id = $1 ORDER BY n.created_at DESC, n.id DESC LIMIT $2
         ) newest ORDER BY created_at, id`,
        [userId, limit],
      ),

    addNote: (note: { userId: string; authorId: string; text: string; at: Date }) =>
      db.one<{ id: string }>('INSERT INTO operator_notes (user_id, author_id, text, created_at) VALUES ($1, $2, $3, $4) RETURNING id', [
        note.userId,
        note.authorId,
        note.text,
        note.at,
      ]),
  };
}
