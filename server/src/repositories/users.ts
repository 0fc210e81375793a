import type { Queryable } from '../db/db.ts';

export interface UserRow {
  /** INT8 arrives as text from both drivers. */
  id: string;
  username: string;
  email: string;
  password_hash: string;
  totp_secret: string | null;
  totp_pending_secret: string | null;
}

const COLUMNS = 'id, username, email, password_hash, totp_secret, totp_pending_secret';

export function usersRepository(db: Queryable) {
  return {
    /** Login accepts the username (any case) or the email; a username can't contain "@", so they never clash. */
    findByLogin: (identifier: string) =>
      db.maybe<UserRow>(
        `SELECT ${COLUMNS} FROM users WHERE lower(username) = lower($1) OR email = lower($1) LIMIT 1`,
        [identifier],
      ),

    findByEmail: (email: string) => db.maybe<UserRow>(`SELECT ${COLUMNS} FROM users WHERE email = $1`, [email]),

    findById: (id: string) => db.maybe<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]),

    emailExists: async (email: string) =>
      (await db.maybe('SELECT 1 AS found FROM users WHERE email = $1', [email])) !== undefined,

    usernameExists: async (username: string) =>
      (await db.maybe('SELECT 1 AS found FROM users WHERE lower(username) = lower($1)', [username])) !== undefined,

    insert: (user: { username: string; email: string; passwordHash: string; totpSecret?: string; now: Date }) =>
      db.one<UserRow>(
        `INSERT INTO users (username, email, password_hash, totp_secret, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [user.username, user.email, user.passwordHash, user.totpSecret ?? null, user.now],
      ),

    setPasswordHash: (id: string, passwordHash: string) =>
      db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, passwordHash]),

    setPendingTotpSecret: (id: string, sealedSecret: string) =>
      db.query('UPDATE users SET totp_pending_secret = $2 WHERE id = $1', [id, sealedSecret]),

    /** Promotes the pending secret; the step of the code that proved it is spent at the same time. */
    enableTotp: (id: string, step: number) =>
      db.query(
        `UPDATE users SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_last_step = $2
         WHERE id = $1 AND totp_pending_secret IS NOT NULL`,
        [id, step],
      ),

    disableTotp: (id: string) =>
      db.query('UPDATE users SET totp_secret = NULL, totp_pending_secret = NULL WHERE id = $1', [id]),

    /**
     * Spends a TOTP time step: succeeds only if it is later than the last one accepted. One conditional
     * UPDATE, so two requests racing with the same code cannot both win.
     */
    spendTotpStep: async (id: string, step: number) =>
      (
        await db.query(
          `UPDATE users SET totp_last_step = $2
           WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
          [id, step],
        )
      ).length === 1,
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
