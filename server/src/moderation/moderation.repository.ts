import { PREPARED, type Queryable } from '../infra/db/db.ts';
import type { DisputeOutcome } from '../../../contracts/trade.ts';
import type { TradeStatus } from '../../../contracts/user.ts';

/** One disputed trade as the desk lists it. */
export interface DisputeRow {
  channel: string;
  buyer: string;
  seller: string;
  ticker: string;
  image: string;
  decimal_places: number;
  trading_amount_crypto: string;
  trading_amount: string;
  currency_code: string;
  /** Null only if the user who raised it were gone (users are never deleted). */
  disputed_by: string | null;
  disputed_at: Date;
  dispute_reason: string | null;
}

/** A trade that was disputed, with everything a moderator weighs. */
export interface DisputeDetailRow extends DisputeRow {
  id: string;
  status: TradeStatus;
  buyer_paid: boolean;
  dispute_raised: boolean;
  payment_method: string;
  rate: string;
  fee_crypto: string;
  amount_crypto: string;
  created_at: Date;
  paid_at: Date | null;
  payer_account: string | null;
  resolution: DisputeOutcome | null;
  resolution_text: string | null;
  resolved_at: Date | null;
}

const DISPUTE_COLUMNS = `t.channel, b.username AS buyer, s.username AS seller, c.ticker, c.image, c.decimal_places,
  t.trading_amount_crypto, t.trading_amount, t.currency_code, d.username AS disputed_by, t.disputed_at, t.dispute_reason`;
const DISPUTE_JOINS = `JOIN users b ON b.id = t.buyer_id JOIN users s ON s.id = t.seller_id JOIN coins c ON c.id = t.coin_id
  LEFT JOIN users d ON d.id = t.disputed_by`;

/** The dispute desk's reads (moderators only; the route checks the role before any of these runs). */
export function moderationRepository(db: Queryable) {
  return {
    /** The trades under dispute now, oldest dispute first (index trades_open_disputes), at most `limit`. */
    openDisputes: (limit: number) =>
      db.query<DisputeRow>(
        `SELECT ${DISPUTE_COLUMNS} FROM trades t ${DISPUTE_JOINS}
         WHERE t.dispute_raised
         ORDER BY t.disputed_at, t.id
         LIMIT $1`,
        [limit],
        PREPARED,
      ),

    /** A trade that is or was disputed (settled ones too); undefined for an unknown channel or one never disputed. */
    disputed: (channel: string) =>
      db.maybe<DisputeDetailRow>(
        `SELECT ${DISPUTE_COLUMNS}, t.id, t.status, t.buyer_paid, t.dispute_raised, t.payment_method, t.rate, t.fee_crypto,
                t.amount_crypto, t.created_at, t.paid_at, t.payer_account, t.resolution, t.resolution_text, t.resolved_at
         FROM trades t ${DISPUTE_JOINS}
         WHERE t.channel = $1 AND t.disputed_at IS NOT NULL`,
        [channel],
        PREPARED,
      ),
  };
}
