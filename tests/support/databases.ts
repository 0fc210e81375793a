import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { MEMORY_DATA_DIR, openPglite, type PgliteBoot } from '../../server/src/infra/db/pglite.ts';

// The test apps' databases: the PGlite boot and PostgreSQL's throwaway databases. Apart from tests/support/server.ts
// (which builds the app) so that the server project's global setup (tests/support/migrated-databases.ts) can
// use them without loading the app or vitest's test API.

// ---------------------------------------------------------------------------------------------------------
// PGlite boots in ~4 s when it runs initdb and compiles its WebAssembly; in ~0.4 s from a tarball of a fresh
// data directory with an already compiled module. The tarball of an empty, unmigrated database is made
// once per PGlite version and kept in the temp dir; the global setup migrates one copy of it per run.

const PGLITE_DIST = new URL('../../node_modules/@electric-sql/pglite/', import.meta.url);
// The package hides package.json behind its "exports", so it is read from disk to key the cache by version.
const pgliteVersion = (JSON.parse(readFileSync(new URL('package.json', PGLITE_DIST), 'utf8')) as { version: string })
  .version;
const SNAPSHOT_PATH = join(tmpdir(), `peerex-test-pglite-${pgliteVersion}-initdb.tar`);

export async function initdbSnapshot(): Promise<Blob> {
  if (!existsSync(SNAPSHOT_PATH)) {
    const fresh = await PGlite.create('memory://');
    const tarball = await fresh.dumpDataDir('none');
    await fresh.close();
    // Several workers may race here: each writes its own file and renames it into place atomically.
    const partial = `${SNAPSHOT_PATH}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, Buffer.from(await tarball.arrayBuffer()));
    await rename(partial, SNAPSHOT_PATH);
  }
  return new Blob([await readFile(SNAPSHOT_PATH)]);
}

let compiledPglite: Promise<Omit<PgliteBoot, 'snapshot'>> | undefined;
/** Shared by every database of a test file: compiling PGlite's WebAssembly once also spares the CPU its background tier-up. */
const compiled = () =>
  (compiledPglite ??= (async () => ({
    wasmModule: await WebAssembly.compile(await readFile(new URL('dist/pglite.wasm', PGLITE_DIST))),
    fsBundle: new Blob([await readFile(new URL('dist/pglite.data', PGLITE_DIST))]),
  }))());

let pgliteBoot: Promise<PgliteBoot> | undefined;
/** The test apps' boot. `migratedSnapshot`: the global setup's migrated data directory, started from instead of initdb's. */
export const sharedPgliteBoot = (migratedSnapshot: string | undefined) =>
  (pgliteBoot ??= (async () => ({
    snapshot: migratedSnapshot ? new Blob([await readFile(migratedSnapshot)]) : await initdbSnapshot(),
    ...(await compiled()),
  }))());

/**
 * A fresh in-memory PGlite with nothing migrated, for the tests that migrate it themselves (a migration's own
 * test, say): what `openPglite({ dataDir: MEMORY_DATA_DIR })` opens, without running initdb and compiling the
 * WebAssembly again for each.
 */
export async function openEmptyPglite() {
  return openPglite({ dataDir: MEMORY_DATA_DIR, boot: { snapshot: await initdbSnapshot(), ...(await compiled()) } });
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL: a throwaway database per app.

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A connection for CREATE/DROP DATABASE: the URL's own database, or `postgres` when that one doesn't exist. */
async function adminClient(url: string): Promise<pg.Client> {
  for (const candidate of [url, withDatabase(url, 'postgres')]) {
    const client = new pg.Client({ connectionString: candidate });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      if ((error as { code?: string }).code !== '3D000') throw error; // 3D000: database does not exist
    }
  }
  throw new Error(`Cannot connect to PostgreSQL at ${url}`);
}

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** An empty database of its own on DATABASE_URL's server, or a copy of `template` (a database name there). */
export async function createScratchDatabase(template?: string): Promise<ScratchDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set');
  const name = `peerex_test_${randomBytes(6).toString('hex')}`;
  const admin = await adminClient(serverUrl);
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ''}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(serverUrl, name),
    async drop() {
      const client = await adminClient(serverUrl);
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
