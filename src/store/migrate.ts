import { assertSchemaName, type Db } from './db.js';
import { type Migration, MIGRATIONS } from './migrations/index.js';

/**
 * Key of the advisory lock every starting instance takes before it looks at the schema, so two instances
 * starting together never apply the same migration twice. Any constant unique to this application works.
 */
const MIGRATION_LOCK = 0x71_72_66_61; // "qrfa"

export interface MigrationReport {
  /** Versions this call applied (empty when the schema was current). */
  applied: number[];
}

/**
 * Brings the schema up to date in one transaction under `pg_advisory_xact_lock`: what is missing is
 * applied and recorded in `schema_migrations`; all or nothing. `schema` (PostgreSQL only) is created
 * first when it does not exist.
 */
export async function migrate(
  db: Db,
  { schema, migrations = MIGRATIONS }: { schema?: string; migrations?: readonly Migration[] } = {},
): Promise<MigrationReport> {
  if (schema !== undefined) assertSchemaName(schema);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    if (schema !== undefined) await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version     integer PRIMARY KEY,
      name        text NOT NULL,
      applied_at  timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return { applied };
  });
}
