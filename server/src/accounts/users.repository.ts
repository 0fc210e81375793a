import type { UserRole } from '../../../contracts/security.ts';
import { PREPARED, type Queryable } from '../infra/db/db.ts';

/** SecurityChanges of the users row `user` as two columns of a bigger read, named `<prefix>_credentials_changed_at` and `<prefix>_allowlist_added_at`. */
export const securityChangesColumns = (user: string, prefix: string) =>
  `${user}.credentials_changed_at AS ${prefix}_credentials_changed_at,
   (SELECT max(a.created_at) FROM withdrawal_allowlist a WHERE a.user_id = ${user}.id) AS ${prefix}_allowlist_added_at`;

export interface UserRow {
  /** INT8 arrives as text from both drivers. */
  id: string;
  username: string;
  email: string;
  password_hash: string;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  role: UserRole;
  /** Set while an operator has suspended the account (migration 032): it signs in nowhere. */
  suspended_at: Date | null;
}

const COLUMNS = 'id, username, email, password_hash, totp_secret, totp_pending_secret, role, suspended_at';

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

    /** `role` only for the demo data: signup always makes a trader. */
    insert: (user: { username: string; email: string; passwordHash: string; totpSecret?: string; role?: UserRole; now: Date }) =>
      db.one<UserRow>(
        `INSERT INTO users (username, email, password_hash, totp_secret, created_at, role)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [user.username, user.email, user.passwordHash, user.totpSecret ?? null, user.now, user.role ?? 'trader'],
      ),

    /**
     * Grants or takes back a role (`npm run user:role`; no API call changes one), by username in any case.
     * Answers the user as they are now and the role they had, or undefined for an unknown username.
     */
    setRole: (username: string, role: UserRole) =>
      db.maybe<{ id: string; username: string; role: UserRole; previous: UserRole }>(
        `UPDATE users SET role = $2 FROM (SELECT id, role AS previous FROM users WHERE lower(username) = lower($1) FOR NO KEY UPDATE) old
         WHERE users.id = old.id RETURNING users.id, users.username, users.role, old.previous`,
        [username, role],
      ),

    /** Everyone holding a role (the operators a chain incident is told to). */
    idsOfRole: async (role: UserRole) =>
      (await db.query<{ id: string }>('SELECT id FROM users WHERE role = $1 ORDER BY id', [role])).map((row) => row.id),

    /** The same password, hashed anew (a rehash at sign-in): not a credentials change. */
    setPasswordHash: (id: string, passwordHash: string) =>
      db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, passwordHash]),

    /**
     * The owner (or an operator) ended sessions: sign-ins before now no longer make a device or an address "seen"
     * (migration 038, README "New sign-ins").
     */
    disownSignIns: (id: string, at: Date) => db.query('UPDATE users SET sign_ins_disowned_at = $2 WHERE id = $1', [id, at]),

    /** A new password (a reset): a credentials change, so withdrawals wait after it (migration 015). */
    replacePassword: (id: string, passwordHash: string, at: Date) =>
      db.query('UPDATE users SET password_hash = $2, credentials_changed_at = $3 WHERE id = $1', [id, passwordHash, at]),

    setPendingTotpSecret: (id: string, sealedSecret: string) =>
      db.query('UPDATE users SET totp_pending_secret = $2 WHERE id = $1', [id, sealedSecret]),

    /**
     * Promotes the pending secret; the step of the code that proved it is spent at the same time. A credentials
     * change, so withdrawals wait after it (migration 015).
     */
    enableTotp: (id: string, step: number, at: Date) =>
      db.query(
        `UPDATE users SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_last_step = $2,
                          credentials_changed_at = $3
         WHERE id = $1 AND totp_pending_secret IS NOT NULL`,
        [id, step, at],
      ),

    /** A credentials change, so withdrawals wait after it (migration 015). */
    disableTotp: (id: string, at: Date) =>
      db.query('UPDATE users SET totp_secret = NULL, totp_pending_secret = NULL, credentials_changed_at = $2 WHERE id = $1', [id, at]),

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

/** A user's account protections (migration 021), as the security settings show them. */
export interface ProtectionsRow {
  anti_phishing_code: string | null;
  withdrawal_allowlist: boolean;
  withdrawal_allowlist_enforced_until: Date | null;
}

/** The account protections' columns of users (migration 021). */
export function userProtectionsRepository(db: Queryable) {
  return {
    /**
     * Undefined for an unknown user. `lock` holds the row until the caller's transaction ends: `true` to change
     * it (allowlist changes), `'share'` to act on it (a withdrawal's confirm: a change waits for it, or it for the change).
     * NO KEY UPDATE, not FOR UPDATE: the rows that name the user (a trade's notification) never wait for it.
     */
    find: (userId: string, lock: boolean | 'share' = false) =>
      db.maybe<ProtectionsRow>(
        `SELECT anti_phishing_code, withdrawal_allowlist, withdrawal_allowlist_enforced_until FROM users WHERE id = $1${
          lock === 'share' ? ' FOR SHARE' : lock ? ' FOR NO KEY UPDATE' : ''
        }`,
        [userId],
      ),

    /** The code every mail to this address carries, or undefined (no code, or no account). */
    antiPhishingCodeOf: async (email: string) =>
      (await db.maybe<{ anti_phishing_code: string }>('SELECT anti_phishing_code FROM users WHERE email = $1 AND anti_phishing_code IS NOT NULL', [email]))
        ?.anti_phishing_code,

    /**
     * The changes the security hold counts from (accounts/security-hold.ts): the last credentials change and the
     * newest allowlist address. Read before every open as the seller and every release: kept prepared.
     */
    securityChanges: async (userId: string) => {
      const row = await db.maybe<{ own_credentials_changed_at: Date | null; own_allowlist_added_at: Date | null }>(
        `SELECT ${securityChangesColumns('u', 'own')} FROM users u WHERE u.id = $1`,
        [userId],
        PREPARED,
      );
      return { credentialsChangedAt: row?.own_credentials_changed_at ?? null, allowlistAddedAt: row?.own_allowlist_added_at ?? null };
    },

    setAntiPhishingCode: (userId: string, code: string | null) =>
      db.query('UPDATE users SET anti_phishing_code = $2 WHERE id = $1', [userId, code]),

    /** On: enforced from now, and any wait left over from an earlier "off" no longer matters. */
    enableAllowlist: (userId: string) =>
      db.query('UPDATE users SET withdrawal_allowlist = true, withdrawal_allowlist_enforced_until = NULL WHERE id = $1', [userId]),

    /** Off, yet still enforced until `enforcedUntil` (the wait after turning it off). */
    disableAllowlist: (userId: string, enforcedUntil: Date) =>
      db.query('UPDATE users SET withdrawal_allowlist = false, withdrawal_allowlist_enforced_until = $2 WHERE id = $1', [userId, enforcedUntil]),
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
