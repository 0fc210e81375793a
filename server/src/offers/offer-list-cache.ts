import type { OfferFilters } from '../../../contracts/market.ts';

/**
 * Pages of Browse Offers, kept in this process until something they show changes.
 *
 * Why: the list is the product's hottest read and the same for every trader (it carries no viewer-specific
 * field; the web app marks one's own offers itself), and answering it costs several times what the
 * request around it costs (bench/README.md "Browse Offers at 100,000 offers"). A page is computed once per *generation*
 * and served from memory until the generation moves on.
 *
 * Freshness: every write that changes what a page shows calls `invalidate()` — publishing, editing, pausing
 * or resuming an offer, a trade completing (a trader's trades count), a trade concluding (marked paid or
 * expired: the completion rate) and a rating (the average). That moves the generation here
 * at once (the trader who just published sees the offer on this process's next list), and, with REDIS_URL,
 * in every other process within a Redis round trip (offers/offer-list-cache.plugin.ts). Each page also expires after
 * OFFER_LIST_CACHE_SECONDS whatever happens, which bounds the staleness of anything no invalidation names
 * (an operator's SQL, a lost Redis message). 0 turns the cache off.
 */
export interface OfferListCache<T> {
  /**
   * The page under `key`: from memory when computed in the current generation and not yet expired,
   * otherwise from `compute`. Callers asking for the same page at the same time share one computation.
   * A failed computation is not kept.
   */
  get(key: string, compute: () => Promise<T>): Promise<T>;
  /** Drops every page of this process (a change elsewhere arrived, or this process lost track). */
  invalidate(): void;
  /** While false (Redis cannot tell this process about other processes' writes), every call computes. */
  setEnabled(enabled: boolean): void;
  readonly stats: { hits: number; misses: number };
}

export interface OfferListCacheOptions {
  ttlMs: number;
  /** Most pages kept; the least recently used goes first (a trader search makes a key of any text). */
  maxEntries: number;
  /** Milliseconds, monotonic in production (performance.now); a test's clock in tests. */
  now: () => number;
}

interface Entry<T> {
  generation: number;
  expiresAt: number;
  value: Promise<T>;
}

export function createOfferListCache<T>({ ttlMs, maxEntries, now }: OfferListCacheOptions): OfferListCache<T> {
  const entries = new Map<string, Entry<T>>();
  let generation = 0;
  let enabled = ttlMs > 0;
  const stats = { hits: 0, misses: 0 };

  return {
    stats,

    get(key, compute) {
      if (!enabled) {
        stats.misses += 1;
        return compute();
      }
      const at = now();
      const cached = entries.get(key);
      if (cached && cached.generation === generation && cached.expiresAt > at) {
        // Most recently used goes last, so eviction takes from the front.
        entries.delete(key);
        entries.set(key, cached);
        stats.hits += 1;
        return cached.value;
      }
      stats.misses += 1;
      const entry: Entry<T> = { generation, expiresAt: at + ttlMs, value: compute() };
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entry.value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return entry.value;
    },

    invalidate() {
      // A computation in flight keeps its old generation, so it is not served once it lands.
      generation += 1;
      entries.clear();
    },

    setEnabled(next) {
      enabled = next && ttlMs > 0;
      generation += 1;
      entries.clear();
    },
  };
}

/**
 * The page, its cursor and the filters as a key: every way of asking for the same offers gives the same key (docs/api.md
 * "market/offers list": empty entries are no filter; the currency code and method names are matched
 * without case, as offers/offers.ts resolves them, and the methods as a set).
 */
export function offerListKey(page: number, filters: OfferFilters, cursor?: string | null): string {
  const methods = [...new Set((filters.payment_methods__overlap ?? []).map((name) => name.trim().toLowerCase()).filter((name) => name !== ''))].sort();
  return JSON.stringify([
    page,
    filters.offer_type ?? '',
    filters.coin__id === undefined ? '' : String(filters.coin__id),
    (filters.currency__code ?? '').toUpperCase(),
    // Trimmed like the search itself, but not case-folded here: PostgreSQL's ILIKE folds case by its own
    // rules, and a key must never join two searches it might answer differently.
    (filters.user__username__icontains ?? '').trim(),
    methods,
    // Where the page starts, when a paginator named it; the page number alone otherwise.
    cursor ?? '',
  ]);
}
