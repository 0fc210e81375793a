import type { Overview, RecentTrade } from '../../../contracts/user.ts';
import type { Queryable } from '../db/db.ts';
import { offersRepository } from './offers.ts';

/**
 * The dashboard figures of one user. Each figure has its own function so that the capability that
 * brings its data replaces exactly one place. Accounts and offers exist; no wallets, trades or chats
 * can have been created by anyone yet, so each of those figures below is the true value for the
 * current schema, not a placeholder — there is nothing to count yet.
 */
export function overviewRepository(db: Queryable) {
  /** USD value of every coin the user holds, 2 places. Balances arrive with the wallets and ledger capability. */
  async function totalBalanceUsd(_userId: string): Promise<string> {
    return '0.00'; // no ledger postings table yet, so every user's holdings are empty
  }

  /** Offers owned by the user that are listed (active, not paused). */
  function activeOffers(userId: string): Promise<number> {
    return offersRepository(db).countActiveOf(userId);
  }

  /** Trades the user took part in that reached `completed`. The trades table lands with the trades capability. */
  async function completedTrades(_userId: string): Promise<number> {
    return 0; // no trades table yet
  }

  /** Chats of the user's pending trades. Chat channels are created with trades. */
  async function openChats(_userId: string): Promise<number> {
    return 0; // no chat channels table yet
  }

  /** The user's latest trades, newest first. */
  async function recentTrades(_userId: string): Promise<RecentTrade[]> {
    return []; // no trades table yet
  }

  return {
    async forUser(userId: string): Promise<Overview> {
      const [total_balance, active_offers, completed_trades, open_chats, recent_trades] = await Promise.all([
        totalBalanceUsd(userId),
        activeOffers(userId),
        completedTrades(userId),
        openChats(userId),
        recentTrades(userId),
      ]);
      return { total_balance, active_offers, completed_trades, open_chats, recent_trades };
    },
  };
}
