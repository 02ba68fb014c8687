/**
 * The data directory is the service's alone (issue 27): the built engine started as `npm start` starts a
 * role (dist/src/main.js, its PGlite metering in QR_DATA_DIR), in a directory made beforehand as a volume
 * is (0755, a file 0644 and a directory 0755 in it), answers over HTTP with the directory 0700 and every
 * directory in it 0700, every file 0600, PGlite's WAL included, at the first start and at the next. Run
 * as another user, over a directory it cannot restrict, it refuses to start and says why.
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBuilt } from '../helpers/built-process.js';

const START_TIMEOUT_MS = 120_000;

/** Starts the engine alone on a free port; resolves once it listens, rejects with its output if it exits. */
const startEngine = (dataDir: string, uid?: number) =>
  startBuilt({ QR_ROLE: 'engine', PORT: '0', QR_WORKERS: '1', QR_DATA_DIR: dataDir }, { uid });

/** Every path under `dir` (itself included) whose mode is not 0700 (directories) or 0600 (files). */
function looser(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return;
    const mode = st.mode & 0o777;
    if (st.isDirectory()) {
      if (mode !== 0o700) found.push(`${path} ${mode.toString(8)}`);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (mode !== 0o600) found.push(`${path} ${mode.toString(8)}`);
  };
  walk(dir);
  return found;
}

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('the data directory', () => {
  it(
    'made beforehand 0755: at each start the directory and all in it are tightened (0700, files 0600)',
    async () => {
      const parent = mkdtempSync(join(tmpdir(), 'qrfarm-modes-'));
      made.push(parent);
      const dataDir = join(parent, 'volume');
      mkdirSync(join(dataDir, 'old'), { recursive: true, mode: 0o755 });
      chmodSync(dataDir, 0o755);
      chmodSync(join(dataDir, 'old'), 0o755);
      writeFileSync(join(dataDir, 'old', 'notes.txt'), 'kept from before', { mode: 0o644 });
      chmodSync(join(dataDir, 'old', 'notes.txt'), 0o666);

      for (const start of ['first', 'second']) {
        const engine = await startEngine(dataDir);
        try {
          const ping = await fetch(`${engine.ready[1]}/api/ping`);
          expect(ping.status, start).toBe(200);
          expect(ping.headers.get('x-content-type-options')).toBe('nosniff');
        } finally {
          await engine.stop();
        }
        const files = readdirSync(join(dataDir, 'marketplace-pglite'), { recursive: true });
        expect(files.length, start).toBeGreaterThan(100);
        expect(files.some((f) => String(f).startsWith('pg_wal'))).toBe(true);
        expect(looser(dataDir), start).toEqual([]);
        // Loosened again between starts, as a restore or a careless copy would: the next start tightens it.
        chmodSync(join(dataDir, 'marketplace-pglite', 'PG_VERSION'), 0o644);
        chmodSync(dataDir, 0o755);
      }
    },
    START_TIMEOUT_MS,
  );

  it.runIf(process.getuid?.() === 0)(
    'another user’s directory that cannot be restricted: the start is refused, naming the path and the owner',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'qrfarm-theirs-'));
      made.push(dataDir);
      chmodSync(dataDir, 0o777);
      writeFileSync(join(dataDir, 'secret'), 'root’s', { mode: 0o644 });
      chmodSync(join(dataDir, 'secret'), 0o644);
      // uid 65534 (nobody) may write in the directory but cannot change root's file.
      const refused = startEngine(dataDir, 65534);
      await expect(refused).rejects.toThrow(
        /exited with 1:\s+qrfarm failed to start: QR_DATA_DIR .* cannot be made so/,
      );
      await expect(refused).rejects.toThrow(
        /qrfarm-theirs-\w+ cannot be made so \(owned by uid 0; this process runs as uid 65534\): EPERM/,
      );
    },
    START_TIMEOUT_MS,
  );
});
