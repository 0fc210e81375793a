import type { Decimal } from 'decimal.js';
import { PREPARED, type Queryable, type SqlParam, type SqlParams } from '../infra/db/db.ts';
import { Money } from './money.ts';

/**
 * The double-entry ledger (docs/rules.md "Money", migrations 005, 007 and 008). Money moves only through
 * journal entries: one per movement, named by a unique reference, whose postings sum to zero per coin,
 * with each account's cached balance updated in the same statement as its postings.
 *
 * The posting itself is the database function `ledger_post` (migrations/008, 009): it claims the reference,
 * locks the balance slots the entry moves in (account id, slot) order, refuses a balance below zero and
 * writes. This module checks
 * an entry before it goes there (`validate`), calls it (`postEntry`), or hands a caller the call to embed
 * in its own statement (`entryCall`), so that a trade action and the money it moves are one statement.
 *
 * Concurrency: PostgreSQL runs it under READ COMMITTED with row locks. Every entry locks its balance slots
 * with `SELECT … ORDER BY account_id, slot FOR NO KEY UPDATE` before it reads them, so two entries touching
 * the same slots queue on them in the same order (no lock cycle between two entries), and each reads the
 * balance the previous one committed. The slots are the last locks of every change that moves money (the one
 * order, server/src/ledger/README.md "Lock order"): post an entry after the rows the change locks, never before. Serializable with retry would also be correct, but on the account of
 * a busy seller every concurrent trade would then abort and retry instead of waiting its turn. Behind the
 * check stands the table's CHECK (balance >= 0 per slot): no interleaving and no bug can commit a negative
 * user balance.
 */

/** `withdrawing`: a withdrawal in flight, still the trader's until the chain confirms it (migration 015). */
export type UserAccountKind = 'available' | 'escrow' | 'withdrawing';
export type PlatformAccountKind = 'fees' | 'deposits' | 'withdrawals';
export type AccountKind = UserAccountKind | PlatformAccountKind;

export type AccountRef =
  | { kind: UserAccountKind; userId: string; coinId: number }
  | { kind: PlatformAccountKind; coinId: number };

export interface PostingInput {
  account: AccountRef;
  /** Signed: positive adds to the account. A decimal string (or Decimal), never a float. */
  amount: string | Decimal;
  /**
   * Which of the account's balance slots it moves (migration 009), 0 when absent. Only `escrow` and `fees`
   * have more than one: a trade's escrow enters and leaves one slot (trades.escrow_slot) and its fee lands
   * in the fee account's slot of the same number, so a busy seller's trades, or a coin's releases, do not
   * all queue on one row. A slot never goes below zero on its own.
   */
  slot?: number;
}

/** The traders whose balances the postings move, each once (the platform's accounts are nobody's): who is told `wallet`. */
export const tradersOf = (postings: readonly PostingInput[]): string[] => [
  ...new Set(postings.flatMap(({ account }) => ('userId' in account ? [account.userId] : []))),
];

/** How many slots a new trade's escrow and fee are spread over. */
export const BALANCE_SLOTS = 16;
/** The most the database allows (ledger_balances.slot); trades keep the slot they opened with. */
const MAX_BALANCE_SLOTS = 64;

export interface EntryInput {
  /** Unique per movement, e.g. `trade:42:open`, `deposit:<txid>`. */
  reference: string;
  postings: readonly PostingInput[];
  at: Date;
}

export interface PostedEntry {
  id: string;
  reference: string;
  /** False when the reference was already posted (a retry): nothing moved this time. */
  created: boolean;
}

/** The text key an account is stored under (ledger_accounts.key, a generated column). */
export function accountKey(ref: AccountRef): string {
  const owner = 'userId' in ref ? ref.userId : 'platform';
  return `${owner}:${ref.coinId}:${ref.kind}`;
}

function accountOfKey(key: string): AccountRef {
  const [owner = '', coin = '', kind = ''] = key.split(':');
  const coinId = Number(coin);
  if (kind === 'available' || kind === 'escrow' || kind === 'withdrawing') return { kind, userId: owner, coinId };
  if (kind === 'fees' || kind === 'deposits' || kind === 'withdrawals') return { kind, coinId };
  throw new LedgerError(`Not an account key: ${key}`);
}

/** A movement that would take an account below zero: the caller turns it into its own refusal. */
export class InsufficientFunds extends Error {
  override name = 'InsufficientFunds';
  constructor(
    readonly account: AccountRef,
    readonly balance: string,
    readonly change: string,
  ) {
    super(`Account ${accountKey(account)} holds ${balance}, cannot apply ${change}`);
  }
}

/** A malformed entry: always a bug in the caller, never a user's mistake. */
export class LedgerError extends Error {
  override name = 'LedgerError';
}

/**
 * What the code checks before the database does: at least two postings, none zero, and a zero sum per coin
 * (a coin's places are checked by the postings trigger, which knows them). Throws LedgerError.
 */
export function validate(input: EntryInput): void {
  if (input.postings.length < 2) throw new LedgerError(`Entry ${input.reference} needs at least two postings`);
  const perCoin = new Map<number, Decimal>();
  for (const posting of input.postings) {
    const slot = posting.slot ?? 0;
    const slotted = posting.account.kind === 'escrow' || posting.account.kind === 'fees';
    if (!Number.isInteger(slot) || slot < 0 || slot >= (slotted ? MAX_BALANCE_SLOTS : 1)) {
      throw new LedgerError(`Entry ${input.reference} names slot ${slot} of a ${posting.account.kind} account`);
    }
    const amount = new Money(posting.amount);
    if (!amount.isFinite() || amount.isZero()) {
      throw new LedgerError(`Entry ${input.reference} has a zero or non-finite posting`);
    }
    const coinId = posting.account.coinId;
    perCoin.set(coinId, (perCoin.get(coinId) ?? new Money(0)).plus(amount));
  }
  for (const [coinId, sum] of perCoin) {
    if (!sum.isZero()) throw new LedgerError(`Entry ${input.reference} does not sum to zero in coin ${coinId}`);
  }
}

/** The arguments of ledger_post after the reference and time: one array per column, one position per posting. */
function postingArrays(input: EntryInput): [SqlParam, SqlParam, SqlParam, SqlParam, SqlParam] {
  return [
    input.postings.map((p) => ('userId' in p.account ? p.account.userId : null)),
    input.postings.map((p) => p.account.coinId),
    input.postings.map((p) => p.account.kind),
    input.postings.map((p) => new Money(p.amount).toFixed()),
    input.postings.map((p) => p.slot ?? 0),
  ];
}

/**
 * The call of ledger_post for an entry, validated, to embed in a caller's own statement, so that the
 * caller's change and the money it moves are one statement. `referenceSql` is the reference as SQL (so it
 * can name a row the same statement creates: `'trade:' || trade.id || ':open'`); the call's other values
 * join the statement's parameters.
 */
export function entryCall(entry: { postings: readonly PostingInput[]; at: Date; label: string }, referenceSql: string, params: SqlParams): string {
  const input = { reference: entry.label, postings: entry.postings, at: entry.at };
  validate(input);
  const [users, coins, kinds, amounts, slots] = postingArrays(input);
  return (
    `ledger_post(${referenceSql}, ${params.add(entry.at)}, ${params.add(users)}::bigint[], ${params.add(coins)}::integer[], ` +
    `${params.add(kinds)}::text[], ${params.add(amounts)}::numeric[], ${params.add(slots)}::smallint[])`
  );
}

/** The database's refusals as this module's errors; anything else is passed on as it is. */
export function ledgerFailure(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const { code, detail, hint, message } = error as { code?: unknown; detail?: unknown; hint?: unknown; message?: unknown };
  if (code === 'LE001' && typeof detail === 'string' && typeof hint === 'string') {
    const [balance = '', change = ''] = hint.split(' ');
    return new InsufficientFunds(accountOfKey(detail), balance, change);
  }
  // LE002: a malformed or reused entry; 23514 from the postings trigger: unbalanced or too many places.
  if (code === 'LE002' || (code === '23514' && typeof message === 'string' && message.startsWith('a ledger'))) {
    return new LedgerError(String(message));
  }
  return error;
}

/**
 * Posts one journal entry inside the caller's transaction (or alone, on the Db itself: one statement), so
 * the movement commits or rolls back with whatever else the caller writes. Idempotent on `reference`: when
 * the entry exists already, nothing moves and the existing entry is returned (a reference reused for a
 * different movement is a bug and throws LedgerError). Throws `InsufficientFunds` when an account other
 * than the platform's deposits would go below zero, and `LedgerError` for an entry that does not balance
 * or has more places than its coin.
 */
export async function postEntry(tx: Queryable, input: EntryInput): Promise<PostedEntry> {
  validate(input);
  try {
    const row = await tx.one<{ entry_id: string; created: boolean }>(
      'SELECT entry_id, created FROM ledger_post($1, $2, $3::bigint[], $4::integer[], $5::text[], $6::numeric[], $7::smallint[])',
      [input.reference, input.at, ...postingArrays(input)],
      PREPARED,
    );
    return { id: row.entry_id, reference: input.reference, created: row.created };
  } catch (error) {
    throw ledgerFailure(error);
  }
}

/** The cached balance of one account, all its slots ("0" when it does not exist yet). Unlocked: for reads and previews. */
export async function balanceOf(db: Queryable, ref: AccountRef): Promise<string> {
  const row = await db.maybe<{ balance: string }>('SELECT balance FROM ledger_account_balances WHERE key = $1', [accountKey(ref)], PREPARED);
  return row?.balance ?? '0';
}
