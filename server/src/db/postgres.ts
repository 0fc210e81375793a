import { createHash } from 'node:crypto';
import pg from 'pg';
import { withHelpers, type Db, type QueryOptions, type SqlParam } from './db.ts';

const statementNames = new Map<string, string>();
/**
 * node-postgres prepares a query once per connection under its `name` and reuses it; the name must always
 * stand for the same text, so it is derived from the text.
 */
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `peerex_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    statementNames.set(sql, name);
  }
  return name;
}

export interface PostgresOptions {
  url: string;
  /** Connections kept by the pool; PostgreSQL's default limit is 100 for all clients together. */
  poolSize?: number;
  onError?: (error: Error) => void;
}

export async function openPostgres({ url, poolSize = 10, onError }: PostgresOptions): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: 'peerex' });
  // An idle client losing its connection emits here; without a listener Node would crash the process.
  pool.on('error', (error) => onError?.(error));
  // Fail at boot, with the driver's message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();

  const run = (client: pg.Pool | pg.PoolClient) =>
    withHelpers(
      async <T extends object>(sql: string, params: readonly SqlParam[] = [], options?: QueryOptions) =>
        (await client.query<T>(options?.prepared ? { text: sql, values: [...params], name: statementName(sql) } : { text: sql, values: [...params] })).rows,
      async (sql: string) => {
        await client.query(sql);
      },
    );

  return {
    kind: 'postgres',
    ...run(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(run(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    // Idempotent: a second close (shutdown racing a failed boot) must not throw.
    close: async () => {
      if (!pool.ended) await pool.end();
    },
  };
}
