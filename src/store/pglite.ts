import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { isMemoryDataDir } from './data-dir.js';
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
 * PostgreSQL settings for a store of a few small tables behind one connection (docs/design-decisions.md,
 * "The engine's embedded store"). PGlite's shared memory is zeroed WASM memory, resident from the start, and
 * initdb sizes it for a server: 128 MB of shared_buffers and slots for 100 connections, 145 MB in all. 8 MB
 * of buffers (1,024 pages) holds these tables and their catalogs, and a single-user backend needs no slots
 * for other connections, WAL senders or autovacuum workers: 11 MB in all. Given at each start, so
 * directories made before these settings get them too.
 */
const SETTINGS = [
  ['shared_buffers', '8MB'],
  ['max_connections', '4'],
  ['max_wal_senders', '0'],
  ['autovacuum_max_workers', '1'],
  ['autovacuum_worker_slots', '1'],
].flatMap(([name, value]) => ['-c', `${name}=${value}`]);

/**
 * memory:// only, where PostgreSQL's files are JavaScript memory: WAL in 1 MB segments (16 MB by default,
 * fixed at initdb) and at most 4 of them kept for reuse (80 MB by default), so the log stays a few MB.
 */
const MEMORY_INITDB = ['--wal-segsize=1'];
const MEMORY_SETTINGS = ['-c', 'min_wal_size=4MB', '-c', 'max_wal_size=16MB'];

/** What PGlite's loadDataDir recognises as a gzipped tarball. */
const GZIP = 'application/gzip';

/**
 * Runs in a child process (`node -e`): PGlite's initdb in the directory argv[2], or, with none, in memory,
 * the result written to fd 3 as a gzipped tarball. CommonJS, as `node -e` evaluates it.
 */
const INITDB_SCRIPT = `
const { PGlite } = require(process.argv[1]);
const [, , dir, initdbArgs] = process.argv;
(async () => {
  const pg = new PGlite(dir || 'memory://', { initDbStartParams: JSON.parse(initdbArgs) });
  await pg.waitReady;
  const tarball = dir ? undefined : Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer());
  await pg.close();
  if (tarball) new (require('node:net').Socket)({ fd: 3, readable: false }).end(tarball);
})().catch((e) => { console.error(e?.stack ?? e); process.exit(1); });
`;

/**
 * PGlite's initdb, in a process of its own. In this one it would stay resident for the process's life:
 * initdb runs in a second PGlite instance (its own 128 MB+ WASM memory) with a copy of that memory, and
 * PGlite's initdb module keeps both reachable after it is done (about 380 MB at a first start, and at every
 * memory:// start: docs/design-decisions.md, "The engine's embedded store"). A child gives all of it back when it
 * exits. Returns the gzipped tarball for memory://, nothing for a directory (initdb'd in place).
 */
function initdbApart(directory: string | undefined): Promise<Blob | undefined> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const args = JSON.stringify(directory === undefined ? MEMORY_INITDB : []);
  const child = spawn(process.execPath, ['-e', INITDB_SCRIPT, pglite, directory ?? '', args], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const tarball: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdio[3]!.on('data', (d: Buffer) => tarball.push(d));
  child.stderr!.on('data', (d: Buffer) => stderr.push(d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`PGlite's initdb failed (${code}): ${Buffer.concat(stderr).toString().trim()}`));
      else if (directory !== undefined) resolve(undefined);
      else
        resolve(
          new Blob(
            tarball.map((c) => new Uint8Array(c)),
            { type: GZIP },
          ),
        );
    });
  });
}

/**
 * The initdb'd memory:// database, made once per process: each memory:// store starts from a copy (the
 * tests open many; a few MB kept).
 */
let memoryTemplate: Promise<Blob> | undefined;

function memoryDataDir(): Promise<Blob> {
  if (memoryTemplate === undefined) {
    memoryTemplate = initdbApart(undefined).then((tarball) => tarball!);
    // A failed initdb is not kept: the next store tries again.
    memoryTemplate.catch(() => {
      memoryTemplate = undefined;
    });
  }
  return memoryTemplate;
}

/**
 * PostgreSQL in this process (WASM): a directory, or `memory://` for a store that dies with the process.
 * One connection: statements run one at a time and a transaction holds the database until it ends, so
 * PGlite cannot show a race; the concurrency tests also run on a real server.
 */
export async function openPglite(location: string): Promise<Db> {
  const memory = isMemoryDataDir(location);
  let loadDataDir: Blob | undefined;
  if (memory) loadDataDir = await memoryDataDir();
  else if (!existsSync(join(location, 'PG_VERSION'))) await initdbApart(location);
  const pg = new PGlite(location, {
    loadDataDir,
    startParams: [...PGlite.defaultStartParams, ...SETTINGS, ...(memory ? MEMORY_SETTINGS : [])],
  });
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
