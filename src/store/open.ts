import { join } from 'node:path';
import type { Db } from './db.js';
import { isMemoryDataDir, secureDataDir } from './data-dir.js';
import { ACCOUNTS_PGLITE, type LockRole, lockDataDir } from './data-dir-lock.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

export interface StoreOptions {
  /** PostgreSQL connection URL; unset, the embedded PGlite under `dataDir`. */
  databaseUrl?: string;
  /** QR_DATA_DIR: PGlite keeps its files in `<dataDir>/<pglite>`; `memory://` keeps nothing. */
  dataDir: string;
  /** The PGlite directory in `dataDir`: `pglite` (the site's accounts, the default) or `marketplace-pglite`. */
  pglite?: string;
  /** PostgreSQL only: the schema to work in (created if missing); unset, the server's default. */
  schema?: string;
  /** PostgreSQL only: connections in the pool. */
  poolSize?: number;
  /** Who holds the PGlite directory's lock while the store is open. */
  role?: LockRole;
}

/**
 * Opens the store the configuration names and brings its schema up to date. A PGlite directory is locked
 * for this process until `close()`: a second opener gets DataDirBusyError.
 */
export async function openStore(options: StoreOptions): Promise<Db> {
  if (options.databaseUrl !== undefined) {
    const db = openPostgres(options.databaseUrl, { schema: options.schema, poolSize: options.poolSize });
    try {
      await migrate(db, { schema: options.schema });
    } catch (e) {
      await db.close();
      throw e;
    }
    return db;
  }
  if (isMemoryDataDir(options.dataDir)) {
    const db = await openPglite(options.dataDir);
    await migrate(db);
    return db;
  }
  // Before PGlite writes a file: the directory and what is in it the process's alone (and its umask 077).
  secureDataDir(options.dataDir);
  const directory = options.pglite ?? ACCOUNTS_PGLITE;
  const release = lockDataDir(options.dataDir, options.role ?? 'site', directory);
  let db: Db;
  try {
    db = await openPglite(join(options.dataDir, directory));
  } catch (e) {
    release();
    throw e;
  }
  try {
    await migrate(db);
    // PGlite (Emscripten's file system) makes its files 0666 whatever the umask, initdb's ~1,000 included:
    // tightened once it is open, and again at close for those made meanwhile (the directories, 0700, keep
    // everyone else out in between).
    secureDataDir(options.dataDir);
  } catch (e) {
    await db.close();
    release();
    throw e;
  }
  return {
    ...db,
    async close() {
      try {
        await db.close();
        secureDataDir(options.dataDir);
      } finally {
        release();
      }
    },
  };
}
