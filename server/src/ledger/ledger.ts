import type { Decimal } from 'decimal.js';
import { PREPARED, type Queryable } from '../db/db.ts';
import { Money } from '../lib/money.ts';

/**
 * The double-entry ledger (server-rules.md "Money", migrations/005_ledger.sql). Money moves only through
 * `postEntry`: one journal entry per movement, named by a unique reference, whose postings sum to zero per
 * coin, with each account's cached balance updated in the same transaction.
 *
 * Concurrency: PostgreSQL runs it under READ COMMITTED with row locks. The accounts of an entry are locked
 * with `SELECT … ORDER BY id FOR UPDATE` before their balances are read, so two entries touching the same
 * accounts queue up on them in the same order (no lock cycle between two entries), and each reads the
 * balance the previous one committed. Serializable with retry would also be correct, but on the hot
 * account of a busy seller every concurrent trade would then abort and retry instead of waiting its turn.
 * Behind the application's check stands the table's CHECK (balance >= 0): no interleaving and no bug can
 * commit a negative user balance.
 */

export type UserAccountKind = 'available' | 'escrow';
export type PlatformAccountKind = 'fees' | 'deposits' | 'withdrawals';
export type AccountKind = UserAccountKind | PlatformAccountKind;

export type AccountRef =
  | { kind: UserAccountKind; userId: string; coinId: number }
  | { kind: PlatformAccountKind; coinId: number };

export interface PostingInput {
  account: AccountRef;
  /** Signed: positive adds to the account. A decimal string (or Decimal), never a float. */
  amount: string | Decimal;
}

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

/** The platform's `deposits` account stands for the outside world and may go below zero; no other may. */
const MAY_GO_NEGATIVE: ReadonlySet<AccountKind> = new Set(['deposits']);

/** The text key an account is stored under (ledger_accounts.key, a generated column). */
export function accountKey(ref: AccountRef): string {
  const owner = 'userId' in ref ? ref.userId : 'platform';
  return `${owner}:${ref.coinId}:${ref.kind}`;
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

interface LockedAccount {
  id: string;
  key: string;
  kind: AccountKind;
  coin_id: number;
  balance: string;
  decimal_places: number;
}

/** The checks that need nothing but the entry itself. Returns the net change per account key. */
function validate(input: EntryInput): Map<string, { ref: AccountRef; change: Decimal }> {
  if (input.postings.length < 2) throw new LedgerError(`Entry ${input.reference} needs at least two postings`);
  const perCoin = new Map<number, Decimal>();
  const perAccount = new Map<string, { ref: AccountRef; change: Decimal }>();
  for (const posting of input.postings) {
    const amount = new Money(posting.amount);
    if (!amount.isFinite() || amount.isZero()) {
      throw new LedgerError(`Entry ${input.reference} has a zero or non-finite posting`);
    }
    const coinId = posting.account.coinId;
    perCoin.set(coinId, (perCoin.get(coinId) ?? new Money(0)).plus(amount));
    const key = accountKey(posting.account);
    const seen = perAccount.get(key);
    perAccount.set(key, { ref: posting.account, change: (seen?.change ?? new Money(0)).plus(amount) });
  }
  for (const [coinId, sum] of perCoin) {
    if (!sum.isZero()) throw new LedgerError(`Entry ${input.reference} does not sum to zero in coin ${coinId}`);
  }
  return perAccount;
}

/** The accounts of `keys`, locked in id order (see the module comment), with their coin's places. */
function lockAccounts(tx: Queryable, keys: readonly string[]): Promise<LockedAccount[]> {
  return tx.query<LockedAccount>(
    `SELECT a.id, a.key, a.kind, a.coin_id, a.balance, c.decimal_places
     FROM ledger_accounts a JOIN coins c ON c.id = a.coin_id
     WHERE a.key = ANY($1::text[])
     ORDER BY a.id
     FOR UPDATE OF a`,
    [keys],
    PREPARED,
  );
}

/** Creates the accounts that do not exist yet; a concurrent creator of the same account wins harmlessly. */
async function createAccounts(tx: Queryable, refs: readonly AccountRef[]): Promise<void> {
  const sorted = [...refs].sort((a, b) => accountKey(a).localeCompare(accountKey(b)));
  await tx.query(
    `INSERT INTO ledger_accounts (user_id, coin_id, kind)
     SELECT * FROM unnest($1::bigint[], $2::integer[], $3::text[])
     ON CONFLICT (key) DO NOTHING`,
    [
      sorted.map((ref) => ('userId' in ref ? ref.userId : null)),
      sorted.map((ref) => ref.coinId),
      sorted.map((ref) => ref.kind),
    ],
  );
}

/** The movement an existing entry made, as `key amount` lines, for comparing a retry with the original. */
async function movementOf(tx: Queryable, entryId: string): Promise<string[]> {
  const rows = await tx.query<{ key: string; amount: string }>(
    `SELECT a.key, p.amount FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id WHERE p.entry_id = $1`,
    [entryId],
  );
  const net = new Map<string, Decimal>();
  for (const row of rows) net.set(row.key, (net.get(row.key) ?? new Money(0)).plus(row.amount));
  return [...net].map(([key, amount]) => `${key} ${amount.toFixed()}`).sort();
}

/**
 * Posts one journal entry inside the caller's transaction, so the movement commits or rolls back with
 * whatever else the caller writes (the trade it belongs to). Idempotent on `reference`: when the entry
 * exists already, nothing moves and the existing entry is returned (a reference reused for a different
 * movement is a bug and throws). Throws `InsufficientFunds` when an account other than the platform's
 * deposits would go below zero, and `LedgerError` for an entry that does not balance or has more places
 * than its coin. Two statements when the accounts exist: lock them, then write everything.
 */
export async function postEntry(tx: Queryable, input: EntryInput): Promise<PostedEntry> {
  const changes = validate(input);

  // Lock first, then claim the reference: a duplicate of this entry locks the same accounts, so it waits
  // here for the original's transaction and then finds the reference taken (below).
  const keys = [...changes.keys()];
  let accounts = await lockAccounts(tx, keys);
  if (accounts.length < keys.length) {
    const found = new Set(accounts.map((account) => account.key));
    await createAccounts(
      tx,
      [...changes].filter(([key]) => !found.has(key)).map(([, { ref }]) => ref),
    );
    accounts = await lockAccounts(tx, keys);
  }
  const byKey = new Map(accounts.map((account) => [account.key, account]));

  const postings: { accountId: string; coinId: number; amount: string }[] = [];
  for (const posting of input.postings) {
    const account = byKey.get(accountKey(posting.account));
    if (!account) throw new LedgerError(`Account ${accountKey(posting.account)} could not be created`);
    const amount = new Money(posting.amount);
    if (amount.decimalPlaces() > account.decimal_places) {
      throw new LedgerError(`Entry ${input.reference}: ${amount.toFixed()} has more than ${account.decimal_places} places`);
    }
    postings.push({ accountId: account.id, coinId: account.coin_id, amount: amount.toFixed() });
  }
  const deltas: { accountId: string; change: string }[] = [];
  let shortfall: InsufficientFunds | undefined;
  for (const [key, { ref, change }] of changes) {
    const account = byKey.get(key);
    if (!account || change.isZero()) continue;
    if (!MAY_GO_NEGATIVE.has(account.kind) && new Money(account.balance).plus(change).isNegative()) {
      shortfall ??= new InsufficientFunds(ref, account.balance, change.toFixed());
    }
    deltas.push({ accountId: account.id, change: change.toFixed() });
  }

  if (shortfall) {
    // Refused only when the reference is free: a retry of an entry that already moved the money (and so
    // left too little for a second time) must find that entry below, not be refused for lack of it.
    const taken = await tx.maybe('SELECT 1 AS taken FROM ledger_entries WHERE reference = $1', [input.reference], PREPARED);
    if (!taken) throw shortfall;
  } else {
    // One statement claims the reference, writes the postings and moves the cached balances; when the
    // reference is taken already it writes nothing at all.
    const claimed = await tx.maybe<{ id: string }>(
      `WITH entry AS (
         INSERT INTO ledger_entries (reference, created_at) VALUES ($1, $2)
         ON CONFLICT (reference) DO NOTHING RETURNING id
       ), postings AS (
         INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount)
         SELECT entry.id, p.account_id, p.coin_id, p.amount
         FROM entry, unnest($3::bigint[], $4::integer[], $5::numeric[]) AS p (account_id, coin_id, amount)
       ), balances AS (
         UPDATE ledger_accounts a SET balance = a.balance + d.change
         FROM unnest($6::bigint[], $7::numeric[]) AS d (id, change)
         WHERE a.id = d.id AND EXISTS (SELECT 1 FROM entry)
       )
       SELECT id FROM entry`,
      [
        input.reference,
        input.at,
        postings.map((p) => p.accountId),
        postings.map((p) => p.coinId),
        postings.map((p) => p.amount),
        deltas.map((d) => d.accountId),
        deltas.map((d) => d.change),
      ],
      PREPARED,
    );
    if (claimed) return { id: claimed.id, reference: input.reference, created: true };
  }

  const existing = await tx.one<{ id: string }>('SELECT id FROM ledger_entries WHERE reference = $1', [input.reference], PREPARED);
  const wanted = [...changes].filter(([, { change }]) => !change.isZero()).map(([key, { change }]) => `${key} ${change.toFixed()}`).sort();
  const made = await movementOf(tx, existing.id);
  if (wanted.join('\n') !== made.join('\n')) {
    throw new LedgerError(`Reference ${input.reference} was already used for a different movement`);
  }
  return { id: existing.id, reference: input.reference, created: false };
}

/** Balances of one user per coin id: available and escrow, exact decimal strings ("0" when no account). */
export async function userBalances(
  db: Queryable,
  userId: string,
): Promise<Map<number, { available: string; escrow: string }>> {
  const rows = await db.query<{ coin_id: number; kind: UserAccountKind; balance: string }>(
    `SELECT coin_id, kind, balance FROM ledger_accounts WHERE user_id = $1`,
    [userId],
  );
  const balances = new Map<number, { available: string; escrow: string }>();
  for (const row of rows) {
    const entry = balances.get(row.coin_id) ?? { available: '0', escrow: '0' };
    entry[row.kind] = row.balance;
    balances.set(row.coin_id, entry);
  }
  return balances;
}

/** The cached balance of one account ("0" when it does not exist yet). Unlocked: for reads and previews. */
export async function balanceOf(db: Queryable, ref: AccountRef): Promise<string> {
  const row = await db.maybe<{ balance: string }>('SELECT balance FROM ledger_accounts WHERE key = $1', [accountKey(ref)]);
  return row?.balance ?? '0';
}
