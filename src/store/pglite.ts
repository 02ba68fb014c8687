import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Db, Queryable, QueryResult, Row } from './db.js';
import { storeError } from './unavailable.js';

type PgliteQueryable = Pick<PGlite | Transaction, 'query' | 'exec'>;

function queryable(target: PgliteQueryable): Queryable {
  return {
    async query<R = Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
      try {
        const result = await target.query<Row>(sql, params as unknown[]);
        return { rows: result.rows as R[], rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length };
      } catch (e) {
        throw storeError(e);
      }
    },
    async exec(sql: string): Promise<void> {
      try {
        await target.exec(sql);
      } catch (e) {
        throw storeError(e);
      }
    },
  };
}

/**
 * PostgreSQL in this process (WASM): a directory, or `memory://` for a store that dies with the process.
 * One connection: statements run one at a time and a transaction holds the database until it ends, so
 * PGlite cannot show a race; the concurrency tests also run on a real server.
 */
export async function openPglite(location: string): Promise<Db> {
  const pg = new PGlite(location);
  await pg.waitReady;
  const direct = queryable(pg);
  return {
    kind: 'pglite',
    query: direct.query,
    exec: direct.exec,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      try {
        return await pg.transaction((tx) => work(queryable(tx)));
      } catch (e) {
        throw storeError(e);
      }
    },
    close: () => pg.close(),
  };
}
