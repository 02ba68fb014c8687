import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { dataDirFile, ensureDataDir } from './data-dir.js';

/**
 * A PGlite directory must have one writer: PGlite is a single-process database with no lock of its own.
 * Whoever opens one (a server, or the admin CLI when none runs) holds `<directory>.lock` beside it, a file
 * naming its process; a server adds the port of its admin API, so the CLI knows to go through it instead.
 * The data directory holds two: `pglite` (the site's accounts) and `marketplace-pglite` (the engine's
 * metering), each with its own lock, so a site and an engine on one data directory never share one.
 */
export const ACCOUNTS_PGLITE = 'pglite';
export const MARKETPLACE_PGLITE = 'marketplace-pglite';
const lockFile = (database: string) => `${database}.lock`;
/** A lock file still empty or unparsable after this long was left by a process that died writing it. */
const HALF_WRITTEN_GRACE_MS = 5000;

export type LockRole = 'site' | 'engine' | 'cli';

export interface LockHolder {
  pid: number;
  role: LockRole;
  /** The server's admin API port on loopback, once it listens. */
  adminPort?: number;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    super(
      holder === null
        ? `${dataDir} is being opened by another process; retry in a moment`
        : `${dataDir} is in use by ${holder.role === 'cli' ? 'an admin command' : `a running ${holder.role}`} (pid ${holder.pid}); if no such process runs, delete its .lock file there`,
    );
    this.name = 'DataDirBusyError';
  }
}

/** Locks held by this process: the pid in the file alone cannot tell them from a previous run's. */
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parse(text: string): LockHolder | null {
  try {
    const v = JSON.parse(text) as LockHolder;
    return Number.isInteger(v.pid) && (v.role === 'site' || v.role === 'engine' || v.role === 'cli') ? v : null;
  } catch {
    return null;
  }
}

type Found = { state: 'none' } | { state: 'live'; holder: LockHolder } | { state: 'writing' } | { state: 'stale' };

function inspect(path: string): Found {
  let text: string;
  let ageMs: number;
  try {
    text = readFileSync(path, 'utf8');
    ageMs = Date.now() - statSync(path).mtimeMs;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'none' };
    throw e;
  }
  const holder = parse(text);
  if (holder === null) return ageMs < HALF_WRITTEN_GRACE_MS ? { state: 'writing' } : { state: 'stale' };
  // Our own pid in a file this process did not write: a previous run of a process that got the same pid
  // (containers restart with the same small pids).
  if (holder.pid === process.pid && !heldHere.has(path)) return { state: 'stale' };
  return isAlive(holder.pid) ? { state: 'live', holder } : { state: 'stale' };
}

/**
 * Takes the lock of the PGlite directory `database` for this process, or throws DataDirBusyError naming
 * the live holder. A lock left by a process that is gone is replaced. Returns the release.
 */
export function lockDataDir(dataDir: string, role: LockRole, database = ACCOUNTS_PGLITE): () => void {
  ensureDataDir(dataDir);
  const path = dataDirFile(dataDir, lockFile(database));
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const found = inspect(path);
      if (found.state === 'live') throw new DataDirBusyError(dataDir, found.holder);
      if (found.state === 'writing') throw new DataDirBusyError(dataDir, null);
      if (found.state === 'stale') unlinkSync(path);
      continue;
    }
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, role } satisfies LockHolder));
    } finally {
      closeSync(fd);
    }
    heldHere.add(path);
    return () => {
      if (!heldHere.has(path)) return;
      const found = inspect(path);
      if (found.state === 'live' && found.holder.pid === process.pid) unlinkSync(path);
      heldHere.delete(path);
    };
  }
  throw new DataDirBusyError(dataDir, null);
}

/** The live holder of the PGlite directory's lock, or null when none (or only a dead process's) is there. */
export function readDataDirLock(dataDir: string, database = ACCOUNTS_PGLITE): LockHolder | null {
  const found = inspect(dataDirFile(dataDir, lockFile(database)));
  return found.state === 'live' ? found.holder : null;
}

/**
 * Records in this process's lock the port its admin API listens on. False when this process does not
 * hold the lock (PostgreSQL, memory://): nothing to tell, the CLI opens the store itself.
 */
export function announceAdminPort(dataDir: string, port: number, database = ACCOUNTS_PGLITE): boolean {
  let path: string;
  try {
    path = dataDirFile(dataDir, lockFile(database));
  } catch {
    return false;
  }
  if (!heldHere.has(path)) return false;
  const found = inspect(path);
  if (found.state !== 'live') return false;
  // Renamed into place: a reader sees the old content or the new, never an empty file.
  const tmp = `${path}.${process.pid}.tmp`;
  const holder: LockHolder = { pid: process.pid, role: found.holder.role, adminPort: port };
  writeFileSync(tmp, JSON.stringify(holder), {
    mode: 0o600,
  });
  renameSync(tmp, path);
  return true;
}
