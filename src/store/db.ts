/**
 * The one database surface the accounts code uses. Both drivers speak the same PostgreSQL SQL with `$1`
 * parameters (PGlite is PostgreSQL compiled to WASM), so this is all the abstraction there is: no query
 * builder, one dialect.
 */
export type Row = Record<string, unknown>;

export interface QueryResult<R = Row> {
  rows: R[];
  /** Rows returned, or touched by an INSERT, UPDATE or DELETE. */
  rowCount: number;
}

export interface Queryable {
  query<R = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export type DbKind = 'pglite' | 'postgres';

export interface Db extends Queryable {
  readonly kind: DbKind;
  /**
   * Runs `work` in one transaction (READ COMMITTED): committed when it resolves, rolled back when it
   * throws, and the error rethrown.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** SQLSTATE of a unique-constraint violation. */
export const UNIQUE_VIOLATION = '23505';

export const isUniqueViolation = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && (e as { code?: unknown }).code === UNIQUE_VIOLATION;

/** A schema name that can go into search_path and DDL unquoted. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema "${schema}" must be lower-case letters, digits and _`);
}
