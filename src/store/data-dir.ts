import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
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
