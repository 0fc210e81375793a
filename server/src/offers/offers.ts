import { Decimal } from 'decimal.js';
import { FIAT_PLACES } from '../../../domain/money.ts';
import {
  OFFER_CONDITION_LIMITS,
  type EditableOffer,
  type OfferComponents,
  type OfferFilters,
  type OfferInput,
  type OfferListItem,
  type OfferPaginator,
  type Paginator,
} from '../../../contracts/market.ts';
import type { Queryable } from '../infra/db/db.ts';
import { refuse, sentences } from '../sentences.ts';
import { offersRepository, type OfferCursor, type OfferPage, type OfferQuery, type OfferRecord, type PageStart, type StoredConditions } from './offers.repository.ts';
import { MAX_INT4, referenceDataRepository } from './reference-data.repository.ts';

/** Offers per page of Browse Offers: the server's choice; the web app shows whatever a page holds. */
export const OFFERS_PAGE_SIZE = 12;

/** Places of a rate (fiat per 1 USD); a fiat amount has FIAT_PLACES. */
export const RATE_PLACES = 8;
/** Integer digits the NUMERIC columns hold (numeric(20,2) and numeric(26,8)); the contract allows as many. */
const INTEGER_DIGITS = 18;

/** The offer fields of a `create` call, as the contract parsed them. */
export type OfferFields = Omit<OfferInput, 'type' | 'update' | 'id'>;

/**
 * A positive decimal with at most `places` places that fits its column, normalised by decimal.js
 * ("007.5" → "7.5"). The contract already refuses anything else; this is the server's own check, so a
 * loosened contract can never make a column round a value silently.
 */
function exactAmount(value: string, field: string, places: number): string {
  const text = value.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) throw refuse.offerAmountNotNumber(field);
  const amount = new Decimal(text);
  if (amount.lte(0)) throw refuse.offerAmountNotPositive(field);
  if (amount.decimalPlaces() > places) throw refuse.offerAmountTooManyPlaces(field, places);
  if (amount.truncated().toFixed().length > INTEGER_DIGITS) throw refuse.offerAmountTooLarge(field);
  return amount.toFixed();
}

/**
 * A stored decimal (NUMERIC's text, never in exponent notation) with trailing zeros past `minPlaces`
 * dropped and at least `minPlaces` places. Pure string work: exact, and cheap on a page of offers.
 */
function withPlaces(value: string, minPlaces: number): string {
  const [whole, fraction = ''] = value.split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(minPlaces, '0')}`;
}

/** A rate as the card shows it: at least 2 places, and every further place the trader set. */
export const formatRate = (value: string): string => withPlaces(value, FIAT_PLACES);

/** An amount of fiat: exactly 2 places (the column holds no more). */
export const formatFiat = (value: string): string => withPlaces(value, FIAT_PLACES);

/** The paginator behind "Previous" and "Next"; `hasMore` comes from reading one row past the page. */
export function paginator(page: number, hasMore: boolean): Paginator {
  return {
    prev: page > 1,
    next: hasMore,
    previous_page: page > 1 ? page - 1 : null,
    next_page: hasMore ? page + 1 : null,
  };
}

/** Where a page of `size` rows starts; the repository reads one row past it, so the page knows whether another follows. */
export const pageWindow = (page: number, size: number) => ({ limit: size, offset: (page - 1) * size });

/** The rows of one page (read through pageWindow) and its paginator. */
export function pageOf<Row>(rows: readonly Row[], page: number, size: number): { rows: Row[]; paginator: Paginator } {
  return { rows: rows.slice(0, size), paginator: paginator(page, rows.length > size) };
}

/**
 * A history's coin filter as the form sends it ('' or none: every coin). A coin id no integer column can hold names
 * no coin: 0, for an empty page rather than a database error.
 */
export function coinFilterOf(coin: number | string | undefined): number | undefined {
  if (coin === undefined || coin === '') return undefined;
  const coinId = Number(coin);
  return coinId >= 1 && coinId <= MAX_INT4 ? coinId : 0;
}

/** An offer's conditions and cap as the contract answers them. */
const conditionsOf = (row: StoredConditions) => ({
  min_completed_trades: row.min_completed_trades,
  min_account_days: row.min_account_days,
  require_two_factor: row.require_two_factor,
  max_open_trades: row.max_open_trades,
});

/**
 * A paginator's `next_cursor` (offer_list_page writes it, migration 040) as the repository reads it; the contract has
 * already refused any other text (contracts/market.ts `offerCursor`).
 */
export function cursorOf(cursor: string): OfferCursor {
  const split = cursor.lastIndexOf('_');
  return { createdAt: cursor.slice(0, split), id: cursor.slice(split + 1) };
}

/** Browse Offers' `list` answer, the page's offers as JSON text (OfferPage) and its paginator, which also names where the next page starts. */
export interface OfferListText {
  offers: string;
  paginator: OfferPaginator;
}

/** The `list` answer as JSON text, in the contract's key order (contracts/market.ts `offerList`). */
export const offerListJson = (list: OfferListText): string => `{"offers":${list.offers},"paginator":${JSON.stringify(list.paginator)}}`;

/** A page with no offer on it. */
const NO_OFFERS: OfferPage = { offers: '[]', hasMore: false, nextCursor: null };

/** Escapes LIKE's wildcards and its escape character, so a search for "a_b%" finds exactly that text. */
export const likeContains = (text: string): string => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * The market/offers/ calls, on any Queryable so the demo seed publishes through the same rules and SQL
 * as the route (inside its transaction).
 */
export function offersService(db: Queryable) {
  const offers = offersRepository(db);
  const reference = referenceDataRepository(db);

  /** Every rule of docs/rules.md "Offers" that the contract's shape checks cannot decide on their own. */
  async function check(fields: OfferFields): Promise<OfferRecord> {
    const rate = exactAmount(fields.rate, 'rate', RATE_PLACES);
    const minAmount = exactAmount(fields.min_amount, 'min_amount', FIAT_PLACES);
    const maxAmount = exactAmount(fields.max_amount, 'max_amount', FIAT_PLACES);
    if (new Decimal(minAmount).gt(maxAmount)) throw refuse.minAboveMax();

    const coinId = Number(fields.coin);
    if (!(await reference.coinExists(coinId))) throw refuse.unknownCoin();
    const currencyCode = fields.currency.toUpperCase();
    if (!(await reference.currencyExists(currencyCode))) throw refuse.unknownCurrency();

    const known = new Map((await reference.paymentMethods()).map((method) => [method.name.toLowerCase(), method.id]));
    const paymentMethodIds: number[] = [];
    for (const name of fields.payment_methods) {
      const id = known.get(name.trim().toLowerCase());
      if (id === undefined) throw refuse.unknownPaymentMethod(name);
      if (paymentMethodIds.includes(id)) throw refuse.repeatedPaymentMethod(name);
      paymentMethodIds.push(id);
    }

    // Stored as written; blank terms are no terms.
    const terms = fields.terms && fields.terms.trim() !== '' ? fields.terms : null;

    // The contract checked each condition's range; absent or null is none (and the default cap).
    return {
      offerType: fields.offer_type,
      coinId,
      currencyCode,
      rate,
      minAmount,
      maxAmount,
      paymentMethodIds,
      terms,
      minCompletedTrades: fields.min_completed_trades ?? 0,
      minAccountDays: fields.min_account_days ?? 0,
      requireTwoFactor: fields.require_two_factor ?? false,
      maxOpenTrades: fields.max_open_trades ?? OFFER_CONDITION_LIMITS.maxOpenTrades.default,
    };
  }

  /**
   * The list's filters as the table holds them (an upper-case code, lower-case method names, the trader search as an
   * escaped ILIKE pattern); `undefined` when a filter can match no offer at all (a coin id out of range), which
   * answers an empty page without a query. Empty entries ("" or []) are no filter (docs/api.md "market/offers list").
   */
  function listQuery(filters: OfferFilters): OfferQuery | undefined {
    const query: OfferQuery = {};
    if (filters.offer_type) query.offerType = filters.offer_type;
    if (filters.coin__id !== undefined && filters.coin__id !== '') {
      const coinId = Number(filters.coin__id);
      if (!(coinId >= 1 && coinId <= MAX_INT4)) return undefined;
      query.coinId = coinId;
    }
    if (filters.currency__code) query.currencyCode = filters.currency__code.toUpperCase();
    const search = filters.user__username__icontains?.trim() ?? '';
    if (search !== '') query.usernamePattern = likeContains(search);
    const methodNames = (filters.payment_methods__overlap ?? []).map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
    if (methodNames.length > 0) query.paymentMethodNames = methodNames;
    return query;
  }

  /** A page of the offers the filters match: one statement whatever they are (offers.repository.ts `listPage`). */
  async function pageOfOffers(filters: OfferFilters, start: PageStart): Promise<OfferPage> {
    const query = listQuery(filters);
    return query ? offers.listPage(query, start, OFFERS_PAGE_SIZE) : NO_OFFERS;
  }

  return {
    /**
     * base/coins/: every coin with its networks and current USD price, read from the table the price source
     * writes, so every server process answers the same figure.
     */
    async coins() {
      const coins = await reference.coinsWithNetworks();
      return coins.map(({ usd_price, ...coin }) => ({ ...coin, price: usd_price }));
    },

    async components(): Promise<OfferComponents> {
      const [paymentMethods, coins, currencies] = await Promise.all([reference.paymentMethods(), reference.coins(), reference.currencies()]);
      return {
        payment_methods: paymentMethods,
        coins,
        currencies: currencies.map((currency) => ({ code: currency.code, name: currency.name, fx_rate: formatRate(currency.usd_rate) })),
      };
    },

    /**
     * A page of Browse Offers: page number `page`, which starts after the offer `cursor` names when one is given (a
     * paginator's `next_cursor`: the page is found straight off the index, however deep) and after (page - 1) × 12
     * offers otherwise.
     */
    async list(page: number, filters: OfferFilters, cursor?: string | null): Promise<OfferListText> {
      const found = await pageOfOffers(filters, cursor ? { after: cursorOf(cursor) } : { offset: (page - 1) * OFFERS_PAGE_SIZE });
      return { offers: found.offers, paginator: { ...paginator(page, found.hasMore), next_cursor: found.nextCursor } };
    },

    /** A trader's live offers, newest first, at most `limit`, as Browse Offers shows them (a trader profile). */
    async activeOf(userId: string, limit: number): Promise<OfferListItem[]> {
      return JSON.parse((await offers.listPage({ userIds: [userId] }, { offset: 0 }, limit)).offers) as OfferListItem[];
    },

    /**
     * The offer as the edit form loads it. Only its owner may, and to anyone else someone else's offer does
     * not exist (404, like an unknown id): a different answer would let anyone probe for paused offers,
     * which are listed nowhere.
     */
    async editable(id: number, userId: string): Promise<EditableOffer> {
      const offer = await offers.find(id);
      if (!offer || offer.user_id !== userId) throw refuse.offerNotFound();
      return {
        id: Number(offer.id),
        offer_type: offer.offer_type,
        coin__id: offer.coin_id,
        rate: formatRate(offer.rate),
        payment_methods: offer.payment_methods,
        currency__code: offer.currency_code,
        terms: offer.terms,
        min_amount: formatFiat(offer.min_amount),
        max_amount: formatFiat(offer.max_amount),
        is_active: offer.is_active,
        ...conditionsOf(offer),
      };
    },

    /** Publishes a new, active offer; answers its id. */
    async publish(userId: string, fields: OfferFields, now: Date): Promise<number> {
      return Number(await offers.insert(userId, await check(fields), now));
    },

    /** Rewrites the caller's own offer; whether it is paused stays as it was. Someone else's answers 404, as `editable`. */
    async update(id: number, userId: string, fields: OfferFields, now: Date): Promise<void> {
      if (!(await offers.updateOwn(id, userId, await check(fields), now))) throw refuse.offerNotFound();
    },

    /**
     * Pauses every live offer of a trader an operator suspends, in the suspension's transaction (`db` is it);
     * answers their ids. The caller drops Browse Offers' cached pages (`offersChanged`) once it committed.
     */
    pauseAllOf(userId: string, now: Date): Promise<number[]> {
      return offers.pauseAllOfUser(userId, now);
    },

    /** Pauses or resumes the caller's own offer; answers whether it is now live. Someone else's answers 404, as `editable`. */
    async toggle(id: number, userId: string, now: Date): Promise<boolean> {
      const active = await offers.toggleOwn(id, userId, now);
      if (active === undefined) throw refuse.offerNotFound();
      return active;
    },
  };
}

/**
 * The market/offers/ calls as a trader makes them: the offer rules above, and after every write the
 * `changed` signal that drops the cached pages of Browse Offers (in every process). Answers the sentences
 * the trader reads.
 */
export function offerDesk(db: Queryable, changed: () => Promise<void>) {
  const offers = offersService(db);
  return {
    ...offers,

    /**
     * `create`: publishes a new offer, or with `update` rewrites one of the caller's. An id sent along with
     * update:false is the form's empty edit id: a new offer is published either way.
     */
    async save(userId: string, request: OfferFields & { update: boolean; id?: number | null }, now: Date): Promise<string> {
      const { update, id, ...fields } = request;
      if (!update) {
        await offers.publish(userId, fields, now);
        await changed();
        return sentences.offerPublished;
      }
      if (id === undefined || id === null) throw refuse.offerIdRequired();
      await offers.update(id, userId, fields, now);
      await changed();
      return sentences.offerUpdated;
    },

    /** `toggle`: pauses or resumes the caller's own offer, with the sentence for it. */
    async pauseOrResume(userId: string, id: number, now: Date): Promise<{ is_active: boolean; message: string }> {
      const active = await offers.toggle(id, userId, now);
      await changed();
      return { is_active: active, message: active ? sentences.offerResumed : sentences.offerPaused };
    },
  };
}

export type OfferDesk = ReturnType<typeof offerDesk>;
