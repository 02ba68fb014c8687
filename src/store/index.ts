export {
  assertSchemaName,
  type Db,
  type DbKind,
  isUniqueViolation,
  type Queryable,
  type QueryResult,
  type Row,
} from './db.js';
export {
  DataDirPermissionError,
  isMemoryDataDir,
  MEMORY_DATA_DIR,
  readDataDirSecret,
  readOrCreateSecret,
  replaceSecret,
  secureDataDir,
} from './data-dir.js';
export {
  ACCOUNTS_PGLITE,
  announceAdminPort,
  DataDirBusyError,
  type LockHolder,
  type LockRole,
  lockDataDir,
  MARKETPLACE_PGLITE,
  readDataDirLock,
} from './data-dir-lock.js';
export { type MigrationReport, migrate } from './migrate.js';
export { MIGRATIONS, type Migration } from './migrations/index.js';
export { type StoreOptions, openStore } from './open.js';
export { openPglite } from './pglite.js';
export { openPostgres, type PostgresOptions } from './postgres.js';
export { isConnectionError } from './unavailable.js';
