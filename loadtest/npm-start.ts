/**
 * `npm run loadtest:npm-start`: how long `npm start` takes, from the command to the engine's first answer
 * (GET /api/ping) and the site's (GET /), when nothing changed since the last build: what a restart costs
 * an operator. Each build gets a data directory of its own, made by a first start that is not counted (it
 * builds what is missing and makes the PGlite stores); the counted rounds start on it again, turn about with
 * LOADTEST_BASELINE_DIR (another checkout with its own node_modules, started the same way) when it is set.
 * LOADTEST_ROUNDS, 3. Each start is ended by SIGTERM to its process group before the next begins.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.LOADTEST_ROUNDS ?? 3);
const THIS_TREE = fileURLToPath(new URL('../..', import.meta.url));
const trees: [string, string][] = [['this tree', THIS_TREE]];
if (process.env.LOADTEST_BASELINE_DIR) trees.push(['LOADTEST_BASELINE_DIR', process.env.LOADTEST_BASELINE_DIR]);

const ok = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
};

/** Polls every 50 ms until `url` answers 200; the seconds since `t0`. */
async function firstAnswer(url: string, t0: number, child: ChildProcess): Promise<number> {
  while (child.exitCode === null) {
    if (await ok(url)) return (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`npm start exited with ${child.exitCode} before ${url} answered`);
}

async function start(tree: string, dataDir: string, port: number): Promise<{ engine: number; site: number }> {
  const t0 = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: tree,
    env: { ...process.env, QR_DATA_DIR: dataDir, PORT: String(port), SITE_PORT: String(port + 1) },
    stdio: 'ignore',
    detached: true,
  });
  try {
    const [engine, site] = await Promise.all([
      firstAnswer(`http://127.0.0.1:${port}/api/ping`, t0, child),
      firstAnswer(`http://127.0.0.1:${port + 1}/`, t0, child),
    ]);
    return { engine, site };
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

const dirs = trees.map(() => mkdtempSync(join(tmpdir(), 'qrfarm-npm-start-')));
const rows: Record<string, string>[] = [];
try {
  for (const [i, [name, tree]] of trees.entries()) {
    const first = await start(tree, dirs[i]!, 4300 + 10 * i);
    console.log(`${name}: first start (builds what is missing, makes the stores): site ${first.site.toFixed(1)} s`);
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, [name, tree]] of trees.entries()) {
      const { engine, site } = await start(tree, dirs[i]!, 4300 + 10 * i);
      rows.push({
        round: String(round),
        tree: name,
        'engine s': engine.toFixed(1),
        'site s': site.toFixed(1),
        load: loadavg()[0]!.toFixed(1),
      });
    }
  }
  console.table(rows);
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
