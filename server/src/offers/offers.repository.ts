import type { OfferType } from '../../../contracts/market.ts';
import { PREPARED, sqlParams, type Queryable, type SqlParams } from '../infra/db/db.ts';

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

/**
 * A page of Browse Offers as the database answers it: the offers already as the contract's JSON
 * (contracts/market.ts `offerListItem`, its keys in its order), so the server sends that text on without
 * building, checking and serialising every offer again (tests/server/offers.test.ts proves the text is what
 * the contract accepts, byte for byte).
 */
export interface OfferPage {
  /** A JSON array of at most the page's size of offers. */
  offers: string;
  /** Another offer follows the page. */
  hasMore: boolean;
  /** Where the next page starts (the page's last offer, `OfferCursor`), when another offer follows. */
  nextCursor: string | null;
}

/** A position in the list's order (newest first): after this offer. What `OfferPage.nextCursor` names. */
export interface OfferCursor {
  /** The offer's created_at to the microsecond, ISO 8601 in UTC: a Date would drop the microseconds. */
  createdAt: string;
  id: string;
}

/** Where a page starts: after `offset` offers (a page number), or after the offer a cursor names (keyset). */
export type PageStart = { offset: number } | { after: OfferCursor };

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

/** The characters of a trigram: a search shorter than this has none for the trigram index to look up. */
const TRIGRAM = 3;

/**
 * Up to this many traders matching a search, the list reads exactly their offers (by user id, through
 * offers_live_by_user_covering, or with the other filters by walking an index with a plan made for those ids); beyond it
 * the search is so broad that walking the newest offers and checking each owner's name finds a page sooner, and
 * a list of thousands of ids would only cost time to send.
 */
export const SEARCH_USER_LIMIT = 200;

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

/** What offer_list_page answers. */
interface RenderedPage {
  offers: string;
  has_more: boolean;
  next_cursor: string | null;
}
const PAGE_COLUMNS = 'page.offers, page.has_more, page.next_cursor';
const pageOf = (page: RenderedPage | undefined): OfferPage => ({
  offers: page?.offers ?? '[]',
  hasMore: page?.has_more ?? false,
  nextCursor: page?.next_cursor ?? null,
});

/**
 * A page's place in the pick: the offers it reads (offset + size + 1: one more tells whether another page
 * follows) and the LIMIT/OFFSET that says so, as literals (the server's own integers) since a plan made for
 * "LIMIT $n" assumes a tenth of the table.
 */
function pageWindow(start: PageStart, size: number) {
  const offset = 'offset' in start ? start.offset : 0;
  if (!Number.isSafeInteger(size) || size < 1 || !Number.isSafeInteger(offset) || offset < 0) throw new Error(`Bad page window: ${size} from ${offset}`);
  const read = size + 1;
  return { offset, read, sql: `LIMIT ${read}${offset > 0 ? ` OFFSET ${offset}` : ''}` };
}

/** The pick's conditions on an offer `o`: live, after the cursor if any, and every filter given but the traders'. */
function pickConditions(query: OfferQuery, start: PageStart, param: SqlParams['add']): string[] {
  const where = ['o.is_active'];
  if ('after' in start) where.push(`(o.created_at, o.id) < (${param(start.after.createdAt)}::timestamptz, ${param(start.after.id)}::bigint)`);
  if (query.offerType) where.push(`o.offer_type = ${param(query.offerType)}`);
  if (query.coinId !== undefined) where.push(`o.coin_id = ${param(query.coinId)}`);
  if (query.currencyCode) where.push(`o.currency_code = ${param(query.currencyCode)}`);
  if (query.paymentMethodIds) where.push(`o.payment_method_ids && ${param(query.paymentMethodIds)}::integer[]`);
  // Backslash is LIKE's default escape character, which is what the pattern's escaping uses.
  if (query.usernamePattern) where.push(`o.user_id IN (SELECT u.id FROM users u WHERE u.username ILIKE ${param(query.usernamePattern)})`);
  return where;
}

/**
 * The pick for a few traders (`owners`, a set of user ids as `owner (id)`): each one's newest offers straight off
 * offers_live_by_user_covering, at most offset + size + 1 apiece (the page cannot need more from any one of them), then the
 * page from their union. Walking all offers newest first would read past everybody else's offers to find theirs.
 * `only`: a condition on the statement (no offer's) under which any is read.
 */
function byOwner(owners: string, where: string[], window: ReturnType<typeof pageWindow>, only?: string): string {
  return `SELECT o.id FROM ${owners} AS owner (id)
     CROSS JOIN LATERAL (
       SELECT o.id, o.created_at FROM offers o
       WHERE o.user_id = owner.id AND ${where.join(' AND ')}
       ORDER BY ${NEWEST_FIRST} LIMIT ${window.offset + window.read}
     ) o
     ${only ? `WHERE ${only}` : ''}
     ORDER BY ${NEWEST_FIRST} ${window.sql}`;
}

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
     * One page of active offers matching every filter given, newest first, as OfferPage: `size` offers
     * from `start`, and whether another follows (one more offer is read to tell, never a count).
     *
     * One statement in two parts. The pick, here, finds the page's ids using only the offers table and its
     * partial indexes, each in the list's order (so it stops after offset + size + 1 entries) and holding the
     * columns the filters check (migration 040), so the entries it passes over cost no visit to the table.
     * Only the filters given appear in it: a "$1 IS NULL OR …" form would keep the planner from choosing the
     * index that fits. The sizes and the offset are the server's own integers, written into the text, because
     * a plan made for "LIMIT $n" assumes a tenth of the table. The page, offer_list_page (migration 040), then
     * reads those offers alone and writes the page's JSON, with a plan it keeps per connection.
     *
     * The statement is prepared (planned once per connection and shape) whenever a plan made without the
     * values suits every value (`planSafe`). Otherwise it is planned for its values each time, which costs
     * little since the page's part is the function's: a payment method filter (a rare method is best found
     * through offers_live_payment_methods, a common one by walking the newest offers), a trader search
     * matching more than FEW_TRADERS traders (by owner for a few of them; for many, walking with the other
     * filters, in whichever index suits them), and an offset, which would also make every page number a
     * statement of its own.
     */
    async listPage(query: OfferQuery, start: PageStart, size: number): Promise<OfferPage> {
      const window = pageWindow(start, size);
      const { add: param, values: params } = sqlParams();
      const where = pickConditions(query, start, param);
      const fewTraders = query.userIds !== undefined && query.userIds.length <= FEW_TRADERS;
      let pick: string;
      if (query.userIds && fewTraders) {
        pick = byOwner(`unnest(${param(query.userIds)}::bigint[])`, where, window);
      } else {
        if (query.userIds) where.push(`o.user_id = ANY (${param(query.userIds)}::bigint[])`);
        pick = `SELECT o.id FROM offers o WHERE ${where.join(' AND ')} ORDER BY ${NEWEST_FIRST} ${window.sql}`;
      }
      const planSafe = window.offset === 0 && !query.paymentMethodIds && !query.usernamePattern && (query.userIds === undefined || fewTraders);
      const [page] = await db.query<RenderedPage>(`SELECT ${PAGE_COLUMNS} FROM offer_list_page(ARRAY(${pick}), ${size}) page`, params, planSafe ? PREPARED : undefined);
      return pageOf(page);
    },

    /**
     * The trader search, in one statement while it can be: the users whose name contains the search (an escaped
     * ILIKE pattern; through users_username_trigrams), and when at most FEW_TRADERS match, their page at once,
     * read by owner as `listPage` reads a few traders. Payment method names (lower case) are resolved in the same
     * statement: within one owner's offers their ids change no plan. When more traders match, no offer is read
     * (the pick is skipped) and the answer is what `listPage` needs to walk the offers with a plan made for
     * them: the users' ids up to SEARCH_USER_LIMIT + 1, and the methods' ids.
     *
     * Prepared for a search of TRIGRAM characters or more (each holds a trigram, so the plan made without the
     * value, the trigram index, suits them all; a shorter one holds none and is planned for its value, a walk
     * of the users) and an offset of 0.
     */
    async searchPage(
      pattern: string,
      query: Omit<OfferQuery, 'userIds' | 'usernamePattern' | 'paymentMethodIds'>,
      methodNames: string[] | undefined,
      start: PageStart,
      size: number,
    ): Promise<{ page: OfferPage } | { userIds: string[]; paymentMethodIds: number[] | undefined }> {
      const window = pageWindow(start, size);
      const { add: param, values: params } = sqlParams();
      const matching = `SELECT id FROM users WHERE username ILIKE ${param(pattern)} LIMIT ${SEARCH_USER_LIMIT + 1}`;
      const methods = methodNames ? `SELECT array_agg(id ORDER BY id) AS ids FROM payment_methods WHERE lower(name) = ANY (${param(methodNames)}::text[])` : undefined;
      const where = pickConditions(query, start, param);
      if (methods) where.push('o.payment_method_ids && (SELECT ids FROM methods)');
      const few = `(SELECT count(*) FROM owners) <= ${FEW_TRADERS}`;
      const [row] = await db.query<RenderedPage & { owners: string[] | null; method_ids: number[] | null }>(
        `WITH owners AS MATERIALIZED (${matching})${methods ? `, methods AS MATERIALIZED (${methods})` : ''}
         SELECT ${PAGE_COLUMNS},
                CASE WHEN NOT ${few} THEN ARRAY(SELECT id FROM owners) END AS owners,
                ${methods ? '(SELECT ids FROM methods)' : 'NULL::integer[]'} AS method_ids
         FROM offer_list_page(ARRAY(${byOwner('owners', where, window, few)}), ${size}) page`,
        params,
        window.offset === 0 && pattern.slice(1, -1).replace(/\\(.)/g, '$1').length >= TRIGRAM ? PREPARED : undefined,
      );
      if (!row?.owners) return { page: pageOf(row) };
      return { userIds: row.owners, paymentMethodIds: methods ? (row.method_ids ?? []) : undefined };
    },

    countActiveOf: async (userId: string): Promise<number> =>
      (await db.one<{ count: number }>('SELECT count(*)::int AS count FROM offers WHERE user_id = $1 AND is_active', [userId]))
        .count,
  };
}
