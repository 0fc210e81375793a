import { createHash } from 'node:crypto';
import pg from 'pg';
import { LISTEN_RETRY_FIRST_MS, LISTEN_RETRY_LAST_MS, withHelpers, type Db, type ListenOptions, type QueryOptions, type SqlParam } from './db.ts';

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
  /**
   * Pipelined connections: a statement is written without waiting for the answer of the one before it on the same
   * connection, and PostgreSQL still runs them in order, each with its own Sync (one failing does not stop the
   * next outside a transaction; inside one, PostgreSQL refuses the rest until the rollback). So a transaction's
   * BEGIN and a plan setting travel with the statement that follows them, in the same round trip.
   */
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: 'peerex', pipeline: true });
  // An idle client losing its connection emits here; without a listener Node would crash the process.
  pool.on('error', (error) => onError?.(error));
  // Fail at boot, with the driver's message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();

  /**
   * Connections whose session runs prepared statements on their generic plan (`plan_cache_mode`): a prepared
   * statement sets it, any other statement resets it first, so an unprepared statement is planned for its values
   * as before. The setting is written just ahead of the statement (pipelined). It can fail only with its
   * connection, which is then ended, or inside a transaction already refused, whose rollback puts it back.
   */
  const genericPlans = new WeakSet<pg.PoolClient>();
  const planFor = (client: pg.PoolClient, options?: QueryOptions): Promise<unknown> | undefined => {
    const generic = options?.prepared === true;
    if (generic === genericPlans.has(client)) return undefined;
    if (generic) genericPlans.add(client);
    else genericPlans.delete(client);
    return client.query(generic ? 'SET plan_cache_mode = force_generic_plan' : 'RESET plan_cache_mode');
  };
  const statement = (sql: string, params: readonly SqlParam[], options?: QueryOptions) =>
    options?.prepared ? { text: sql, values: [...params], name: statementName(sql) } : { text: sql, values: [...params] };
  /** The statement's rows, its plan setting sent ahead of it; both awaited at once, so neither rejects unheard. */
  const rowsOf = async <T extends object>(client: pg.PoolClient, sql: string, params: readonly SqlParam[], options?: QueryOptions) => {
    const [, { rows }] = await Promise.all([planFor(client, options), client.query<T>(statement(sql, params, options))]);
    return rows;
  };

  /** One statement on a connection of its own from the pool, given back as soon as it answered. */
  const pooled = withHelpers(
    async <T extends object>(sql: string, params: readonly SqlParam[] = [], options?: QueryOptions) => {
      const client = await pool.connect();
      try {
        const rows = await rowsOf<T>(client, sql, params, options);
        client.release();
        return rows;
      } catch (error) {
        // PostgreSQL refused the statement: the connection is fine. Anything else (a lost connection) ends it.
        client.release(error instanceof pg.DatabaseError ? undefined : (error as Error));
        throw error;
      }
    },
    async (sql: string) => {
      await pool.query(sql);
    },
  );
  /** Statements on the transaction's connection. */
  const onClient = (client: pg.PoolClient) =>
    withHelpers(
      <T extends object>(sql: string, params: readonly SqlParam[] = [], options?: QueryOptions) => rowsOf<T>(client, sql, params, options),
      async (sql: string) => {
        await client.query(sql);
      },
    );

  const listeners = new Set<{ stop(): Promise<void> }>();

  return {
    kind: 'postgres',
    ...pooled,
    async transaction(work) {
      const client = await pool.connect();
      // A SET is undone with the transaction that made it: a rollback puts the setting back to what it was here.
      const genericBefore = genericPlans.has(client);
      let lost: Error | undefined;
      // Pipelined with the work's first statement. BEGIN fails only with its connection, and then so does every
      // statement written after it, so none can run outside the transaction. Its answer is awaited before COMMIT.
      const begun = client.query('BEGIN');
      begun.catch(() => undefined);
      try {
        const result = await work(onClient(client));
        await begun;
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').then(
          () => void (genericBefore ? genericPlans.add(client) : genericPlans.delete(client)),
          // A connection that cannot even roll back is not given to anyone again.
          (rollbackError: Error) => void (lost = rollbackError),
        );
        throw error;
      } finally {
        client.release(lost);
      }
    },
    listen: async (channel, onNotify, options) => {
      const listener = await listenOn(url, channel, onNotify, options);
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    // Idempotent: a second close (shutdown racing a failed boot) must not throw.
    close: async () => {
      await Promise.all([...listeners].map((listener) => listener.stop()));
      listeners.clear();
      if (!pool.ended) await pool.end();
    },
  };
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries, and its LISTEN with it),
 * opened again whenever it is lost, until stopped. Resolves once the first LISTEN is in place.
 */
async function listenOn(url: string, channel: string, onNotify: (payload: string) => void, options: ListenOptions = {}) {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let pause = LISTEN_RETRY_FIRST_MS;
  /** Set while notifications may have been missed: from the first loss until a catch-up succeeded. */
  let lostSince: Date | undefined;

  const connect = async (): Promise<pg.Client> => {
    const next = new pg.Client({ connectionString: url, application_name: 'peerex-listen' });
    let ready = false;
    let lost = false;
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    const lose = (error?: Error) => {
      if (!ready || lost || stopped) return;
      lost = true;
      lostSince ??= new Date();
      if (client === next) client = undefined;
      if (error) options.onError?.(error);
      void next.end().catch(() => undefined);
      schedule();
    };
    // Before connecting: a client that emits 'error' with nobody listening would crash the process.
    next.on('error', lose);
    next.on('end', () => lose());
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    ready = true;
    return next;
  };

  const schedule = () => {
    retry = setTimeout(async () => {
      retry = undefined;
      if (stopped) return;
      let next: pg.Client;
      try {
        next = await connect();
      } catch (error) {
        options.onError?.(error as Error);
        pause = Math.min(pause * 2, LISTEN_RETRY_LAST_MS);
        return schedule();
      }
      if (stopped) return void (await next.end().catch(() => undefined));
      client = next;
      try {
        await options.onResume?.(lostSince ?? new Date());
        lostSince = undefined;
        pause = LISTEN_RETRY_FIRST_MS;
      } catch (error) {
        // Listening, but without having caught up: start over (the loss keeps its first moment).
        options.onError?.(error as Error);
        pause = Math.min(pause * 2, LISTEN_RETRY_LAST_MS);
        await next.end().catch(() => undefined);
      }
    }, pause);
    // Listening alone must not keep a process alive that is otherwise done.
    retry.unref();
  };

  client = await connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
