/** Helpers for the tests where money moves: users and deposits straight through the database and ledger. */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Db, Queryable } from '../../server/src/infra/db/db.ts';
import { checkLedger, formatLedgerReport } from '../../server/src/ledger/check.ts';
import { postEntry, type PostedEntry } from '../../server/src/ledger/ledger.ts';

/** A user row without the signup flow: for ledger tests that never sign in. */
export async function insertUser(db: Queryable, prefix = 'u'): Promise<{ id: string; username: string }> {
  const username = `${prefix}_${randomBytes(5).toString('hex')}`.slice(0, 30);
  return db.one<{ id: string; username: string }>(
    `INSERT INTO users (username, email, password_hash, created_at)
     VALUES ($1, $2, '$argon2id$not-a-real-hash', now()) RETURNING id, username`,
    [username, `${username}@example.test`],
  );
}

export async function coinByTicker(db: Queryable, ticker: string): Promise<{ id: number; decimal_places: number; usd_price: string }> {
  return db.one('SELECT id, decimal_places, usd_price FROM coins WHERE ticker = $1', [ticker]);
}

/** Coins arriving from outside, as the demo seed and a future deposit watcher post them. */
export function deposit(db: Db, userId: string, coinId: number, amount: string, reference = `deposit:t${randomBytes(8).toString('hex')}`): Promise<PostedEntry> {
  return db.transaction((tx) =>
    postEntry(tx, {
      reference,
      at: new Date(),
      postings: [
        { account: { kind: 'deposits', coinId }, amount: `-${amount}` },
        { account: { kind: 'available', userId, coinId }, amount },
      ],
    }),
  );
}

/** The cached balance of a user's account (all its slots), "0" when it does not exist. */
export async function balance(db: Queryable, userId: string, coinId: number, kind: 'available' | 'escrow'): Promise<string> {
  const row = await db.maybe<{ balance: string }>(
    'SELECT balance::text AS balance FROM ledger_account_balances WHERE user_id = $1 AND coin_id = $2 AND kind = $3',
    [userId, coinId, kind],
  );
  return row?.balance ?? '0';
}

/** The audit of `npm run ledger:check`, asserted clean (its report is the failure message). */
export async function expectLedgerClean(db: Db): Promise<void> {
  const report = await checkLedger(db);
  expect(report.clean, formatLedgerReport(report)).toBe(true);
}
