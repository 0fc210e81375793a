import { PREPARED, type Queryable } from '../infra/db/db.ts';

/** One coin network of the `addresses` call, with the coin, the user's available balance and their address on it. */
export type AddressRow = {
  coin_id: number;
  label: string;
  ticker: string;
  image: string;
  usd_price: string;
  decimal_places: number;
  /** Available balance; "0" without an account. */
  balance: string;
} & (
  | {
      network_id: number;
      network_name: string;
      network_image: string;
      network_key: string;
      /** Null until the user's address on this network is allocated. */
      address: string | null;
    }
  /** A coin without any network: it still has its entry, with no networks. */
  | { network_id: null; network_name: null; network_image: null; network_key: null; address: null }
);

/** The users' deposit addresses (migration 015, deposit_addresses): one per user and network, never shared. */
export function depositAddressesRepository(db: Queryable) {
  return {
    /**
     * Every coin (coin order) crossed with its networks (network order), with the user's balance and
     * address: the whole `addresses` answer in one statement, so a user whose addresses exist costs one read.
     */
    entriesOf: (userId: string) =>
      db.query<AddressRow>(
        `SELECT c.id AS coin_id, c.label, c.ticker, c.image, c.usd_price, c.decimal_places, coalesce(b.balance, 0) AS balance,
                n.id AS network_id, n.name AS network_name, n.image AS network_image, n.key AS network_key, d.address
         FROM coins c
         LEFT JOIN ledger_account_balances b ON b.coin_id = c.id AND b.user_id = $1 AND b.kind = 'available'
         LEFT JOIN coin_networks n ON n.coin_id = c.id
         LEFT JOIN deposit_addresses d ON d.user_id = $1 AND d.network = n.key
         ORDER BY c.id, n.id`,
        [userId],
        // Every visit to Deposit runs it: a lookup by user whose plan does not depend on who asks.
        PREPARED,
      ),

    /**
     * Serialises allocation on one network until the transaction ends, so two users asking at once never
     * read the same next index. The key is derived from the network, in a namespace of its own
     * ('deposit-address:'), apart from the other advisory locks (migration, seed, email codes, logins).
     */
    lockNetwork: (network: string) =>
      db.query("SELECT pg_advisory_xact_lock(hashtext('deposit-address:' || $1::text))", [network]),

    /** The user's address on a network, if allocated (read again under the network's lock). */
    addressOf: (userId: string, network: string) =>
      db.maybe<{ address: string; derivation_index: number }>('SELECT address, derivation_index FROM deposit_addresses WHERE user_id = $1 AND network = $2', [
        userId,
        network,
      ]),

    /** The first child index no user has on this network (indexes are handed out in order, without gaps). */
    nextIndex: async (network: string) =>
      (
        await db.one<{ next: number }>(
          'SELECT coalesce(max(derivation_index) + 1, 0)::integer AS next FROM deposit_addresses WHERE network = $1',
          [network],
        )
      ).next,

    /** The owners of those of `addresses` that are deposit addresses on this network. */
    ownersOf: (network: string, addresses: readonly string[]) =>
      db.query<{ user_id: string; address: string }>('SELECT user_id, address FROM deposit_addresses WHERE network = $1 AND address = ANY($2::text[])', [
        network,
        [...addresses],
      ]),

    /** The first address handed out on each network that has one (wallet-keys.plugin.ts checks its key against it). */
    firstOfEachNetwork: () =>
      db.query<{ network: string; derivation_index: number; address: string }>(
        `SELECT DISTINCT ON (network) network, derivation_index, address FROM deposit_addresses ORDER BY network, derivation_index`,
      ),

    insert: (row: { userId: string; network: string; index: number; address: string; now: Date }) =>
      db.query(
        `INSERT INTO deposit_addresses (user_id, network, derivation_index, address, created_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [row.userId, row.network, row.index, row.address, row.now],
      ),
  };
}
