import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/db/open.ts';
import { checkLedger } from '../../server/src/ledger/check.ts';
import { InsufficientFunds, LedgerError, postEntry, type EntryInput } from '../../server/src/ledger/ledger.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { balance, coinByTicker, deposit, expectLedgerClean, insertUser } from '../support/server-money.ts';

const run = promisify(execFile);
const dec = (value: string) => new Decimal(value);

describe.each(dbTargets)('the ledger on %s', (target) => {
  let t: TestApp;
  let btc: { id: number; decimal_places: number };
  let usdt: { id: number; decimal_places: number };
  beforeAll(async () => {
    t = await createTestApp(target);
    btc = await coinByTicker(t.app.db, 'BTC');
    usdt = await coinByTicker(t.app.db, 'USDT');
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  const post = (input: Omit<EntryInput, 'at'>) => t.app.db.transaction((tx) => postEntry(tx, { ...input, at: new Date() }));

  it('posts a deposit: the user holds it, the platform deposit account goes negative by as much', async () => {
    const user = await insertUser(t.app.db);
    const entry = await deposit(t.app.db, user.id, btc.id, '2.5');
    expect(entry.created).toBe(true);
    expect(dec(await balance(t.app.db, user.id, btc.id, 'available')).eq('2.5')).toBe(true);
    const postings = await t.app.db.query<{ amount: string }>('SELECT amount FROM ledger_postings WHERE entry_id = $1 ORDER BY amount', [entry.id]);
    expect(postings.map((p) => dec(p.amount).toFixed())).toEqual(['-2.5', '2.5']);
  });

  it('is idempotent on the reference: a retried entry returns the first and moves nothing again', async () => {
    const user = await insertUser(t.app.db);
    const first = await deposit(t.app.db, user.id, btc.id, '1', 'deposit:retry-me-1');
    const again = await deposit(t.app.db, user.id, btc.id, '1', 'deposit:retry-me-1');
    expect(again).toEqual({ id: first.id, reference: 'deposit:retry-me-1', created: false });
    expect(dec(await balance(t.app.db, user.id, btc.id, 'available')).eq(1)).toBe(true);
  });

  it('finds the original on a retry even when the original left too little for a second time', async () => {
    const user = await insertUser(t.app.db);
    await deposit(t.app.db, user.id, btc.id, '1');
    const lockAll = () =>
      post({
        reference: `trade:retry-${user.id}:open`,
        postings: [
          { account: { kind: 'available', userId: user.id, coinId: btc.id }, amount: '-1' },
          { account: { kind: 'escrow', userId: user.id, coinId: btc.id }, amount: '1' },
        ],
      });
    const first = await lockAll();
    expect(await lockAll()).toEqual({ ...first, created: false });
    expect(dec(await balance(t.app.db, user.id, btc.id, 'escrow')).eq(1)).toBe(true);
  });

  it('refuses a reference reused for a different movement', async () => {
    const user = await insertUser(t.app.db);
    await deposit(t.app.db, user.id, btc.id, '1', 'deposit:reused-2');
    await expect(deposit(t.app.db, user.id, btc.id, '2', 'deposit:reused-2')).rejects.toBeInstanceOf(LedgerError);
    expect(dec(await balance(t.app.db, user.id, btc.id, 'available')).eq(1)).toBe(true);
  });

  it('moves between a user\'s accounts and refuses to take one below zero, writing nothing', async () => {
    const user = await insertUser(t.app.db);
    await deposit(t.app.db, user.id, btc.id, '0.3');
    const lock = (reference: string, amount: string) =>
      post({
        reference,
        postings: [
          { account: { kind: 'available', userId: user.id, coinId: btc.id }, amount: `-${amount}` },
          { account: { kind: 'escrow', userId: user.id, coinId: btc.id }, amount },
        ],
      });
    await lock('trade:test-a:open', '0.2');
    const refused = await lock('trade:test-b:open', '0.10000001').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InsufficientFunds);
    expect(refused).toMatchObject({ account: { kind: 'available', userId: user.id }, change: '-0.10000001' });
    expect(dec(await balance(t.app.db, user.id, btc.id, 'available')).eq('0.1')).toBe(true);
    expect(dec(await balance(t.app.db, user.id, btc.id, 'escrow')).eq('0.2')).toBe(true);
    // The refused entry rolled back with its transaction: its reference is free.
    expect(await t.app.db.maybe('SELECT 1 FROM ledger_entries WHERE reference = $1', ['trade:test-b:open'])).toBeUndefined();
    await lock('trade:test-b:open', '0.1');
    expect(dec(await balance(t.app.db, user.id, btc.id, 'available')).isZero()).toBe(true);
  });

  it('refuses malformed entries before writing anything: unbalanced, too precise, one posting, zero', async () => {
    const user = await insertUser(t.app.db);
    const account = { kind: 'available', userId: user.id, coinId: btc.id } as const;
    const platform = { kind: 'deposits', coinId: btc.id } as const;
    const cases: Omit<EntryInput, 'at'>[] = [
      { reference: 'deposit:bad-1', postings: [{ account: platform, amount: '-1' }, { account, amount: '0.9' }] },
      { reference: 'deposit:bad-2', postings: [{ account: platform, amount: '-0.000000001' }, { account, amount: '0.000000001' }] },
      { reference: 'deposit:bad-3', postings: [{ account, amount: '1' }] },
      { reference: 'deposit:bad-4', postings: [{ account: platform, amount: '0' }, { account, amount: '0' }] },
      // Balanced in total but not per coin.
      {
        reference: 'deposit:bad-5',
        postings: [
          { account: platform, amount: '-1' },
          { account: { kind: 'available', userId: user.id, coinId: usdt.id }, amount: '1' },
        ],
      },
    ];
    for (const entry of cases) {
      await expect(post(entry), entry.reference).rejects.toBeInstanceOf(LedgerError);
    }
    expect(await t.app.db.query("SELECT 1 FROM ledger_entries WHERE reference LIKE 'deposit:bad-%'")).toEqual([]);
  });

  it('keeps its own guard in the database: an unbalanced or too precise entry fails at commit, history cannot change', async () => {
    const user = await insertUser(t.app.db);
    await deposit(t.app.db, user.id, btc.id, '1');
    const accountId = (await t.app.db.one<{ id: string }>('SELECT id FROM ledger_accounts WHERE user_id = $1', [user.id])).id;
    const rawEntry = (amount: string) =>
      t.app.db.transaction(async (tx) => {
        const entry = await tx.one<{ id: string }>(`INSERT INTO ledger_entries (reference, created_at) VALUES ('deposit:raw-' || md5(random()::text), now()) RETURNING id`);
        await tx.query('INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount) VALUES ($1, $2, $3, $4)', [entry.id, accountId, btc.id, amount]);
      });
    await expect(rawEntry('0.5')).rejects.toThrow(/does not sum to zero/);
    await expect(
      t.app.db.transaction(async (tx) => {
        const entry = await tx.one<{ id: string }>(`INSERT INTO ledger_entries (reference, created_at) VALUES ('deposit:raw-precise', now()) RETURNING id`);
        await tx.query('INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount) VALUES ($1, $2, $3, $4), ($1, $2, $3, $5)', [
          entry.id,
          accountId,
          btc.id,
          '0.000000001',
          '-0.000000001',
        ]);
      }),
    ).rejects.toThrow(/more decimal places/);
    // A balanced entry must arrive in one statement; a later statement is checked against the whole entry.
    const [balanced] = await t.app.db.query<{ id: string }>(`SELECT id FROM ledger_entries ORDER BY id LIMIT 1`);
    await expect(
      t.app.db.query('INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount) VALUES ($1, $2, $3, 0.1)', [balanced?.id ?? '0', accountId, btc.id]),
    ).rejects.toThrow(/does not sum to zero/);
    await expect(t.app.db.query('UPDATE ledger_postings SET amount = amount * 2')).rejects.toThrow(/append-only/);
    await expect(t.app.db.query('DELETE FROM ledger_entries')).rejects.toThrow(/append-only/);
    await expect(t.app.db.query('UPDATE ledger_accounts SET balance = -1 WHERE id = $1', [accountId])).rejects.toThrow(/ledger_accounts_not_negative/);
    // A posting in another coin than its account's.
    await expect(
      t.app.db.transaction(async (tx) => {
        const entry = await tx.one<{ id: string }>(`INSERT INTO ledger_entries (reference, created_at) VALUES ('deposit:raw-coin', now()) RETURNING id`);
        await tx.query('INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount) VALUES ($1, $2, $3, 1)', [entry.id, accountId, usdt.id]);
      }),
    ).rejects.toThrow(/foreign key/);
  });

  it('lets the platform deposit account go negative, and no user account', async () => {
    const rows = await t.app.db.query<{ kind: string; balance: string }>("SELECT kind, balance FROM ledger_accounts WHERE user_id IS NULL AND kind = 'deposits'");
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(dec(row.balance).isNegative()).toBe(true);
  });
});

describe.each(dbTargets)('the ledger audit (npm run ledger:check) on %s', (target) => {
  it('reports drift, a negative balance and an unbalanced entry, and is clean otherwise', async () => {
    const t = await createTestApp(target);
    try {
      const db = t.app.db;
      const btc = await coinByTicker(db, 'BTC');
      const user = await insertUser(db);
      await deposit(db, user.id, btc.id, '1', 'deposit:audit-1');
      expect(await checkLedger(db)).toMatchObject({ clean: true, entries: 1, postings: 2, accounts: 2, drift: [], negative: [], unbalanced: [] });

      // Break what the database guards, as only someone with direct access could.
      await db.query(`UPDATE ledger_accounts SET balance = 3 WHERE user_id = $1`, [user.id]);
      await db.exec('ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_not_negative');
      await db.exec('DROP TRIGGER ledger_postings_balanced ON ledger_postings');
      const other = await insertUser(db);
      await db.transaction(async (tx) => {
        const entry = await tx.one<{ id: string }>(`INSERT INTO ledger_entries (reference, created_at) VALUES ('deposit:audit-bad', now()) RETURNING id`);
        const account = await tx.one<{ id: string }>(`INSERT INTO ledger_accounts (user_id, coin_id, kind, balance) VALUES ($1, $2, 'available', -0.5) RETURNING id`, [other.id, btc.id]);
        await tx.query('INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount) VALUES ($1, $2, $3, -0.5)', [entry.id, account.id, btc.id]);
      });
      const report = await checkLedger(db);
      expect(report.clean).toBe(false);
      expect(report.drift).toEqual([{ account: `${user.id}:${btc.id}:available`, cached: '3', recomputed: '1' }]);
      expect(report.negative).toEqual([{ account: `${other.id}:${btc.id}:available`, balance: '-0.5' }]);
      expect(report.unbalanced).toEqual([{ reference: 'deposit:audit-bad', coinId: btc.id, sum: '-0.5' }]);
      expect(report.incomplete).toEqual([{ reference: 'deposit:audit-bad', postings: 1 }]);
    } finally {
      await t.close();
    }
  });
});

describe.each(dbTargets)('npm run ledger:check, the command, on %s', (target) => {
  const script = join(process.cwd(), 'server/src/scripts/ledger-check.ts');
  const runCheck = (env: Record<string, string>) =>
    run(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, DATABASE_URL: '', ...env } }).then(
      (done) => ({ code: 0, out: done.stdout }),
      (failed: { code: number; stdout: string; stderr: string }) => ({ code: failed.code, out: failed.stdout + failed.stderr }),
    );

  it('exits 0 with a summary on a clean ledger, 1 once a cached balance drifts', async () => {
    // PGlite: files under a DATA_DIR, closed before the command opens them (one process at a time).
    const dataDir = await mkdtemp(join(tmpdir(), 'peerex-ledger-check-'));
    const t = await createTestApp(target, target === 'pglite' ? { env: { DATA_DIR: dataDir } } : {});
    const env: Record<string, string> = target === 'pglite' ? { DATA_DIR: dataDir } : { DATABASE_URL: t.config.databaseUrl ?? '' };
    try {
      const btc = await coinByTicker(t.app.db, 'BTC');
      const user = await insertUser(t.app.db);
      await deposit(t.app.db, user.id, btc.id, '2');
      if (target === 'pglite') await t.app.db.close();

      const clean = await runCheck(env);
      expect(clean.out).toContain('ledger: 2 accounts, 1 entries, 2 postings');
      expect(clean.out).toContain('clean');
      expect(clean.code).toBe(0);

      const db = target === 'pglite' ? await openDatabase({ databaseUrl: undefined, dataDir }) : t.app.db;
      await db.query('UPDATE ledger_accounts SET balance = balance + 1 WHERE user_id = $1', [user.id]);
      if (target === 'pglite') await db.close();
      const drifted = await runCheck(env);
      expect(drifted.out).toContain(`drift: ${user.id}:${btc.id}:available caches 3`);
      expect(drifted.out).toContain('PROBLEMS FOUND');
      expect(drifted.code).toBe(1);
    } finally {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
