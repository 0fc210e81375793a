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

/** The list's filters as the table holds them: an upper-case code, lower-case method names, a LIKE pattern. */
export interface OfferQuery {
  offerType?: OfferType;
  coinId?: number;
  currencyCode?: string;
  /** Non-empty, lower case: the offer accepts at least one of the payment methods so named (names of no method: no offer). */
  paymentMethodNames?: string[];
  /** Non-empty: the offer belongs to one of these users (a trader's own offers). */
  userIds?: string[];
  /** An ILIKE pattern on the owner's username, the search's own wildcards already escaped: the trader search. */
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
 * Entries a list with a payment method filter walks in the list's order before it looks the other way: a method most
 * offers accept fills a page within a few dozen entries; one that fewer than 13 in WALK_ENTRIES of the newest accept is
 * rare enough (under 0.7% of them) that reading the offers accepting it (offers_live_payment_methods) and sorting them
 * is cheaper than walking on.
 */
export const WALK_ENTRIES = 2000;

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

/**
 * The pick's conditions on an offer `o` that every index in the list's order holds or leads with: live, after the
 * cursor if any, the type, the coin, the currency. The payment methods and the traders are checked apart (listPage).
 */
function pickConditions(query: OfferQuery, start: PageStart, param: SqlParams['add']): string[] {
  const where = ['o.is_active'];
  if ('after' in start) where.push(`(o.created_at, o.id) < (${param(start.after.createdAt)}::timestamptz, ${param(start.after.id)}::bigint)`);
  if (query.offerType) where.push(`o.offer_type = ${param(query.offerType)}`);
  if (query.coinId !== undefined) where.push(`o.coin_id = ${param(query.coinId)}`);
  if (query.currencyCode) where.push(`o.currency_code = ${param(query.currencyCode)}`);
  return where;
}

/**
 * The offers of a few traders (`owners`, a set of user ids as `owner (id)`) that meet `where`, as rows (id, created_at):
 * each one's newest straight off offers_live_by_user_covering, which holds every column a filter checks, at most `need`
 * apiece (the page cannot need more from any one of them). Walking all offers newest first would read past
 * everybody else's offers to find theirs. `only`: a condition on the statement (no offer's) under which any is read.
 */
function byOwner(owners: string, where: string[], need: number, only?: string): string {
  return `SELECT o.id, o.created_at FROM ${owners} AS owner (id)
     CROSS JOIN LATERAL (
       SELECT o.id, o.created_at FROM offers o
       WHERE o.user_id = owner.id AND ${where.join(' AND ')}
       ORDER BY ${NEWEST_FIRST} LIMIT ${need}
     ) o
     ${only ? `WHERE ${only}` : ''}`;
}

/** The search's own text, from its escaped pattern: a trigram index can look it up when it is TRIGRAM characters or more. */
const searchedText = (pattern: string) => pattern.slice(1, -1).replace(/\\(.)/g, '$1');

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
     * from `start`, and whether another follows (one more offer is read to tell, never a count). Always one statement,
     * whatever the filters: the payment methods' names and the trader search are looked up inside it.
     *
     * It has two parts. The pick, here, finds the page's ids using only the offers table and its partial indexes, each
     * in the list's order (so it stops after offset + size + 1 entries that match) and holding the columns the filters
     * check (migration 040), so the entries it passes over cost no visit to the table. Only the filters given appear in
     * it: a "$1 IS NULL OR …" form would keep the planner from choosing the index that fits. The page,
     * offer_list_page (migration 042), then reads those offers alone and writes the page's JSON, with a plan it keeps
     * per connection.
     *
     * Prepared (planned once per connection and filter shape) for every first page and every page by cursor: each
     * part whose best way depends on the values chooses at run time, from what the statement has read so far, between
     * parts planned for both (a one-time filter runs only one):
     * - a trader search reads the matching users (users_username_trigrams); while at most FEW_TRADERS match, their
     *   offers by owner; with more, it walks the offers in the list's order, checking each owner in a hash of them;
     * - payment methods alone walk the newest WALK_ENTRIES entries in the list's order; when those hold less than a
     *   page, the method is rare, and its offers are read through offers_live_payment_methods and sorted.
     * The checks the walks make on an entry are written `(…) IS TRUE`, so that the plan made without the values
     * cannot look them up in another index instead (which suits a rare value and is ruinous for a common one); the
     * users' hash is a subplan run once. Without those two filters a page number is a parameter too. With them, a page
     * number past the first is planned for its values, its offset written into the text (a plan made for "LIMIT $n"
     * assumes a tenth of the table, and each page number would otherwise be a statement kept on every connection). A
     * search shorter than TRIGRAM characters holds no trigram, so the plan made without its value (the trigram index)
     * would not suit it: it is planned for its value.
     */
    async listPage(query: OfferQuery, start: PageStart, size: number): Promise<OfferPage> {
      const window = pageWindow(start, size);
      const need = window.offset + window.read;
      const { add: param, values: params } = sqlParams();
      const where = pickConditions(query, start, param);
      const ctes: string[] = [];
      let methods: string | undefined;
      if (query.paymentMethodNames) {
        ctes.push(`methods AS MATERIALIZED (SELECT array_agg(id) AS ids FROM payment_methods WHERE lower(name) = ANY (${param(query.paymentMethodNames)}::text[]))`);
        methods = 'o.payment_method_ids && (SELECT ids FROM methods)';
      }
      const all = methods ? [...where, methods] : where;
      const ordered = (rows: string) => `SELECT o.id FROM (${rows}) o ORDER BY ${NEWEST_FIRST} ${window.sql}`;
      let pick: string;
      let planSafe = window.offset === 0;
      if (query.userIds) {
        if (query.userIds.length <= FEW_TRADERS) pick = ordered(byOwner(`unnest(${param(query.userIds)}::bigint[])`, all, need));
        else {
          planSafe = false;
          pick = `SELECT o.id FROM offers o WHERE ${[...all, `o.user_id = ANY (${param(query.userIds)}::bigint[])`].join(' AND ')} ORDER BY ${NEWEST_FIRST} ${window.sql}`;
        }
      } else if (query.usernamePattern) {
        planSafe &&= searchedText(query.usernamePattern).length >= TRIGRAM;
        ctes.unshift(`owners AS MATERIALIZED (SELECT id FROM users WHERE username ILIKE ${param(query.usernamePattern)})`);
        ctes.push(`few AS MATERIALIZED (SELECT count(*) <= ${FEW_TRADERS} AS few FROM (SELECT FROM owners LIMIT ${FEW_TRADERS + 1}) counted)`);
        const walkChecks = [...(methods ? [methods] : []), 'o.user_id IN (SELECT id FROM owners)'];
        pick = ordered(
          `(${byOwner('owners', all, need, '(SELECT few FROM few)')})
           UNION ALL
           (SELECT o.id, o.created_at FROM offers o
            WHERE ${where.join(' AND ')} AND (${walkChecks.join(' AND ')}) IS TRUE AND NOT (SELECT few FROM few)
            ORDER BY ${NEWEST_FIRST} LIMIT ${need})`,
        );
      } else if (methods) {
        ctes.push(`walk AS MATERIALIZED (
           SELECT o.id, o.created_at FROM (
             SELECT o.id, o.created_at, o.payment_method_ids FROM offers o WHERE ${where.join(' AND ')}
             ORDER BY ${NEWEST_FIRST} LIMIT ${WALK_ENTRIES + need}
           ) o
           WHERE (${methods}) IS TRUE ORDER BY ${NEWEST_FIRST} LIMIT ${need})`);
        pick = ordered(
          `SELECT o.id, o.created_at FROM walk o WHERE (SELECT count(*) FROM walk) = ${need}
           UNION ALL
           (SELECT o.id, o.created_at FROM (SELECT o.id, o.created_at FROM offers o WHERE ${all.join(' AND ')} OFFSET 0) o
            WHERE (SELECT count(*) FROM walk) < ${need} ORDER BY ${NEWEST_FIRST} LIMIT ${need})`,
        );
      } else {
        // Here every shape (type, coin, currency, or none) has one ordered index walk and nothing else a plan could
        // choose, whatever the offset (EXPLAIN of their generic plans with "OFFSET $n"): a page number is a parameter.
        planSafe = true;
        pick = `SELECT o.id FROM offers o WHERE ${where.join(' AND ')} ORDER BY ${NEWEST_FIRST} LIMIT ${window.read}${window.offset > 0 ? ` OFFSET ${param(window.offset)}::bigint` : ''}`;
      }
      const [page] = await db.query<RenderedPage>(
        `${ctes.length ? `WITH ${ctes.join(',\n')} ` : ''}SELECT ${PAGE_COLUMNS} FROM offer_list_page(ARRAY(${pick}), ${size}) page`,
        params,
        planSafe ? PREPARED : undefined,
      );
      return pageOf(page);
    },

    countActiveOf: async (userId: string): Promise<number> =>
      (await db.one<{ count: number }>('SELECT count(*)::int AS count FROM offers WHERE user_id = $1 AND is_active', [userId]))
        .count,
  };
}
