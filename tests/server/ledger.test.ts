import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../server/src/infra/db/migrate.ts';
import { openDatabase } from '../../server/src/infra/db/open.ts';
import { openEmptyPglite } from '../support/databases.ts';
import { openPostgres } from '../../server/src/infra/db/postgres.ts';
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

  it('keeps escrow in slots: a movement takes from its own slot, never from a neighbour, and the account is their sum', async () => {
    const user = await insertUser(t.app.db);
    await deposit(t.app.db, user.id, btc.id, '1');
    const available = { kind: 'available', userId: user.id, coinId: btc.id } as const;
    const escrow = { kind: 'escrow', userId: user.id, coinId: btc.id } as const;
    await post({ reference: `trade:slots-${user.id}-a:open`, postings: [{ account: available, amount: '-0.3' }, { account: escrow, amount: '0.3', slot: 3 }] });
    await post({ reference: `trade:slots-${user.id}-b:open`, postings: [{ account: available, amount: '-0.2' }, { account: escrow, amount: '0.2', slot: 7 }] });
    expect(dec(await balance(t.app.db, user.id, btc.id, 'escrow')).eq('0.5')).toBe(true);
    const slots = await t.app.db.query<{ slot: number; balance: string }>(
      `SELECT b.slot, b.balance::text FROM ledger_balances b JOIN ledger_accounts a ON a.id = b.account_id WHERE a.key = $1 ORDER BY b.slot`,
      [`${user.id}:${btc.id}:escrow`],
    );
    expect(slots.map((row) => [row.slot, dec(row.balance).toFixed()])).toEqual([[3, '0.3'], [7, '0.2']]);
    // 0.4 is in escrow in all, but slot 7 holds only 0.2.
    const refused = await post({
      reference: `trade:slots-${user.id}-b:release`,
      postings: [{ account: escrow, amount: '-0.4', slot: 7 }, { account: available, amount: '0.4' }],
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'InsufficientFunds', account: escrow, balance: '0.2', change: '-0.4' });
    await post({ reference: `trade:slots-${user.id}-a:cancel`, postings: [{ account: escrow, amount: '-0.3', slot: 3 }, { account: available, amount: '0.3' }] });
    expect(dec(await balance(t.app.db, user.id, btc.id, 'escrow')).eq('0.2')).toBe(true);
    expect(dec(await balance(t.app.db, user.id, btc.id, 'available')).eq('0.8')).toBe(true);
  });

  it('refuses a slot other than 0 for what a trader may spend, and one out of range, before writing', async () => {
    const user = await insertUser(t.app.db);
    const platform = { kind: 'deposits', coinId: btc.id } as const;
    const available = { kind: 'available', userId: user.id, coinId: btc.id } as const;
    const escrow = { kind: 'escrow', userId: user.id, coinId: btc.id } as const;
    for (const [reference, postings] of [
      ['deposit:bad-slot-1', [{ account: platform, amount: '-1' }, { account: available, amount: '1', slot: 1 }]],
      ['deposit:bad-slot-2', [{ account: platform, amount: '-1', slot: 2 }, { account: available, amount: '1' }]],
      ['deposit:bad-slot-3', [{ account: platform, amount: '-1' }, { account: escrow, amount: '1', slot: 64 }]],
      ['deposit:bad-slot-4', [{ account: platform, amount: '-1' }, { account: escrow, amount: '1', slot: 1.5 }]],
    ] as const) {
      await expect(post({ reference, postings }), reference).rejects.toBeInstanceOf(LedgerError);
    }
    expect(await t.app.db.query("SELECT 1 FROM ledger_entries WHERE reference LIKE 'deposit:bad-slot-%'")).toEqual([]);
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
    await expect(t.app.db.query('UPDATE ledger_balances SET balance = -1 WHERE account_id = $1', [accountId])).rejects.toThrow(/ledger_balances_not_negative/);
    // Only escrow and fee balances are split into slots: what a trader may spend is one row.
    await expect(
      t.app.db.query(`INSERT INTO ledger_balances (account_id, slot, coin_id, kind) VALUES ($1, 1, $2, 'available')`, [accountId, btc.id]),
    ).rejects.toThrow(/ledger_balances_one_slot/);
    // A posting in another coin than its account's.
    await expect(
      t.app.db.transaction(async (tx) => {
        const entry = await tx.one<{ id: string }>(`INSERT INTO ledger_entries (reference, created_at) VALUES ('deposit:raw-coin', now()) RETURNING id`);
        await tx.query('INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount) VALUES ($1, $2, $3, 1)', [entry.id, accountId, usdt.id]);
      }),
    ).rejects.toThrow(/foreign key/);
    // A posting into a slot that has no balance row (so no cached balance would follow it).
    await expect(
      t.app.db.transaction(async (tx) => {
        const entry = await tx.one<{ id: string }>(`INSERT INTO ledger_entries (reference, created_at) VALUES ('deposit:raw-slot', now()) RETURNING id`);
        await tx.query('INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount, slot) VALUES ($1, $2, $3, 1, 5), ($1, $2, $3, -1, 0)', [entry.id, accountId, btc.id]);
      }),
    ).rejects.toThrow(/foreign key/);
  });

  it('lets the platform deposit account go negative, and no user account', async () => {
    const rows = await t.app.db.query<{ kind: string; balance: string }>("SELECT kind, balance FROM ledger_account_balances WHERE user_id IS NULL AND kind = 'deposits'");
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
      await db.query(`UPDATE ledger_balances SET balance = 3 WHERE account_id IN (SELECT id FROM ledger_accounts WHERE user_id = $1)`, [user.id]);
      await db.exec('ALTER TABLE ledger_balances DROP CONSTRAINT ledger_balances_not_negative');
      await db.exec('DROP TRIGGER ledger_postings_balanced ON ledger_postings');
      const other = await insertUser(db);
      await db.transaction(async (tx) => {
        const entry = await tx.one<{ id: string }>(`INSERT INTO ledger_entries (reference, created_at) VALUES ('deposit:audit-bad', now()) RETURNING id`);
        const account = await tx.one<{ id: string }>(`INSERT INTO ledger_accounts (user_id, coin_id, kind) VALUES ($1, $2, 'available') RETURNING id`, [other.id, btc.id]);
        await tx.query(`INSERT INTO ledger_balances (account_id, slot, coin_id, kind, balance) VALUES ($1, 0, $2, 'available', -0.5)`, [account.id, btc.id]);
        await tx.query('INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount) VALUES ($1, $2, $3, -0.5)', [entry.id, account.id, btc.id]);
      });
      const report = await checkLedger(db);
      expect(report.clean).toBe(false);
      expect(report.drift).toEqual([{ account: `${user.id}:${btc.id}:available`, slot: 0, cached: '3', recomputed: '1' }]);
      expect(report.negative).toEqual([{ account: `${other.id}:${btc.id}:available`, slot: 0, balance: '-0.5' }]);
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
      await db.query('UPDATE ledger_balances SET balance = balance + 1 WHERE account_id IN (SELECT id FROM ledger_accounts WHERE user_id = $1)', [user.id]);
      if (target === 'pglite') await db.close();
      const drifted = await runCheck(env);
      expect(drifted.out).toContain(`drift: ${user.id}:${btc.id}:available slot 0 caches 3`);
      expect(drifted.out).toContain('PROBLEMS FOUND');
      expect(drifted.code).toBe(1);
    } finally {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('migration 009 on a ledger written before it', () => {
  it('moves every cached balance into slot 0, so old trades release from there and the audit stays clean', async () => {
    const db = await openEmptyPglite();
    try {
      const all = await readMigrations();
      await migrate(db, all.filter((m) => m.version <= 8));
      const user = await insertUser(db);
      // Reference data is seeded by the app after migrating; this database has only the schema.
      await db.query(`INSERT INTO coins (label, ticker, decimal_places, usd_price, image) VALUES ('Bitcoin', 'BTC', 8, 97000, '/coins/btc.svg')`);
      const btc = await coinByTicker(db, 'BTC');
      // As 008's ledger_post wrote them: a deposit, then an open trade's escrow.
      const post008 = (reference: string, kinds: string[], amounts: string[]) =>
        db.query(`SELECT ledger_post($1, now(), $2::bigint[], $3::integer[], $4::text[], $5::numeric[])`, [
          reference,
          kinds.map((kind) => (kind === 'deposits' ? null : user.id)),
          kinds.map(() => btc.id),
          kinds,
          amounts,
        ]);
      await post008('deposit:old-1', ['deposits', 'available'], ['-1', '1']);
      await post008('trade:old-1:open', ['available', 'escrow'], ['-0.25', '0.25']);

      await migrate(db, all);
      expect(dec(await balance(db, user.id, btc.id, 'available')).eq('0.75')).toBe(true);
      expect(dec(await balance(db, user.id, btc.id, 'escrow')).eq('0.25')).toBe(true);
      expect(await db.query('SELECT DISTINCT slot FROM ledger_balances')).toEqual([{ slot: 0 }]);
      await db.transaction((tx) =>
        postEntry(tx, {
          reference: 'trade:old-1:cancel',
          at: new Date(),
          postings: [
            { account: { kind: 'escrow', userId: user.id, coinId: btc.id }, amount: '-0.25', slot: 0 },
            { account: { kind: 'available', userId: user.id, coinId: btc.id }, amount: '0.25' },
          ],
        }),
      );
      expect(dec(await balance(db, user.id, btc.id, 'available')).eq(1)).toBe(true);
      await expectLedgerClean(db);
    } finally {
      await db.close();
    }
  });
});

/** Only PostgreSQL runs transactions side by side; PGlite has one connection. */
const postgresOnly = dbTargets.filter((target) => target === 'postgres');

describe.each(postgresOnly)('the ledger under concurrency on %s', (target) => {
  it('creates a seller\'s escrow account and slots on first use while dozens of entries race for them', async () => {
    const t = await createTestApp(target);
    // More connections than the app's pool, so that as many entries as possible really run at once.
    const db = await openPostgres({ url: t.config.databaseUrl ?? '', poolSize: 40 });
    try {
      const btc = await coinByTicker(db, 'BTC');
      const failures = new Map<string, number>();
      for (let round = 0; round < 40; round += 1) {
        const seller = await insertUser(db);
        await deposit(db, seller.id, btc.id, '1');
        const results = await Promise.allSettled(
          Array.from({ length: 40 }, (_, i) =>
            db.transaction((tx) =>
              postEntry(tx, {
                reference: `trade:race-${round}-${i}:open`,
                at: new Date(),
                postings: [
                  { account: { kind: 'available', userId: seller.id, coinId: btc.id }, amount: '-0.1' },
                  // A random slot of 16: every slot is created by whichever entry gets there first.
                  { account: { kind: 'escrow', userId: seller.id, coinId: btc.id }, amount: '0.1', slot: (i * 7 + round) % 16 },
                ],
              }),
            ),
          ),
        );
        for (const result of results) {
          if (result.status === 'rejected' && !(result.reason instanceof InsufficientFunds)) {
            const message = String((result.reason as Error).message);
            failures.set(message, (failures.get(message) ?? 0) + 1);
          }
        }
        expect(results.filter((result) => result.status === 'fulfilled'), `round ${round}`).toHaveLength(10);
        expect(dec(await balance(db, seller.id, btc.id, 'escrow')).eq(1)).toBe(true);
      }
      expect(Object.fromEntries(failures)).toEqual({});
      await expectLedgerClean(db);
    } finally {
      await db.close();
      await t.close();
    }
  }, 120_000);
});
