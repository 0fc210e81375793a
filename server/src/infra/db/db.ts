/**
 * The one database seam of the server: repositories see only this, so the same SQL runs on embedded
 * PGlite and on PostgreSQL. Both drivers are configured to return the same JavaScript types:
 * NUMERIC and INT8 as strings (money and big counters are never floats), TIMESTAMPTZ as Date.
 */
export type SqlParam =
  | string
  | number
  | boolean
  | null
  | Date
  | readonly string[]
  | readonly number[]
  // Arrays with holes, for unnest() of nullable columns.
  | readonly (string | null)[];

export type Row = Record<string, unknown>;

export interface QueryOptions {
  /**
   * Keep the statement prepared and planned once on each PostgreSQL connection instead of parsing and planning
   * it on every call: for the fixed statements of the hot money paths, whose plans do not depend on their
   * parameters (lookups by key, one trade's change). PostgreSQL runs them on their generic plan, forced: left to
   * choose, it planned the trade statements again at every call (1-2 ms each, a third of their database time:
   * bench/README.md "Planned once"). Not for a statement whose best plan depends on its values (a filtered list,
   * a page with LIMIT/OFFSET over many rows): its one plan would fit some values badly. PGlite ignores it.
   */
  prepared?: boolean;
}

/** Pass as the third argument of `query`, `one` or `maybe` (see QueryOptions). */
export const PREPARED: QueryOptions = { prepared: true };

export interface Queryable {
  /** Runs one parameterised statement and returns its rows. */
  query<T extends object = Row>(sql: string, params?: readonly SqlParam[], options?: QueryOptions): Promise<T[]>;
  /** Exactly one row, or throws: for statements that must hit (INSERT … RETURNING, a lookup by a known key). */
  one<T extends object = Row>(sql: string, params?: readonly SqlParam[], options?: QueryOptions): Promise<T>;
  /** The first row, if any. */
  maybe<T extends object = Row>(sql: string, params?: readonly SqlParam[], options?: QueryOptions): Promise<T | undefined>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export type DatabaseKind = 'pglite' | 'postgres';

export interface Db extends Queryable {
  readonly kind: DatabaseKind;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. Statements `work` issues
   * without awaiting the one before run in the order issued (PostgreSQL's connection pipelines them, PGlite queues
   * them); await them together (Promise.all), so that none rejects unheard.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Hears every `NOTIFY` on `channel` once its transaction commits, whoever raised it: this process, another
   * one, or a command against the same database. Resolves once listening; answers the stop.
   */
  listen(channel: string, onNotify: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  /**
   * PostgreSQL's connection pool as it stands (GET /metrics): connections open, idle among them, and queries
   * waiting for one. PGlite has none: it is one connection inside the process, whose queue it does not show.
   */
  pool?(): PoolCounts;
  close(): Promise<void>;
}

export interface PoolCounts {
  total: number;
  idle: number;
  waiting: number;
}

export interface ListenOptions {
  /**
   * PostgreSQL: a connection of its own listens, and is opened again when it is lost (1 s, doubling up to 30 s).
   * What was notified while it was away is gone, so this runs after each reconnection, with when the connection
   * was lost (this machine's clock), for the caller to catch up. PGlite never loses it.
   */
  onResume?: (lostAt: Date) => Promise<void> | void;
  /** A lost connection or a failed reconnection or catch-up, for the log. */
  onError?: (error: Error) => void;
}

/** The first pause before a lost LISTEN connection is opened again; it doubles up to the last. */
export const LISTEN_RETRY_FIRST_MS = 1_000;
export const LISTEN_RETRY_LAST_MS = 30_000;

/** Builds `one`/`maybe` on top of a driver's `query`, so each driver only implements the essentials. */
export function withHelpers(
  query: Queryable['query'],
  exec: Queryable['exec'],
): Queryable {
  return {
    query,
    exec,
    async one<T extends object>(sql: string, params?: readonly SqlParam[], options?: QueryOptions): Promise<T> {
      const rows = await query<T>(sql, params, options);
      const [first] = rows;
      if (rows.length !== 1 || first === undefined) {
        throw new Error(`Expected exactly one row, got ${rows.length}`);
      }
      return first;
    },
    async maybe<T extends object>(sql: string, params?: readonly SqlParam[], options?: QueryOptions): Promise<T | undefined> {
      const rows = await query<T>(sql, params, options);
      return rows[0];
    },
  };
}

/** PostgreSQL's SQLSTATE for a unique-constraint violation. */
export const UNIQUE_VIOLATION = '23505';

/**
 * The parameters of a statement built in pieces: `add` keeps a value and answers its placeholder (`$3`), so
 * no piece numbers parameters by hand and a piece left out shifts nothing.
 */
export function sqlParams() {
  const values: SqlParam[] = [];
  return {
    values,
    add(value: SqlParam): string {
      values.push(value);
      return `$${values.length}`;
    },
  };
}
export type SqlParams = ReturnType<typeof sqlParams>;

/** The constraint a unique violation tripped on, when the error is one (both drivers expose `code` and `constraint`). */
export function uniqueViolation(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (code !== UNIQUE_VIOLATION) return undefined;
  return typeof constraint === 'string' ? constraint : '';
}
