import type { NetworkKey, WalletTransactionScope } from '../../../contracts/wallet.ts';
import type { Queryable } from '../infra/db/db.ts';

/** A coin on one of its networks, as a withdrawal needs it. */
export interface Route {
  coin_id: number;
  ticker: string;
  decimal_places: number;
  usd_price: string;
  /** As coin_networks names it for people ("Tron (TRC20)"). */
  network_name: string;
  key: NetworkKey;
  withdrawal_fee: string;
}

/** A kept preview (withdrawal_previews, migration 015), as confirm reads it back. */
export interface KeptPreview {
  user_id: string;
  coin_id: number;
  network: NetworkKey;
  recipient: string;
  scope: WalletTransactionScope;
  amount_crypto: string;
  amount_usd: string;
  fee_crypto: string;
  fee_usd: string;
  /** The coin's USD price the preview used (migration 033); null for a preview kept before it. */
  usd_price: string | null;
  expires_at: Date;
}

/**
 * The SQL of withdrawals (wallets/withdrawals.ts): routes, the kept preview, the history rows (the lock: accounts/security-hold.ts).
 *
 * Locks of a confirm's transaction, in the one order of server/src/ledger/README.md "Lock order", as its
 * statements run: the kept preview's row (`take`, which deletes it), the trader's protections and allowlist
 * entry share-locked (accounts/protections.ts allowlistRefusal), the new history rows (`insertTransaction`:
 * rows nobody else can see yet), and last the ledger entry's balance slots (ledger_post).
 */
export function withdrawalsRepository(db: Queryable) {
  return {
    /** Every network of the coin with this ticker (none: no such coin), in the order base/coins/ lists them. */
    routesOf: (ticker: string) =>
      db.query<Omit<Route, 'key'> & { key: string }>(
        `SELECT c.id AS coin_id, c.ticker, c.decimal_places, c.usd_price::text AS usd_price, n.name AS network_name, n.key,
                n.withdrawal_fee::text AS withdrawal_fee
         FROM coins c LEFT JOIN coin_networks n ON n.coin_id = c.id
         WHERE c.ticker = upper($1)
         ORDER BY n.id`,
        [ticker],
      ),

    /** Who a deposit address on this network belongs to, if it is one of the product's. */
    depositAddressOwner: async (network: NetworkKey, address: string) =>
      (await db.maybe<{ user_id: string }>('SELECT user_id FROM deposit_addresses WHERE network = $1 AND address = $2', [network, address]))
        ?.user_id,

    /** The sender's username and the coin's ticker and places: how the recipient's notification words a transfer. */
    transferWords: (senderId: string, coinId: number) =>
      db.one<{ sender: string; ticker: string; decimal_places: number }>(
        'SELECT u.username AS sender, c.ticker, c.decimal_places FROM users u, coins c WHERE u.id = $1 AND c.id = $2',
        [senderId, coinId],
      ),

    /** Keeps the user's one pending withdrawal: a new preview replaces the old one. */
    keep: (preview: Omit<KeptPreview, 'network'> & { network: string }) =>
      db.query(
        `INSERT INTO withdrawal_previews (user_id, coin_id, network, recipient, scope, amount_crypto, amount_usd, fee_crypto, fee_usd, expires_at, usd_price)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (user_id) DO UPDATE SET coin_id = excluded.coin_id, network = excluded.network, recipient = excluded.recipient,
           scope = excluded.scope, amount_crypto = excluded.amount_crypto, amount_usd = excluded.amount_usd,
           fee_crypto = excluded.fee_crypto, fee_usd = excluded.fee_usd, expires_at = excluded.expires_at, usd_price = excluded.usd_price`,
        [
          preview.user_id,
          preview.coin_id,
          preview.network,
          preview.recipient,
          preview.scope,
          preview.amount_crypto,
          preview.amount_usd,
          preview.fee_crypto,
          preview.fee_usd,
          preview.expires_at,
          preview.usd_price,
        ],
      ),

    /** Forgets the user's kept preview, if any. */
    discard: (userId: string) => db.query('DELETE FROM withdrawal_previews WHERE user_id = $1', [userId]),

    /**
     * Takes the user's kept preview out, expired or not, in one statement: of two confirms racing, the second
     * waits on the row the first deletes and then finds nothing, so a preview executes at most once. The
     * first lock of a confirm's transaction (see the order above).
     */
    take: (userId: string) =>
      db.maybe<KeptPreview>(
        `DELETE FROM withdrawal_previews WHERE user_id = $1
         RETURNING user_id, coin_id, network, recipient, scope, amount_crypto::text AS amount_crypto, amount_usd::text AS amount_usd,
                   fee_crypto::text AS fee_crypto, fee_usd::text AS fee_usd, usd_price::text AS usd_price, expires_at`,
        [userId],
      ),

    /** A withdrawal or deposit row of the history (wallet_transactions), answering its id. */
    insertTransaction: async (row: {
      userId: string;
      coinId: number;
      network: string;
      transType: 'deposit' | 'withdrawal';
      /** `review`: an external withdrawal waiting for an operator (docs/operators.md "Withdrawal review"). */
      status: 'pending' | 'review' | 'completed';
      scope: WalletTransactionScope;
      amountCrypto: string;
      amountUsd: string;
      feeCrypto: string;
      feeUsd: string;
      address: string;
      creditReference: string | null;
      at: Date;
    }) =>
      (
        await db.one<{ id: string }>(
          `INSERT INTO wallet_transactions (user_id, coin_id, network, trans_type, status, scope, amount_crypto, amount_usd,
                                            fee_crypto, fee_usd, address, credit_reference, created_at, completed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, CASE WHEN $5 = 'completed' THEN $13::timestamptz END)
           RETURNING id`,
          [
            row.userId,
            row.coinId,
            row.network,
            row.transType,
            row.status,
            row.scope,
            row.amountCrypto,
            row.amountUsd,
            row.feeCrypto,
            row.feeUsd,
            row.address,
            row.creditReference,
            row.at,
          ],
        )
      ).id,
  };
}
