import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  type Dirent,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/** QR_DATA_DIR value for a store that lives only in memory (tests): nothing is written to disk. */
export const MEMORY_DATA_DIR = 'memory://';

export const isMemoryDataDir = (dataDir: string): boolean => dataDir === MEMORY_DATA_DIR;

export function dataDirFile(dataDir: string, name: string): string {
  if (isMemoryDataDir(dataDir)) throw new Error(`${name} cannot be kept in a memory:// data directory`);
  return join(dataDir, name);
}

export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

/** What the data directory and everything in it must be: the owner's alone. */
const DIRECTORY_MODE = 0o700;
const FILE_MODE = 0o600;
/** Files and directories made by this process from then on: no bit for group or others. */
const UMASK = 0o077;

/** The data directory or something in it is not this process's to restrict: the start is refused. */
export class DataDirPermissionError extends Error {
  constructor(dataDir: string, path: string, cause: NodeJS.ErrnoException) {
    const owner = (() => {
      try {
        return ` (owned by uid ${lstatSync(path).uid}; this process runs as uid ${process.getuid?.()})`;
      } catch {
        return '';
      }
    })();
    super(
      `QR_DATA_DIR ${dataDir} must be this process's alone (directories 0700, files 0600), and ${path} cannot be made so${owner}: ${cause.code ?? cause.message}. Give the directory to the user the service runs as (chown -R), or point QR_DATA_DIR elsewhere.`,
      { cause },
    );
    this.name = 'DataDirPermissionError';
  }
}

/**
 * Makes the data directory the process owner's alone, at every start: the directory made 0700 if missing,
 * and it and everything in it tightened (directories 0700, files 0600; symbolic links left alone), so a
 * directory made beforehand (a volume) or by an older release is closed too; PGlite's files (its WAL holds
 * password hashes), the secrets and the outbox are then readable by nobody else. The process's umask
 * becomes 077, so what PGlite and the rest write later is born so. Throws DataDirPermissionError, naming
 * the path, when something cannot be made so (owned by another user): the service does not start.
 */
export function secureDataDir(dataDir: string): void {
  if (isMemoryDataDir(dataDir)) return;
  process.umask(UMASK);
  ensureDataDir(dataDir);
  const tighten = (path: string, isDirectory: boolean) => {
    const wanted = isDirectory ? DIRECTORY_MODE : FILE_MODE;
    try {
      if ((lstatSync(path).mode & 0o777) !== wanted) chmodSync(path, wanted);
    } catch (e) {
      // Gone meanwhile (a temporary file, a lock released): nothing left to restrict.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw new DataDirPermissionError(dataDir, path, e as NodeJS.ErrnoException);
    }
    return true;
  };
  const walk = (directory: string) => {
    if (!tighten(directory, true)) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new DataDirPermissionError(dataDir, directory, e as NodeJS.ErrnoException);
    }
    for (const entry of entries) {
      const path = join(directory, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) walk(path);
      else tighten(path, false);
    }
  };
  walk(dataDir);
}

const newSecret = () => randomBytes(32).toString('base64url');

const readSecret = (path: string) => readFileSync(path, 'utf8').trim();

const temporary = (path: string) => `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;

/**
 * A secret kept in the data directory (mode 0600), made on first use. Written to a temporary file and
 * hard-linked into place, so two processes starting together agree on one value and neither ever reads a
 * half-written file.
 */
export function readOrCreateSecret(dataDir: string, name: string): string {
  const path = dataDirFile(dataDir, name);
  try {
    return readSecret(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  ensureDataDir(dataDir);
  const tmp = temporary(path);
  writeFileSync(tmp, `${newSecret()}\n`, { mode: 0o600 });
  try {
    linkSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(tmp);
  }
  return readSecret(path);
}

/** A fresh secret replacing any previous one (mode 0600, renamed into place). */
export function replaceSecret(dataDir: string, name: string): string {
  const path = dataDirFile(dataDir, name);
  ensureDataDir(dataDir);
  const secret = newSecret();
  const tmp = temporary(path);
  writeFileSync(tmp, `${secret}\n`, { mode: 0o600 });
  renameSync(tmp, path);
  return secret;
}

export const readDataDirSecret = (dataDir: string, name: string): string => readSecret(dataDirFile(dataDir, name));
