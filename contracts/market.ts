import { z } from 'zod/mini';
import { apiNames, thousands } from './common.ts';

/** A positive decimal written as a string: money never crosses the wire as a float. */
export const positiveDecimal = (field: string, maxScale: number) =>
  z
    .string({
      // A float (`12.5`) is not "missing": say what to send instead.
      error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a decimal number in a string, like "12.50"`),
    })
    .check(
    z.trim(),
    z.regex(/^\d{1,18}(\.\d+)?$/, `${field} must be a number`),
    z.refine((value) => !/^0+(\.0+)?$/.test(value), `${field} must be greater than 0`),
    z.refine((value) => (value.split('.')[1]?.length ?? 0) <= maxScale, `${field} has too many decimal places (at most ${maxScale})`),
  );

export const offerType = z.enum(['buy', 'sell']);

/**
 * What an offer's owner may ask of a taker, and how many pending trades the offer takes at once (docs/rules.md
 * "Offers"). 0 means no condition; `max_open_trades` is 1–20 and 3 unless the owner chooses.
 */
export const OFFER_CONDITION_LIMITS = {
  /** The most completed trades an offer may ask for. */
  minCompletedTradesMax: 100_000,
  /** The oldest account an offer may ask for, in days (ten years). */
  minAccountDaysMax: 3650,
  maxOpenTrades: { min: 1, max: 20, default: 3 },
} as const;

/** A whole number of `field` within [min, max], with one sentence for anything else (a float, a string, out of range). */
const wholeNumber = (field: string, min: number, max: number) => {
  const sentence = `${field} must be a whole number from ${thousands(min)} to ${thousands(max)}`;
  return z.int({ error: sentence }).check(z.gte(min, sentence), z.lte(max, sentence));
};

/** The conditions' fields of `create`, each optional: absent or null is no condition (and 3 open trades). */
export const offerConditionFields = {
  min_completed_trades: z.optional(z.nullable(wholeNumber('min_completed_trades', 0, OFFER_CONDITION_LIMITS.minCompletedTradesMax))),
  min_account_days: z.optional(z.nullable(wholeNumber('min_account_days', 0, OFFER_CONDITION_LIMITS.minAccountDaysMax))),
  require_two_factor: z.optional(z.nullable(z.boolean({ error: 'require_two_factor must be true or false' }))),
  max_open_trades: z.optional(
    z.nullable(wholeNumber('max_open_trades', OFFER_CONDITION_LIMITS.maxOpenTrades.min, OFFER_CONDITION_LIMITS.maxOpenTrades.max)),
  ),
};

/** An offer's conditions as the server answers them (list items, the edit form's offer): 0 / false is none. */
export const offerConditions = {
  /** The taker's completed trades (as reputation counts them) must be at least this. */
  min_completed_trades: z.int(),
  /** The taker's account must be at least this many whole days old. */
  min_account_days: z.int(),
  /** The taker must have two-factor authentication on. */
  require_two_factor: z.boolean(),
  /** Pending trades on this offer at once, 1–20. */
  max_open_trades: z.int(),
};
export type OfferConditions = { min_completed_trades: number; min_account_days: number; require_two_factor: boolean };
export type OfferType = z.infer<typeof offerType>;

export const paymentMethod = z.object({ id: z.int(), name: z.string() });
export const coinListItem = z.object({ id: z.int(), label: z.string(), ticker: z.string(), image: z.string() });
export const currency = z.object({ code: z.string(), name: z.string(), fx_rate: z.string() });

/** base/coins/ — the coins with their current USD price and networks. */
export const coin = z.object({
  id: z.int(),
  label: z.string(),
  ticker: z.string(),
  image: z.string(),
  decimal_places: z.int(),
  price: z.string(),
  networks: z.array(z.object({ id: z.int(), name: z.string(), key: z.string(), image: z.string() })),
});
export type Coin = z.infer<typeof coin>;
export const coinsResponse = z.array(coin).register(apiNames, { id: 'Coins' });

/** market/offers/ {type:"components"} */
export const offerComponents = z.object({
  payment_methods: z.array(paymentMethod),
  coins: z.array(coinListItem),
  currencies: z.array(currency),
}).register(apiNames, { id: 'OfferComponents' });
export type OfferComponents = z.infer<typeof offerComponents>;

/**
 * The filters of the offer list (docs/api.md "market/offers list"). The client sends only non-empty
 * entries; the server also accepts an empty one ("" or []) and treats it as absent, as filter backends
 * usually do. The messages carry their full path because these fields only ever arrive under `filters`.
 */
export const offerFilters = z.object({
  user__username__icontains: z.optional(z.string().check(z.maxLength(30))),
  payment_methods__overlap: z.optional(z.array(z.string().check(z.maxLength(60))).check(z.maxLength(20))),
  offer_type: z.optional(
    z.enum(['buy', 'sell', ''], {
      error: (issue) => (issue.input === undefined ? undefined : 'filters.offer_type must be one of: buy, sell'),
    }),
  ),
  coin__id: z.optional(z.union([z.int(), z.string().check(z.regex(/^\d{0,9}$/, 'filters.coin__id must be a coin id'))])),
  currency__code: z.optional(
    z.string().check(z.regex(/^([A-Za-z]{3})?$/, 'filters.currency__code must be a 3-letter code')),
  ),
});
export type OfferFilters = z.infer<typeof offerFilters>;

export const page = z._default(z.optional(z.int().check(z.gte(1, 'page must be 1 or more'), z.lte(1_000_000))), 1);

export const paginator = z.object({
  prev: z.boolean(),
  next: z.boolean(),
  previous_page: z.nullable(z.int()),
  next_page: z.nullable(z.int()),
});
export type Paginator = z.infer<typeof paginator>;

/**
 * Where a page of Browse Offers starts, as a paginator's `next_cursor` names it: the last offer of the page before
 * (its creation to the microsecond, UTC, and its id). Sent back as `cursor`, the next page is read from there
 * rather than counted from the top, however deep it is.
 */
const CURSOR = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z_\d{1,18}$/;
/** A real instant: the pattern alone would let the 30th of February through to the database, which refuses it. */
const isInstant = (cursor: string) => {
  const seconds = cursor.slice(0, 19);
  const date = new Date(`${seconds}Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 19) === seconds;
};
const CURSOR_SENTENCE = 'cursor must be a next_cursor the offer list answered';
export const offerCursor = z.string().check(z.regex(CURSOR, CURSOR_SENTENCE), z.refine(isInstant, CURSOR_SENTENCE));

/** Browse Offers' paginator: the one every list has, and where the next page starts (null: there is none). */
export const offerPaginator = z.object({ ...paginator.shape, next_cursor: z.nullable(offerCursor) });
export type OfferPaginator = z.infer<typeof offerPaginator>;

export const offerListItem = z.object({
  id: z.int(),
  offer_type: offerType,
  coin__image: z.string(),
  coin__label: z.string(),
  coin__ticker: z.string(),
  currency__code: z.string(),
  rate: z.string(),
  min_amount: z.string(),
  max_amount: z.string(),
  payment_methods: z.array(z.string()),
  user__username: z.string(),
  /** The average of the trader's ratings, 2 places; "0.00" while nobody has rated them. */
  user__rating: z.string(),
  /** The trader's completed trades that count toward reputation (docs/rules.md "Reputation"). */
  user__trades_count: z.int(),
  // Additions (docs/rules.md "Reputation"):
  /** How many ratings they received (each counted trade's, every one). */
  user__ratings_count: z.int(),
  /**
   * Completed trades over concluded ones, in percent with 2 places ("96.55"); null while none of theirs has
   * concluded. A trade concludes once it has ended, against the party who failed it: a completion for both
   * parties, an expiry or a moderator's refund for the buyer alone (never at mark_paid: a false payment claim
   * must not cost the seller).
   */
  user__completion_rate: z.nullable(z.string()),
  /** How many distinct traders rated them: the average is over each one's latest rating (docs/rules.md "Reputation"). */
  user__rated_by: z.int(),
  created: z.string(),
  // Additions (docs/rules.md "Offers"): what the owner asks of a taker, and the offer's own cap of pending trades.
  ...offerConditions,
});
export type OfferListItem = z.infer<typeof offerListItem>;
export const offerList = z.object({ offers: z.array(offerListItem), paginator: offerPaginator }).register(apiNames, { id: 'OfferList' });
export type OfferList = z.infer<typeof offerList>;

/** An offer as the edit form loads it (docs/api.md "Other market/offers calls", `get`), plus whether it is live. */
export const editableOffer = z.object({
  id: z.int(),
  offer_type: offerType,
  coin__id: z.int(),
  rate: z.string(),
  payment_methods: z.array(z.string()),
  currency__code: z.string(),
  terms: z.nullable(z.string()),
  min_amount: z.string(),
  max_amount: z.string(),
  is_active: z.boolean(),
  ...offerConditions,
}).register(apiNames, { id: 'EditableOffer' });
export type EditableOffer = z.infer<typeof editableOffer>;

const offerFields = {
  offer_type: offerType,
  coin: z.union([z.int(), z.string().check(z.regex(/^\d{1,9}$/, 'coin must be a coin id'))]),
  rate: positiveDecimal('rate', 8),
  payment_methods: z
    .array(z.string().check(z.maxLength(60)))
    .check(z.minLength(1, 'Choose at least one payment method'), z.maxLength(5, 'Choose at most 5 payment methods')),
  currency: z.string().check(z.regex(/^[A-Za-z]{3}$/, 'currency must be a 3-letter code')),
  terms: z.optional(z.nullable(z.string().check(z.maxLength(2000, 'Terms must be at most 2,000 characters')))),
  min_amount: positiveDecimal('min_amount', 2),
  max_amount: positiveDecimal('max_amount', 2),
  ...offerConditionFields,
};

export const offersRequest = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('components'), drop: z.optional(z.number()) }),
  z.object({
    type: z.literal('list'),
    page,
    filters: z._default(z.optional(offerFilters), {}),
    // Additions: the page starts after this offer (a paginator's next_cursor) instead of after (page - 1) × 12 offers.
    cursor: z.optional(z.nullable(offerCursor)),
  }),
  z.object({ type: z.literal('get'), id: z.int() }),
  z.object({
    type: z.literal('create'),
    update: z._default(z.optional(z.boolean()), false),
    id: z.optional(z.nullable(z.int())),
    ...offerFields,
  }),
  z.object({ type: z.literal('toggle'), id: z.int() }),
]).register(apiNames, { id: 'OffersRequest' });
export type OffersRequest = z.infer<typeof offersRequest>;
export type OfferInput = Extract<OffersRequest, { type: 'create' }>;

/** market/offers/ {type:"toggle"} answers whether the offer is now live. */
export const offerToggleResponse = z.object({ is_active: z.boolean(), message: z.string() }).register(apiNames, { id: 'OfferToggle' });
