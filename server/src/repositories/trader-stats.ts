import type { Queryable } from '../db/db.ts';
import { tradesRepository } from './trades.ts';

/** What an offer card shows about its trader (spec section 3, "Offer (list item)"). */
export interface TraderStats {
  /** Average feedback score, 2 places. */
  rating: string;
  /** Trades the trader took part in that reached `completed`. */
  tradesCount: number;
}

/** The rating of a trader nobody has rated: the spec's figure is 0 until feedback exists. */
const UNRATED = '0.00';

/**
 * Trader figures for a page of offers, one query per figure for the whole page (never one per offer).
 * Each figure has its own function so the capability that brings its data replaces exactly one body.
 */
export function traderStatsRepository(db: Queryable) {
  /** Completed trades per user, as either party; a user with none is absent from the map. */
  async function completedTrades(userIds: readonly string[]): Promise<Map<string, number>> {
    const rows = await tradesRepository(db).completedCounts(userIds);
    return new Map(rows.map((row) => [row.user_id, row.completed]));
  }

  /**
   * Average feedback per user. Feedback on trades is a later capability (after trades); with no feedback
   * table there is no score to average, so no user has one and the map is empty.
   */
  async function ratings(_userIds: readonly string[]): Promise<Map<string, string>> {
    return new Map();
  }

  return {
    async forUsers(userIds: readonly string[]): Promise<Map<string, TraderStats>> {
      const unique = [...new Set(userIds)];
      const [trades, rated] = await Promise.all([completedTrades(unique), ratings(unique)]);
      return new Map(
        unique.map((id) => [id, { rating: rated.get(id) ?? UNRATED, tradesCount: trades.get(id) ?? 0 }]),
      );
    },
  };
}
