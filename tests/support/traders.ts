/** Trader profiles for the web tests, shaped by the contract. */
import type { TraderProfile } from '../../contracts/traders.ts';
import { offerItem } from './offers.ts';

export function traderProfile(overrides: Partial<TraderProfile> = {}): TraderProfile {
  return {
    username: 'bob',
    joined: '2025-03-14T09:00:00.000Z',
    account_age_days: 412,
    trades_count: 29,
    completion_rate: '96.55',
    rating: '4.33',
    ratings_count: 3,
    rated_by: 2,
    ratings: [
      { score: 5, comment: 'Released within minutes', rater: 'carol', created: '2026-03-01T10:00:00.000Z' },
      { score: 4, comment: '', rater: 'dave', created: '2026-02-20T10:00:00.000Z' },
    ],
    offers: [offerItem(1), offerItem(2, { offer_type: 'buy', coin__label: 'Ethereum', coin__ticker: 'eth' })],
    ...overrides,
  };
}
