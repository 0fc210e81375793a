import type { Config } from '../../config.ts';
import type { Db } from './db.ts';
import { openPglite, type PgliteBoot } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** DATABASE_URL set: PostgreSQL. Unset: embedded PGlite under DATA_DIR. */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: { onError?: (error: Error) => void; pgliteBoot?: PgliteBoot } = {},
): Promise<Db> {
  if (config.databaseUrl) return openPostgres({ url: config.databaseUrl, onError: options.onError });
  return openPglite({ dataDir: config.dataDir, boot: options.pgliteBoot });
}
