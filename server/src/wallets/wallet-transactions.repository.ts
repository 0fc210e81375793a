import type { WalletTransactionScope, WalletTransactionStatus, WalletTransactionType } from '../../../contracts/wallet.ts';
import { sqlParams, type Queryable } from '../infra/db/db.ts';

export interface WalletHistoryQuery {
  userId: string;
  transType?: WalletTransactionType;
  status?: WalletTransactionStatus;
  coinId?: number;
  limit: number;
  offset: number;
}

export interface WalletHistoryRow {
  id: string;
  created_at: Date;
  trans_type: WalletTransactionType;
  image: string;
  ticker: string;
  decimal_places: number;
  network: string;
  amount_crypto: string;
  amount_usd: string;
  fee_crypto: string;
  fee_usd: string;
  txid: string | null;
  scope: WalletTransactionScope;
  status: WalletTransactionStatus;
}

/** Deposits from the chain to record, one array per column, index by index (unnest). */
export interface ChainDepositRows {
  userIds: string[];
  coinIds: number[];
  /** `pending`, or `cancelled` below the deposit minimum. */
  statuses: string[];
  /** Decimal strings. */
  amounts: string[];
  usds: string[];
  addresses: string[];
  txids: string[];
  vouts: number[];
  references: string[];
  /** The block height holding each (a decimal string), or null where the chain has no re-organisable blocks (the simulated chain). */
  blocks: (string | null)[];
}

/** A deposit that became `completed`, with what its ledger entry and notification need. */
export interface CreditedDeposit {
  user_id: string;
  coin_id: number;
  /** A decimal string. */
  amount_crypto: string;
  credit_reference: string;
  network: string;
  ticker: string;
  decimal_places: number;
}

/**
 * The users' deposits and withdrawals (migration 015, wallet_transactions).
 *
 * Locks (server/src/ledger/README.md "Lock order"): a deposit's credit takes the deposit's row first, by the
 * guarded UPDATE of `creditDeposit`, and only then the ledger entry that pays for it takes its balance slots
 * (ledger_post), as the chain watcher's withdrawal settlements do (chain/chain.repository.ts).
 */
export function walletTransactionsRepository(db: Queryable) {
  return {
    /**
     * One page of a user's transactions, newest first (the index wallet_transactions_by_user), with one row
     * more than `limit` when there is more.
     */
    history: (query: WalletHistoryQuery) => {
      const p = sqlParams();
      const where: string[] = [`w.user_id = ${p.add(query.userId)}`];
      if (query.transType) where.push(`w.trans_type = ${p.add(query.transType)}`);
      if (query.status) where.push(`w.status = ${p.add(query.status)}`);
      if (query.coinId !== undefined) where.push(`w.coin_id = ${p.add(query.coinId)}`);
      return db.query<WalletHistoryRow>(
        `SELECT w.id, w.created_at, w.trans_type, c.image, c.ticker, c.decimal_places, w.network, w.amount_crypto,
                w.amount_usd, w.fee_crypto, w.fee_usd, w.txid, w.scope, w.status
         FROM wallet_transactions w JOIN coins c ON c.id = w.coin_id
         WHERE ${where.join(' AND ')}
         ORDER BY w.created_at DESC, w.id DESC
         LIMIT ${p.add(query.limit + 1)} OFFSET ${p.add(query.offset)}`,
        p.values,
      );
    },

    /**
     * Records deposits seen on the chain, idempotently on their (network, txid, vout); answers the rows that
     * are new (a transfer recorded before, by this process or another, adds nothing) with their owners.
     */
    insertChainDeposits: (network: string, at: Date, rows: ChainDepositRows) =>
      db.query<{ id: string; user_id: string }>(
        // A transfer seen again: a deposit a re-organisation dropped comes back as it is now (pending, or below
        // the minimum), and any deposit takes the block that holds it now; otherwise nothing changes. Answers
        // the rows new or changed.
        `INSERT INTO wallet_transactions AS w (user_id, coin_id, network, trans_type, status, cancel_reason, scope, amount_crypto, amount_usd,
                                          address, txid, vout, credit_reference, block_number, created_at)
         SELECT d.user_id, d.coin_id, $1, 'deposit', d.status, CASE WHEN d.status = 'cancelled' THEN 'below_minimum' END, 'external',
                d.amount, d.usd, d.address, d.txid, d.vout, d.reference, d.block, $2
         FROM unnest($3::bigint[], $4::integer[], $5::text[], $6::numeric[], $7::numeric[], $8::text[], $9::text[], $10::integer[], $11::text[], $12::bigint[])
              AS d (user_id, coin_id, status, amount, usd, address, txid, vout, reference, block)
         ON CONFLICT (network, txid, vout) DO UPDATE
           SET block_number = excluded.block_number,
               status = CASE WHEN w.cancel_reason = 'reorganised' THEN excluded.status ELSE w.status END,
               cancel_reason = CASE WHEN w.cancel_reason = 'reorganised' THEN excluded.cancel_reason ELSE w.cancel_reason END
           WHERE w.cancel_reason IS NOT DISTINCT FROM 'reorganised' OR w.block_number IS DISTINCT FROM excluded.block_number
         RETURNING id, user_id`,
        [network, at, rows.userIds, rows.coinIds, rows.statuses, rows.amounts, rows.usds, rows.addresses, rows.txids, rows.vouts, rows.references, rows.blocks],
      ),

    /** The network's deposits from the chain waiting for confirmations, oldest first (internal ones settle at once). */
    pendingChainDeposits: (network: string) =>
      db.query<{ id: string; txid: string }>(
        `SELECT id, txid FROM wallet_transactions
         WHERE network = $1 AND trans_type = 'deposit' AND scope = 'external' AND status = 'pending' AND txid IS NOT NULL
         ORDER BY id`,
        [network],
      ),

    /**
     * `pending` → `completed` for one deposit; answers it when this call did it. Locks the deposit's row:
     * call it before the credit's ledger entry, in the same transaction.
     */
    creditDeposit: (id: string, at: Date) =>
      db.maybe<CreditedDeposit>(
        `UPDATE wallet_transactions w SET status = 'completed', completed_at = $2
         FROM coins c
         WHERE w.id = $1 AND w.trans_type = 'deposit' AND w.status = 'pending' AND c.id = w.coin_id
         RETURNING w.user_id, w.coin_id, w.amount_crypto::text AS amount_crypto, w.credit_reference, w.network, c.ticker, c.decimal_places`,
        [id, at],
      ),

    /**
     * A demo trader's starting balance (seed.ts), already posted under `reference`, as a completed deposit
     * on the coin's first network: the same row migration 015's backfill writes for databases seeded before
     * it, so both paths agree. It never touched a chain, so its txid is the SHA-256 of the reference (hex,
     * 0x-prefixed on ethereum: shaped like the network's txids, stable and unique), vout 0, no address, and
     * USD at the coin's price now. A coin without a network gets no row.
     */
    insertDemoDeposit: (deposit: { userId: string; coinId: number; amount: string; reference: string; at: Date }) =>
      db.query(
        `INSERT INTO wallet_transactions (user_id, coin_id, network, trans_type, status, scope, amount_crypto, amount_usd,
                                          txid, vout, credit_reference, created_at, completed_at)
         SELECT $1, c.id, n.key, 'deposit', 'completed', 'external', $3::numeric, round($3::numeric * c.usd_price, 2),
                CASE n.key WHEN 'ethereum' THEN '0x' ELSE '' END || encode(sha256(convert_to($4::text, 'UTF8')), 'hex'),
                0, $4::text, $5, $5
         FROM coins c
         JOIN LATERAL (SELECT key FROM coin_networks WHERE coin_id = c.id ORDER BY id LIMIT 1) AS n ON true
         WHERE c.id = $2`,
        [deposit.userId, deposit.coinId, deposit.amount, deposit.reference, deposit.at],
      ),
  };
}
