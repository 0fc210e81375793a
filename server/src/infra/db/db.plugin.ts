import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { openDatabase } from './open.ts';
import type { PgliteBoot } from './pglite.ts';
import { seedDemo, seedReference } from '../../seed.ts';
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

  const applied = await migrate(db);
  // The names are in the line's data (JSON in production); the message says enough to read at a glance.
  if (applied.length > 0) app.log.info({ migrations: applied }, `database migrated: ${applied.length} applied, up to ${applied.at(-1)}`);

  const filled = await seedReference(db);
  if (filled.length > 0) app.log.info(`reference data seeded: ${filled.join(', ')}`);

  if (app.config.seedDemo) {
    const seeded = await seedDemo(db, { passwords: app.passwords, keys: app.keys, now: app.now });
    if (seeded) app.log.info('demo data seeded');
  }
});
