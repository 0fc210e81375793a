import type { Queryable } from '../db/db.ts';

/** The rating of a trader nobody has rated: the spec's figure is 0 until feedback exists. */
export const UNRATED = '0.00';

/**
 * Trader figures for a page of offers that the list's own query does not carry, one query per figure for
 * the whole page (never one per offer). The trades count is in the list query itself (a counter, migration
 * 010); the rating has its own function so the capability that brings feedback replaces exactly one body.
 */
export function traderStatsRepository(_db: Queryable) {
  return {
    /**
     * Average feedback per user, 2 places. Feedback on trades is a later capability (after trades); with no
     * feedback table there is no score to average, so no user has one and the map is empty.
     */
    async ratings(_userIds: readonly string[]): Promise<Map<string, string>> {
      return new Map();
    },
  };
}
