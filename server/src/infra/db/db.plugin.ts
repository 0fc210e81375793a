import type { Db } from './db.ts';
import { listMigrations, migrate, MIGRATIONS_DIR, readMigrations } from './migrate.ts';
import { openDatabase } from './open.ts';
import type { PgliteBoot } from './pglite.ts';
import { DEMO_DATA_PRESENT, REFERENCE_DATA_PRESENT, seedDemo, seedReference } from '../../seed.ts';
import { shared } from '../shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

export interface DbPluginOptions extends Record<string, unknown> {
  /** Faster PGlite boots for test suites; ignored on PostgreSQL. */
  pgliteBoot?: PgliteBoot;
}

export interface Prepared {
  /** The migrations applied, by file name. */
  applied: string[];
  /** The reference tables filled. */
  filled: string[];
  seeded: boolean;
}

/**
 * Whether the database has every migration of `server/migrations/` applied, its reference data and, when `demo`,
 * users: then a start has nothing to write, which one read says (every restart but the first after a change). A
 * database with no `schema_migrations` yet fails the read: it has everything to do.
 */
async function upToDate(db: Db, demo: boolean, migrationsDir: string): Promise<boolean> {
  const versions = (await listMigrations(migrationsDir)).map((migration) => migration.version);
  try {
    const row = await db.one<{ missing: boolean; filled: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM unnest($1::int[]) AS wanted (version) WHERE version NOT IN (SELECT version FROM schema_migrations)) AS missing,
              ${REFERENCE_DATA_PRESENT}${demo ? ` AND ${DEMO_DATA_PRESENT}` : ''} AS filled`,
      [versions],
    );
    return !row.missing && row.filled;
  } catch {
    return false;
  }
}

/**
 * Migrates, seeds the reference data into empty tables and, with `demo`, the demo data into a database without
 * users. Each of those takes its lock and checks again (migrate.ts, seed.ts), so several processes may start at
 * once; the read before them only spares a start that has nothing to do its transactions and the demo passwords'
 * hashing.
 */
export async function prepareDatabase(
  db: Db,
  { demo, migrationsDir = MIGRATIONS_DIR }: { demo?: Parameters<typeof seedDemo>[1]; migrationsDir?: string } = {},
): Promise<Prepared> {
  if (await upToDate(db, demo !== undefined, migrationsDir)) return { applied: [], filled: [], seeded: false };
  const applied = await migrate(db, await readMigrations(migrationsDir));
  const filled = await seedReference(db);
  const seeded = demo ? await seedDemo(db, demo) : false;
  return { applied, filled, seeded };
}

/**
 * Tier 1: opens PGlite or PostgreSQL, migrates, seeds the reference data into empty tables, and seeds
 * the demo data when asked. The app is not ready (and so does not listen) until all of that is done,
 * which is what makes /api/health mean "migrated".
 */
export const dbPlugin = shared<DbPluginOptions>('peerex-db', async (app, { pgliteBoot }) => {
  const db = await openDatabase(app.config, {
    pgliteBoot,
    onError: (error) => app.log.error({ err: error }, 'database connection error'),
  });
  app.decorate('db', db);
  app.addHook('onClose', () => db.close());

  const { applied, filled, seeded } = await prepareDatabase(db, {
    demo: app.config.seedDemo ? { passwords: app.passwords, keys: app.keys, now: app.now } : undefined,
  });
  // The names are in the line's data (JSON in production); the message says enough to read at a glance.
  if (applied.length > 0) app.log.info({ migrations: applied }, `database migrated: ${applied.length} applied, up to ${applied.at(-1)}`);
  if (filled.length > 0) app.log.info(`reference data seeded: ${filled.join(', ')}`);
  if (seeded) app.log.info('demo data seeded');
});
