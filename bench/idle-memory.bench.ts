/**
 * `npm run bench:idle`: the resident memory of an idle service on its embedded store, the engine alone
 * (QR_ROLE=engine) and `npm start`'s whole tree (QR_ROLE=all: the engine and the site's process): in a new
 * data directory (the first start, which runs initdb), in the same directory again (the second start), and
 * with QR_DATA_DIR=memory://. Each process is started as `npm start` starts it, with QR_WORKERS (default 2)
 * render workers, and sampled IDLE_SECONDS (default 5) after everything listens. BENCH_PEER=<another build's
 * dist/> starts that build's main.js too, case by case alternating with this one, for a before and after in
 * one run.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServiceProcess } from '../scripts/service-process.js';

const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 5);
const WORKERS = process.env.QR_WORKERS ?? '2';

const builds: { name: string; main: string }[] = [
  { name: 'this build', main: fileURLToPath(new URL('../src/main.js', import.meta.url)) },
  ...(process.env.BENCH_PEER ? [{ name: 'peer', main: join(process.env.BENCH_PEER, 'src/main.js') }] : []),
];

/** The process and every process it started, recursively. */
function tree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((t) =>
    readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(tree)];
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

/** Starts `main` with `role` on `dataDir`, waits until it listens and IDLE_SECONDS more, and returns RSS by process. */
async function idleRss(
  main: string,
  role: 'engine' | 'all',
  dataDir: string,
): Promise<{ engine: number; tree: number }> {
  // The engine says it listens, then (QR_ROLE=all) the site's process.
  const expected = role === 'all' ? 2 : 1;
  const service = await startServiceProcess(
    main,
    {
      ...process.env,
      QR_ROLE: role,
      QR_DATA_DIR: dataDir,
      QR_WORKERS: WORKERS,
      HOST: '127.0.0.1',
      PORT: '0',
      SITE_PORT: '0',
      DATABASE_URL: '',
    },
    {
      ready: (output) => (output.match(/listening on http:/g)?.length ?? 0) >= expected || undefined,
      passStderr: true,
    },
  );
  try {
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const pid = service.child.pid!;
    return { engine: rssMb(pid), tree: tree(pid).reduce((sum, p) => sum + rssMb(p), 0) };
  } finally {
    await service.stop();
  }
}

const rows: string[] = [];
for (const role of ['engine', 'all'] as const) {
  const dirs = builds.map(() => mkdtempSync(join(tmpdir(), 'qrfarm-idle-')));
  try {
    for (const [label, dir] of [
      ['first start', (i: number) => dirs[i]!],
      ['second start', (i: number) => dirs[i]!],
      ['memory://', () => 'memory://'],
    ] as const) {
      const figures = [];
      for (const [i, build] of builds.entries()) {
        const { engine, tree } = await idleRss(build.main, role, dir(i));
        figures.push(
          role === 'engine' ? `${engine.toFixed(0)} MB` : `${tree.toFixed(0)} MB (engine ${engine.toFixed(0)})`,
        );
      }
      const row = `| QR_ROLE=${role}, ${label} | ${figures.join(' | ')} |`;
      console.log(row);
      rows.push(row);
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`\n| idle RSS, ${WORKERS} workers | ${builds.map((b) => b.name).join(' | ')} |`);
console.log(`| --- | ${builds.map(() => '---').join(' | ')} |`);
for (const row of rows) console.log(row);
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
