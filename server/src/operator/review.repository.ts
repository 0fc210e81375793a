import type { WatchedWithdrawal } from '../chain/chain.repository.ts';
import type { Queryable } from '../infra/db/db.ts';

/** A withdrawal in review, as the queue and a decision read it (wallet_transactions, migrations 015 and 033): the watcher's figures and who, worth what, since when. */
export type ReviewRow = Omit<WatchedWithdrawal, 'txid'> & { username: string; amount_usd: string; created_at: Date };

const REVIEW_COLUMNS = `w.id::text AS id, w.user_id::text AS user_id, u.username, w.coin_id, c.ticker, c.decimal_places, w.network, w.address,
  w.amount_crypto::text AS amount_crypto, w.amount_usd::text AS amount_usd, w.fee_crypto::text AS fee_crypto, w.created_at`;

/**
 * The SQL of withdrawal review (operator/operator-review.ts). A decision is one guarded UPDATE, `status = 'review'`
 * → `pending` (approved) or `cancelled` (rejected), the first statement of its transaction: it locks the
 * withdrawal's row (server/src/ledger/README.md "Lock order", group 1), and of two decisions racing the second
 * waits for the first, finds the status changed and updates nothing. The refund's ledger entry comes after it.
 */
export function reviewRepository(db: Queryable) {
  return {
    /** The withdrawals waiting for a decision, oldest first, at most `limit`. */
    queue: (limit: number) =>
      db.query<ReviewRow>(
        `SELECT ${REVIEW_COLUMNS}
         FROM wallet_transactions w JOIN users u ON u.id = w.user_id JOIN coins c ON c.id = w.coin_id
         WHERE w.status = 'review'
         ORDER BY w.created_at, w.id
         LIMIT $1`,
        [limit],
      ),

    /**
     * `review` → `pending`, by compare-and-set: answers the withdrawal when this call approved it, nothing when it
     * is not (or no longer) in review.
     */
    approve: (id: number, operatorId: string, at: Date) =>
      db.maybe<ReviewRow>(
        `UPDATE wallet_transactions w SET status = 'pending', reviewed_by = $2, reviewed_at = $3
         FROM users u, coins c
         WHERE w.id = $1 AND w.trans_type = 'withdrawal' AND w.status = 'review' AND u.id = w.user_id AND c.id = w.coin_id
         RETURNING ${REVIEW_COLUMNS}`,
        [id, operatorId, at],
      ),

    /**
     * `review` → `cancelled` ('rejected', with the operator's reason), by compare-and-set: answers the withdrawal when
     * this call rejected it, nothing when it is not (or no longer) in review. Its refund is the caller's next statement.
     */
    reject: (id: number, operatorId: string, at: Date, reason: string) =>
      db.maybe<ReviewRow>(
        `UPDATE wallet_transactions w SET status = 'cancelled', cancel_reason = 'rejected', review_reason = $4, reviewed_by = $2, reviewed_at = $3
         FROM users u, coins c
         WHERE w.id = $1 AND w.trans_type = 'withdrawal' AND w.status = 'review' AND u.id = w.user_id AND c.id = w.coin_id
         RETURNING ${REVIEW_COLUMNS}`,
        [id, operatorId, at, reason],
      ),

    /** Why a decision found nothing to decide: the withdrawal as it is now, if there is one. */
    withdrawalState: (id: number) =>
      db.maybe<{ status: string; decided: boolean }>(
        `SELECT status, reviewed_by IS NOT NULL AS decided FROM wallet_transactions WHERE id = $1 AND trans_type = 'withdrawal'`,
        [id],
      ),
  };
}
