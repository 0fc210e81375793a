import type { Config } from '../../config.ts';
import type { Db } from './db.ts';
import { openPglite, type PgliteBoot } from './pglite.ts';
import { adoptEarlyPglite } from './pglite-thread.ts';
import { openPostgres } from './postgres.ts';

/**
 * DATABASE_URL set: PostgreSQL. Unset: embedded PGlite under DATA_DIR, on the thread the production build's start
 * script opened it on when there is one (pglite-thread.ts), in this thread otherwise.
 */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: { onError?: (error: Error) => void; pgliteBoot?: PgliteBoot } = {},
): Promise<Db> {
  if (config.databaseUrl) return openPostgres({ url: config.databaseUrl, onError: options.onError });
  return adoptEarlyPglite(config.dataDir) ?? openPglite({ dataDir: config.dataDir, boot: options.pgliteBoot });
}
