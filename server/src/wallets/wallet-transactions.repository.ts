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

/** The users' deposits and withdrawals (migration 015, wallet_transactions). */
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
