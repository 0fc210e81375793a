import type { OfferType } from '../../../contracts/market.ts';
import { sqlParams, type Queryable } from '../infra/db/db.ts';
import { TRADER_FIGURES } from '../reputation/trader-stats.repository.ts';

/** An offer as the server stores it, after every rule has been checked (offers/offers.ts). */
export interface OfferRecord {
  offerType: OfferType;
  coinId: number;
  currencyCode: string;
  /** Fiat per 1 USD, an exact decimal string with at most 8 places. */
  rate: string;
  /** Fiat, exact decimal strings with at most 2 places. */
  minAmount: string;
  maxAmount: string;
  /** Ids from payment_methods, in the owner's order, no repeats. */
  paymentMethodIds: number[];
  terms: string | null;
  /** The counterparty conditions (0 / false: none) and the cap of pending trades on the offer (1–20). */
  minCompletedTrades: number;
  minAccountDays: number;
  requireTwoFactor: boolean;
  maxOpenTrades: number;
}

/** An offer's conditions and cap as stored, by the names the contract answers them with. */
export interface StoredConditions {
  min_completed_trades: number;
  min_account_days: number;
  require_two_factor: boolean;
  max_open_trades: number;
}

/** The conditions' columns of an offer `o`, for the reads that answer them. */
const CONDITION_COLUMNS = 'o.min_completed_trades, o.min_account_days, o.require_two_factor, o.max_open_trades';

export interface StoredOffer extends StoredConditions {
  /** INT8 arrives as text from both drivers. */
  id: string;
  user_id: string;
  offer_type: OfferType;
  coin_id: number;
  currency_code: string;
  rate: string;
  min_amount: string;
  max_amount: string;
  payment_methods: string[];
  terms: string | null;
  is_active: boolean;
}

/** The list's filters, resolved to what the table holds: ids, an upper-case code, a LIKE pattern. */
export interface OfferQuery {
  offerType?: OfferType;
  coinId?: number;
  currencyCode?: string;
  /** Non-empty: the offer accepts at least one of these payment method ids. */
  paymentMethodIds?: number[];
  /** Non-empty: the offer belongs to one of these users (the trader search, resolved first). */
  userIds?: string[];
  /** An ILIKE pattern on the owner's username, wildcards in the search already escaped: the trader search when it matched too many users to list. */
  usernamePattern?: string;
}

export interface ListedOfferRow extends StoredConditions {
  id: string;
  user_id: string;
  offer_type: OfferType;
  coin__image: string;
  coin__label: string;
  coin__ticker: string;
  currency__code: string;
  rate: string;
  min_amount: string;
  max_amount: string;
  payment_methods: string[];
  user__username: string;
  /** The owner's figures (reputation/trader-stats.repository.ts): completed trades as either party, and so on. */
  user__trades_count: number;
  user__completion_rate: string | null;
  user__rating: string;
  user__ratings_count: number;
  user__rated_by: number;
  created_at: Date;
}

/**
 * The names of an offer's payment methods in the owner's order. A scalar subquery rather than a join of
 * unnest(): it plans in a fraction of the time, which on a list of 12 offers is most of the query's cost.
 */
const PAYMENT_METHOD_NAMES = `(
  SELECT array_agg(pm.name ORDER BY array_position(o.payment_method_ids, pm.id))
  FROM payment_methods pm WHERE pm.id = ANY (o.payment_method_ids)
)`;

/**
 * Up to this many traders, the trader search reads each one's offers by owner; with more, their offers
 * are common enough that walking the newest offers and checking each owner finds a page sooner.
 */
export const FEW_TRADERS = 20;

/** Newest first; the id breaks ties between offers created in the same instant, so pages never overlap. */
const NEWEST_FIRST = 'o.created_at DESC, o.id DESC';

/** An offer's columns in the order `insert` and `updateOwn` write them, after their own leading parameters. */
const recordParameters = (offer: OfferRecord, now: Date) => [
  offer.offerType,
  offer.coinId,
  offer.currencyCode,
  offer.rate,
  offer.minAmount,
  offer.maxAmount,
  offer.paymentMethodIds,
  offer.terms,
  now,
  offer.minCompletedTrades,
  offer.minAccountDays,
  offer.requireTwoFactor,
  offer.maxOpenTrades,
];

export function offersRepository(db: Queryable) {
  return {
    insert: async (userId: string, offer: OfferRecord, now: Date): Promise<string> =>
      (
        await db.one<{ id: string }>(
          `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount,
                               payment_method_ids, terms, created_at, updated_at,
                               min_completed_trades, min_account_days, require_two_factor, max_open_trades)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8::integer[], $9, $10, $10, $11, $12, $13, $14) RETURNING id`,
          [userId, ...recordParameters(offer, now)],
        )
      ).id,

    /** Rewrites an offer only if `userId` owns it, in one statement; false when nothing matched. Pausing is left as it was. */
    updateOwn: async (id: number, userId: string, offer: OfferRecord, now: Date): Promise<boolean> =>
      (
        await db.query(
          `UPDATE offers SET offer_type = $3, coin_id = $4, currency_code = $5, rate = $6, min_amount = $7,
                             max_amount = $8, payment_method_ids = $9::integer[], terms = $10, updated_at = $11,
                             min_completed_trades = $12, min_account_days = $13, require_two_factor = $14, max_open_trades = $15
           WHERE id = $1 AND user_id = $2 RETURNING id`,
          [id, userId, ...recordParameters(offer, now)],
        )
      ).length === 1,

    /**
     * Pauses a live offer or resumes a paused one, only if `userId` owns it; answers the new state, or
     * undefined when nothing matched. One statement, so two racing toggles flip it twice, never lose one.
     */
    toggleOwn: async (id: number, userId: string, now: Date): Promise<boolean | undefined> =>
      (
        await db.maybe<{ is_active: boolean }>(
          `UPDATE offers SET is_active = NOT is_active, updated_at = $3
           WHERE id = $1 AND user_id = $2 RETURNING is_active`,
          [id, userId, now],
        )
      )?.is_active,

    /**
     * Pauses every live offer of the user (a suspension, docs/operators.md "Traders and suspension"); answers the
     * paused offers' ids, in id order. The open statement takes only a live offer, so a trade cannot open on one
     * once this committed.
     */
    pauseAllOfUser: async (userId: string, now: Date): Promise<number[]> =>
      (
        await db.query<{ id: string }>('UPDATE offers SET is_active = false, updated_at = $2 WHERE user_id = $1 AND is_active RETURNING id', [
          userId,
          now,
        ])
      )
        .map((row) => Number(row.id))
        .sort((a, b) => a - b),

    find: (id: number) =>
      db.maybe<StoredOffer>(
        `SELECT o.id, o.user_id, o.offer_type, o.coin_id, o.currency_code, o.rate, o.min_amount, o.max_amount,
                ${PAYMENT_METHOD_NAMES} AS payment_methods, o.terms, o.is_active, ${CONDITION_COLUMNS}
         FROM offers o WHERE o.id = $1`,
        [id],
      ),

    /**
     * One page of active offers matching every filter given, newest first, plus up to `extra` rows past
     * the page so the caller can tell whether another page follows without counting the whole result.
     *
     * The inner query picks the page using only the offers table and its partial indexes (each ends in
     * the list's order, so it stops after offset + limit rows); the outer one looks up the owner's name,
     * the coin, the payment method names and the owner's figures (counters, never their trades or ratings)
     * for those few rows only (rows skipped by OFFSET never are).
     * Scalar subqueries instead of joins to users: the same work, but far less for the planner, whose
     * time dominates a query this small. Only the filters given appear in the SQL: a "$1 IS NULL OR …"
     * form would keep the planner from choosing the index that fits.
     */
    listActive(query: OfferQuery, offset: number, limit: number) {
      const { add: param, values: params } = sqlParams();
      const where = ['o.is_active'];
      if (query.offerType) where.push(`o.offer_type = ${param(query.offerType)}`);
      if (query.coinId !== undefined) where.push(`o.coin_id = ${param(query.coinId)}`);
      if (query.currencyCode) where.push(`o.currency_code = ${param(query.currencyCode)}`);
      if (query.paymentMethodIds) where.push(`o.payment_method_ids && ${param(query.paymentMethodIds)}::integer[]`);
      // Backslash is LIKE's default escape character, which is what the pattern's escaping uses.
      if (query.usernamePattern) where.push(`o.user_id IN (SELECT u.id FROM users u WHERE u.username ILIKE ${param(query.usernamePattern)})`);

      let page: string;
      if (query.userIds && query.userIds.length <= FEW_TRADERS) {
        // A few traders: each one's newest offers straight off offers_live_by_user, at most offset + limit
        // apiece (the page cannot need more from any one of them), then the page from their union. Walking
        // all offers newest first would read past everybody else's offers to find theirs.
        const perTrader = param(offset + limit);
        page = `SELECT o.* FROM unnest(${param(query.userIds)}::bigint[]) AS owner (id)
           CROSS JOIN LATERAL (
             SELECT o.* FROM offers o
             WHERE o.user_id = owner.id AND ${where.join(' AND ')}
             ORDER BY ${NEWEST_FIRST} LIMIT ${perTrader}
           ) o`;
      } else {
        if (query.userIds) where.push(`o.user_id = ANY (${param(query.userIds)}::bigint[])`);
        page = `SELECT o.* FROM offers o WHERE ${where.join(' AND ')}`;
      }
      return db.query<ListedOfferRow>(
        `SELECT o.id, o.user_id, o.offer_type, c.image AS coin__image, c.label AS coin__label, c.ticker AS coin__ticker,
                o.currency_code AS currency__code, o.rate, o.min_amount, o.max_amount,
                ${PAYMENT_METHOD_NAMES} AS payment_methods,
                (SELECT u.username FROM users u WHERE u.id = o.user_id) AS user__username,
                f.trades_count AS user__trades_count, f.completion_rate AS user__completion_rate,
                f.rating AS user__rating, f.ratings_count AS user__ratings_count, f.rated_by AS user__rated_by,
                o.created_at, ${CONDITION_COLUMNS}
         FROM (${page} ORDER BY ${NEWEST_FIRST} LIMIT ${param(limit)} OFFSET ${param(offset)}) o
         JOIN coins c ON c.id = o.coin_id
         CROSS JOIN LATERAL ${TRADER_FIGURES('o.user_id')} f
         ORDER BY ${NEWEST_FIRST}`,
        params,
      );
    },

    /**
     * Users whose name contains the search (an escaped ILIKE pattern), up to `limit`: the trader search
     * goes through the trigram index here, before any offer is read, so that a search matching nobody
     * costs one index lookup and one matching a few traders reads only their offers.
     */
    usersMatching: async (pattern: string, limit: number): Promise<string[]> =>
      (await db.query<{ id: string }>('SELECT id FROM users WHERE username ILIKE $1 LIMIT $2', [pattern, limit])).map(
        (row) => row.id,
      ),

    countActiveOf: async (userId: string): Promise<number> =>
      (await db.one<{ count: number }>('SELECT count(*)::int AS count FROM offers WHERE user_id = $1 AND is_active', [userId]))
        .count,
  };
}
