import pg from 'pg';
import { assertSchemaName, type Db, type Queryable, type QueryResult, type Row } from './db.js';
import { guarded, storeError } from './unavailable.js';

export interface PostgresOptions {
  /** Schema every statement runs in (search_path); unset, the server's default (`public`). */
  schema?: string;
  /** Connections in the pool. */
  poolSize?: number;
  /** How long to wait for a connection before the query fails as `store_unavailable`. */
  connectTimeoutMs?: number;
}

function queryable(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    query: <R = Row>(sql: string, params: readonly unknown[] = []) =>
      guarded(async (): Promise<QueryResult<R>> => {
        const result = await target.query<Row>(sql, params as unknown[]);
        return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
      }),
    exec: (sql: string) =>
      guarded(async () => {
        // Without parameters pg uses the simple protocol, which runs several statements.
        await target.query(sql);
      }),
  };
}

/** A PostgreSQL server through a `pg` pool: many connections, many processes, one database. */
export function openPostgres(url: string, options: PostgresOptions = {}): Db {
  const { schema, poolSize = 10, connectTimeoutMs = 5000 } = options;
  if (schema !== undefined) assertSchemaName(schema);
  // Interval arithmetic on timestamptz (a pack's 12 months) follows the session time zone: UTC on both
  // drivers, so the two give the same instants.
  const settings = ['-c TimeZone=UTC', ...(schema === undefined ? [] : [`-c search_path=${schema}`])];
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: connectTimeoutMs,
    options: settings.join(' '),
  });
  // An idle connection the server drops emits 'error' on the pool; unhandled, it would end the process.
  // The next query gets a fresh connection or a store_unavailable.
  pool.on('error', () => {});
  const direct = queryable(pool);
  return {
    kind: 'postgres',
    query: direct.query,
    exec: direct.exec,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await guarded(() => pool.connect());
      // A connection the server ends mid-transaction emits 'error' on the client as well as failing the
      // query in flight; the pool listens only on idle clients, so this one needs its own listener.
      const ignore = () => {};
      client.on('error', ignore);
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const result = await work(queryable(client));
        await client.query('COMMIT');
        return result;
      } catch (e) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          // A connection that cannot roll back is not given back to the pool.
          broken = rollbackError;
        }
        throw storeError(e);
      } finally {
        client.off('error', ignore);
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    close: () => pool.end(),
  };
}
