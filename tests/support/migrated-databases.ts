import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { prepareDatabase } from '../../server/src/infra/db/db.plugin.ts';
import { MEMORY_DATA_DIR, openPglite } from '../../server/src/infra/db/pglite.ts';
import { openPostgres } from '../../server/src/infra/db/postgres.ts';
import { createScratchDatabase, initdbSnapshot } from './databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A `dumpDataDir()` tarball of PGlite with every migration and the reference data: each test app's start. */
    migratedPgliteSnapshot?: string;
    /** A PostgreSQL database with every migration and the reference data, which each test app's database copies. */
    migratedPostgresTemplate?: string;
  }
}

/**
 * The server project's global setup (vite.config.ts): migrates and seeds the reference data once per run on each
 * engine, through the app's own prepareDatabase, and hands the result to every test file. A test app then starts
 * from a copy of it instead of running all of server/migrations/ again: about half of a PGlite app's start and
 * most of a PostgreSQL one's (tests/README.md "Where CI's time goes"). Made afresh each run, never cached across
 * runs, so a changed migration or reference row is always what the tests see.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const snapshotPath = join(tmpdir(), `peerex-test-migrated-${process.pid}-${randomBytes(4).toString('hex')}.tar`);
  const pglite = await openPglite({ dataDir: MEMORY_DATA_DIR, boot: { snapshot: await initdbSnapshot() } });
  try {
    await prepareDatabase(pglite);
    // A checkpoint first: a copy dumped with the migrations' WAL since the last one would replay it at every start.
    await pglite.exec('CHECKPOINT');
    await writeFile(snapshotPath, Buffer.from(await (await pglite.pglite.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await pglite.close();
  }
  project.provide('migratedPgliteSnapshot', snapshotPath);

  const template = process.env.DATABASE_URL ? await createScratchDatabase() : undefined;
  if (template) {
    // Closed before any copy: PostgreSQL copies a template only while nobody is connected to it.
    const db = await openPostgres({ url: template.url, poolSize: 1 });
    try {
      await prepareDatabase(db);
    } finally {
      await db.close();
    }
    project.provide('migratedPostgresTemplate', template.name);
  }

  return async () => {
    await rm(snapshotPath, { force: true });
    await template?.drop();
  };
}
