import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Db, Queryable, QueryResult, Row } from './db.js';
import { guarded } from './unavailable.js';

type PgliteQueryable = Pick<PGlite | Transaction, 'query' | 'exec'>;

function queryable(target: PgliteQueryable): Queryable {
  return {
    query: <R = Row>(sql: string, params: readonly unknown[] = []) =>
      guarded(async (): Promise<QueryResult<R>> => {
        const result = await target.query<Row>(sql, params as unknown[]);
        return { rows: result.rows as R[], rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length };
      }),
    exec: (sql: string) =>
      guarded(async () => {
        await target.exec(sql);
      }),
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
    transaction: <T>(work: (tx: Queryable) => Promise<T>) => guarded(() => pg.transaction((tx) => work(queryable(tx)))),
    close: () => pg.close(),
  };
}
