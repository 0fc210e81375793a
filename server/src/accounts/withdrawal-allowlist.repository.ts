import type { NetworkKey } from '../../../contracts/wallet.ts';
import type { Queryable } from '../infra/db/db.ts';

export interface AllowlistRow {
  /** INT8 arrives as text from both drivers. */
  id: string;
  network: NetworkKey;
  address: string;
  label: string;
  created_at: Date;
  usable_from: Date;
}

const COLUMNS = 'id, network, address, label, created_at, usable_from';

/** The addresses a user may withdraw to while their allowlist is enforced (migration 021). */
export function withdrawalAllowlistRepository(db: Queryable) {
  return {
    /** Every network key a coin travels on (coin_networks), whether or not this server can derive or check its addresses. */
    carriedNetworks: async () => (await db.query<{ key: string }>('SELECT DISTINCT key FROM coin_networks ORDER BY key')).map((row) => row.key),

    /** Oldest first: the order the trader added them in. */
    listOfUser: (userId: string) =>
      db.query<AllowlistRow>(`SELECT ${COLUMNS} FROM withdrawal_allowlist WHERE user_id = $1 ORDER BY created_at, id`, [userId]),

    countOfUser: async (userId: string) =>
      Number((await db.one<{ count: string | number }>('SELECT count(*) AS count FROM withdrawal_allowlist WHERE user_id = $1', [userId])).count),

    /** Undefined when the address is already on the user's list for that network (the unique key decides). */
    insert: (entry: { userId: string; network: NetworkKey; address: string; label: string; now: Date; usableFrom: Date }) =>
      db.maybe<AllowlistRow>(
        `INSERT INTO withdrawal_allowlist (user_id, network, address, label, created_at, usable_from)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, network, address) DO NOTHING RETURNING ${COLUMNS}`,
        [entry.userId, entry.network, entry.address, entry.label, entry.now, entry.usableFrom],
      ),

    /** Only the owner's entry: another user's id removes nothing and answers undefined. */
    remove: (userId: string, id: number) =>
      db.maybe<AllowlistRow>(`DELETE FROM withdrawal_allowlist WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`, [id, userId]),

    /**
     * The entry for this recipient, as the network writes it, or undefined when it is not on the list. `share`
     * holds it until the caller's transaction ends: a removal in progress is waited for, one to come waits.
     */
    find: (userId: string, network: NetworkKey, address: string, share = false) =>
      db.maybe<AllowlistRow>(
        `SELECT ${COLUMNS} FROM withdrawal_allowlist WHERE user_id = $1 AND network = $2 AND address = $3${share ? ' FOR SHARE' : ''}`,
        [userId, network, address],
      ),
  };
}
