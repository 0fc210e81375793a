import { NETWORK_KEYS, type NetworkKey } from '../../../contracts/wallet.ts';
import type { Queryable } from '../infra/db/db.ts';
import type { IncomingTransfer } from './adapter.ts';

/** What an operator must look at (chain_incidents, migration 027). */
export type ChainIncidentKind =
  | 'credited_deposit_reorganised'
  | 'hot_wallet_short'
  | 'withdrawal_reverted'
  | 'withdrawal_nonce_taken'
  | 'reorganisation_too_deep';

/** An external withdrawal still pending (wallet_transactions, migration 015), as the watcher hands it on or settles it. */
export interface WatchedWithdrawal {
  id: string;
  user_id: string;
  coin_id: number;
  ticker: string;
  decimal_places: number;
  network: string;
  address: string;
  /** Decimal strings: the amount asked and the network fee deducted from it. */
  amount_crypto: string;
  fee_crypto: string;
  /** Null until the broadcast's transaction id is stored. */
  txid: string | null;
}

/**
 * The chain watcher's SQL (chain/watcher.ts): the networks it watches, its cursor per network (chain_cursors)
 * and the external withdrawals it broadcasts and settles (wallet_transactions, migration 015). Every write is
 * guarded by the state it leaves, so several processes may run rounds at once.
 *
 * Locks (server/src/ledger/README.md "Lock order"): a withdrawal's settlement (`completeWithdrawal`,
 * `cancelWithdrawal`) takes the withdrawal's row first, by its guarded UPDATE, and only then the ledger entry
 * that pays for it takes its balance slots (ledger_post).
 */
export function chainRepository(db: Queryable) {
  return {
    /** Every network coin_networks names, known to this server or not, in name order. */
    networkKeys: async () => (await db.query<{ key: string }>('SELECT DISTINCT key FROM coin_networks ORDER BY key')).map((row) => row.key),

    /** Where the watcher stopped reading the network's chain (none yet: from the start). */
    cursorOf: async (network: NetworkKey) =>
      (await db.maybe<{ cursor: string }>('SELECT cursor FROM chain_cursors WHERE network = $1', [network]))?.cursor ?? null,

    /**
     * Moves the network's cursor from `from` to `to` by compare-and-set (the first cursor is an insert that
     * another process may have made first); answers whether this call moved it.
     */
    moveCursor: async (network: NetworkKey, from: string | null, to: string) => {
      const moved =
        from === null
          ? await db.query('INSERT INTO chain_cursors (network, cursor) VALUES ($1, $2) ON CONFLICT (network) DO NOTHING RETURNING network', [
              network,
              to,
            ])
          : await db.query('UPDATE chain_cursors SET cursor = $3 WHERE network = $1 AND cursor IS NOT DISTINCT FROM $2 RETURNING network', [
              network,
              from,
              to,
            ]);
      return moved.length > 0;
    },

    /** The watcher finished a round on these networks at `at` (chain_watch_rounds, migration 034; never moved back). */
    roundsFinished: (networks: readonly NetworkKey[], at: Date) =>
      db.query(
        `INSERT INTO chain_watch_rounds (network, finished_at) SELECT unnest($1::text[]), $2
         ON CONFLICT (network) DO UPDATE SET finished_at = greatest(chain_watch_rounds.finished_at, EXCLUDED.finished_at)`,
        [networks, at],
      ),

    /** The network's pending external withdrawals, oldest first: broadcast already (a txid stored) or still waiting for it. */
    pendingWithdrawals: (network: NetworkKey, broadcast: boolean) =>
      db.query<WatchedWithdrawal>(
        `SELECT w.id, w.user_id, w.coin_id, c.ticker, c.decimal_places, w.network, w.address, w.amount_crypto::text AS amount_crypto,
                w.fee_crypto::text AS fee_crypto, w.txid
         FROM wallet_transactions w JOIN coins c ON c.id = w.coin_id
         WHERE w.network = $1 AND w.trans_type = 'withdrawal' AND w.scope = 'external' AND w.status = 'pending'
           AND (w.txid IS NOT NULL) = $2
         ORDER BY w.id`,
        [network, broadcast],
      ),

    /**
     * `pending` → `completed` for a broadcast withdrawal the chain confirmed; answers whether this call did
     * it. Locks the withdrawal's row: call it before the ledger entry, in the same transaction.
     */
    completeWithdrawal: async (id: string, at: Date) =>
      (
        await db.query(
          `UPDATE wallet_transactions SET status = 'completed', completed_at = $2
           WHERE id = $1 AND status = 'pending' AND txid IS NOT NULL RETURNING id`,
          [id, at],
        )
      ).length > 0,

    /**
     * `pending` → `cancelled` for a withdrawal the chain refused, only while no txid is stored (a withdrawal
     * the chain took once is never refunded); answers whether this call did it. Locks the withdrawal's row:
     * call it before the refund's ledger entry, in the same transaction.
     */
    cancelWithdrawal: async (id: string, error: string | null) =>
      (
        await db.query(
          `UPDATE wallet_transactions SET status = 'cancelled', broadcast_error = $2
           WHERE id = $1 AND status = 'pending' AND txid IS NULL RETURNING id`,
          [id, error],
        )
      ).length > 0,

    /** A broadcast that decided nothing (the node is down, a timeout): counted and kept for the next round. */
    recordBroadcastFailure: (id: string, error: string) =>
      db.query(
        `UPDATE wallet_transactions SET broadcast_attempts = broadcast_attempts + 1, broadcast_error = $2
         WHERE id = $1 AND status = 'pending' AND txid IS NULL`,
        [id, error],
      ),

    /** Stores a broadcast's transaction id on a still pending withdrawal that has none; answers whether this call stored it. */
    storeTxid: async (id: string, txid: string) =>
      (
        await db.query<{ status: string }>(
          `UPDATE wallet_transactions SET txid = $2 WHERE id = $1 AND txid IS NULL AND status = 'pending' RETURNING status`,
          [id, txid],
        )
      ).length > 0,

    /**
     * Follows a still pending, broadcast withdrawal under another transaction id (its replacement, or the
     * attempt the chain mined); answers whether this call changed it.
     */
    followTxid: async (id: string, txid: string) =>
      (
        await db.query(`UPDATE wallet_transactions SET txid = $2 WHERE id = $1 AND status = 'pending' AND txid IS NOT NULL AND txid <> $2 RETURNING id`, [
          id,
          txid,
        ])
      ).length > 0,

    /**
     * The network's pending chain deposits recorded in blocks above `height`, now `cancelled` as `reorganised`
     * (recording them again from a new block turns them pending: wallets/wallet-transactions.repository.ts), with their owners.
     */
    dropDepositsAbove: (network: NetworkKey, height: number) =>
      db.query<{ id: string; user_id: string }>(
        `UPDATE wallet_transactions SET status = 'cancelled', cancel_reason = 'reorganised'
         WHERE network = $1 AND trans_type = 'deposit' AND scope = 'external' AND status = 'pending' AND block_number > $2
         RETURNING id, user_id`,
        [network, height],
      ),

    /** The network's credited chain deposits recorded in blocks above `height`. */
    creditedDepositsAbove: (network: NetworkKey, height: number) =>
      db.query<{ id: string; txid: string; credit_reference: string; amount_crypto: string; ticker: string }>(
        `SELECT w.id, w.txid, w.credit_reference, w.amount_crypto::text AS amount_crypto, c.ticker
         FROM wallet_transactions w JOIN coins c ON c.id = w.coin_id
         WHERE w.network = $1 AND w.trans_type = 'deposit' AND w.scope = 'external' AND w.status = 'completed' AND w.block_number > $2
         ORDER BY w.id`,
        [network, height],
      ),

    /** Writes an incident down once per kind and subject (migration 027); answers whether this call wrote it. */
    reportIncident: async (incident: { network: NetworkKey; kind: ChainIncidentKind; subject: string; detail: string; at: Date }) =>
      (
        await db.query(
          `INSERT INTO chain_incidents (network, kind, subject, detail, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (kind, subject) DO NOTHING RETURNING id`,
          [incident.network, incident.kind, incident.subject, incident.detail, incident.at],
        )
      ).length > 0,

    /** The incidents no operator has closed yet, oldest first (all networks, or one). */
    openIncidents: (network?: NetworkKey) =>
      db.query<{ id: string; network: string; kind: ChainIncidentKind; subject: string; detail: string; created_at: Date }>(
        `SELECT id, network, kind, subject, detail, created_at FROM chain_incidents
         WHERE resolved_at IS NULL AND ($1::text IS NULL OR network = $1) ORDER BY id`,
        [network ?? null],
      ),

    /** A withdrawal's status and txid as they are now. */
    withdrawalState: (id: string) =>
      db.maybe<{ status: string; txid: string | null }>('SELECT status, txid FROM wallet_transactions WHERE id = $1', [id]),
  };
}

/**
 * The simulated chain's SQL (chain/simulated.ts): its transfers and heights (simulated_chain_transfers,
 * simulated_chain_heights, migration 015).
 *
 * Writers of simulated_chain_transfers call `lockTransfers` first, in their transaction. The watcher's cursor
 * is the `seq` column, and an identity value is handed out when a row is inserted, not when it commits: two
 * writers at once could commit seq 11 before seq 10, and a watcher that read up to 11 in between would never
 * see 10. With writers taking turns, the committed rows are always a prefix of the sequence. Readers
 * (SELECT) are not blocked by it.
 */
export function simulatedChainRepository(db: Queryable) {
  return {
    /** The coins that travel on a network, with their places, in the order they were added. */
    coinsOn: (network: NetworkKey) =>
      db.query<{ ticker: string; decimal_places: number }>(
        `SELECT c.ticker, c.decimal_places FROM coin_networks n JOIN coins c ON c.id = n.coin_id WHERE n.key = $1 ORDER BY n.id`,
        [network],
      ),

    /** Writers take turns until their transaction ends (see above). */
    lockTransfers: () => db.query('LOCK TABLE simulated_chain_transfers IN SHARE ROW EXCLUSIVE MODE'),

    /** The transfer a broadcast with this reference already made, if any. */
    sentWith: (reference: string) => db.maybe<{ txid: string }>('SELECT txid FROM simulated_chain_transfers WHERE reference = $1', [reference]),

    /** One transfer, unmined (output 0 of its transaction). */
    insertTransfer: (transfer: { network: NetworkKey; txid: string; asset: string; address: string; amount: string; reference: string | null; at: Date }) =>
      db.query(
        `INSERT INTO simulated_chain_transfers (network, txid, vout, asset, address, amount, reference, created_at)
         VALUES ($1, $2, 0, $3, $4, $5, $6, $7)`,
        [transfer.network, transfer.txid, transfer.asset, transfer.address, transfer.amount, transfer.reference, transfer.at],
      ),

    /**
     * The network's height, the lowest block holding a transfer after sequence number `after` (none: null), and
     * how many transfers come after it.
     */
    progress: (network: NetworkKey, after: string) =>
      db.one<{ head: number | null; first_unread: number | null; unread: string }>(
        `SELECT (SELECT height FROM simulated_chain_heights WHERE network = $1) AS head,
                (SELECT min(block_height) FROM simulated_chain_transfers WHERE network = $1 AND seq > $2::bigint) AS first_unread,
                (SELECT count(*) FROM simulated_chain_transfers WHERE network = $1 AND seq > $2::bigint) AS unread`,
        [network, after],
      ),

    /** Up to `limit` transfers on the network after sequence number `after`, in sequence order. */
    transfersAfter: (network: NetworkKey, after: string, limit: number) =>
      db.query<IncomingTransfer & { seq: string }>(
        `SELECT seq, txid, vout, asset, address, amount::text AS amount
         FROM simulated_chain_transfers WHERE network = $1 AND seq > $2::bigint ORDER BY seq LIMIT $3`,
        [network, after, limit],
      ),

    /** Each known txid's confirmations: 0 while unmined, else the blocks from its own to the network's height. */
    confirmationsOf: (network: NetworkKey, txids: readonly string[]) =>
      db.query<{ txid: string; confirmations: number }>(
        `SELECT DISTINCT t.txid,
                CASE WHEN t.block_height IS NULL THEN 0 ELSE coalesce(h.height, 0) - t.block_height + 1 END AS confirmations
         FROM simulated_chain_transfers t LEFT JOIN simulated_chain_heights h ON h.network = t.network
         WHERE t.network = $1 AND t.txid = ANY($2::text[])`,
        [network, [...txids]],
      ),

    /** `blocks` blocks pass on every network; every transfer still unmined gets the first of them. */
    mine: (blocks: number) =>
      db.query(
        `WITH raised AS (
           INSERT INTO simulated_chain_heights (network, height) SELECT unnest($1::text[]), $2::integer
           ON CONFLICT (network) DO UPDATE SET height = simulated_chain_heights.height + EXCLUDED.height
           RETURNING network, height)
         UPDATE simulated_chain_transfers AS t SET block_height = r.height - $2::integer + 1
         FROM raised AS r
         WHERE t.network = r.network AND t.block_height IS NULL`,
        [[...NETWORK_KEYS], blocks],
      ),
  };
}
