import type { Overview, RecentTrade } from '../../../contracts/user.ts';
import type { Queryable } from '../infra/db/db.ts';
import { FIAT_PLACES, Money, fixed, rounded } from '../ledger/money.ts';
import { offersRepository } from '../offers/offers.repository.ts';
import { tradesRepository } from '../trades/trades.repository.ts';
import { walletsRepository } from '../wallets/wallets.repository.ts';

/** The dashboard's Recent Trades panel shows this many. */
export const RECENT_TRADES = 5;

/**
 * The dashboard figures of one user, gathered from the offers, trades and ledger repositories. Each figure
 * has its own function so that the capability that brings its data replaces exactly one place.
 */
export function overviewService(db: Queryable) {
  /**
   * USD value of everything the user holds (available and in escrow) at the coins' current prices, summed
   * exactly and rounded once, half up, to 2 places.
   */
  async function totalBalanceUsd(userId: string): Promise<string> {
    const holdings = await walletsRepository(db).holdings(userId);
    const total = holdings.reduce((sum, row) => sum.plus(new Money(row.held).times(row.usd_price)), new Money(0));
    return rounded(total, FIAT_PLACES);
  }

  /** Offers owned by the user that are listed (active, not paused). */
  function activeOffers(userId: string): Promise<number> {
    return offersRepository(db).countActiveOf(userId);
  }

  /** Trades the user took part in, as buyer or seller: completed ones, and pending ones (each has an open chat). */
  function tradeCounts(userId: string): Promise<{ completed: number; pending: number }> {
    return tradesRepository(db).countsOf(userId);
  }

  /** The user's latest trades, newest first, from the user's side (bought or sold). */
  async function recentTrades(userId: string): Promise<RecentTrade[]> {
    const rows = await tradesRepository(db).history({ userId, limit: RECENT_TRADES, offset: 0 });
    return rows.slice(0, RECENT_TRADES).map((row) => ({
      id: Number(row.id),
      trade_type: row.trade_type,
      amount_crypto: fixed(row.amount_crypto, row.decimal_places),
      status: row.status,
      created: row.created_at.toISOString(),
      offer__coin__image: row.image,
      offer__coin__decimal_places: row.decimal_places,
      offer__coin__ticker: row.ticker,
    }));
  }

  return {
    async forUser(userId: string): Promise<Overview> {
      const [total_balance, active_offers, counts, recent_trades] = await Promise.all([
        totalBalanceUsd(userId),
        activeOffers(userId),
        tradeCounts(userId),
        recentTrades(userId),
      ]);
      return { total_balance, active_offers, completed_trades: counts.completed, open_chats: counts.pending, recent_trades };
    },
  };
}

export type OverviewService = ReturnType<typeof overviewService>;
