/**
 * `npm run loadtest:startup`: how soon a freshly started engine renders (issue 16). Each round starts the
 * engine as its own process (QR_WORKERS, the machine's cores by default) and, the moment it prints its
 * listening line, sends LOADTEST_BURST (16) unique 800 px PNG renders at once. It reports the time from the
 * spawn to the listening line, the engine's CPU time by then (all its threads, from /proc), the time to the
 * first 200 and to the last answer, the burst's status mix, and each worker's memory after the burst
 * (GET /api/ping). Then, in this process, one render worker's start alone, as Piscina starts it: a thread
 * (the pool's resource limits) importing the worker module, which loads its WASM modules; its wall time,
 * this process's CPU time meanwhile (nothing else runs) and the thread's memory once loaded.
 * LOADTEST_MAIN=<another build>/dist/src/main.js runs that build in the same rounds, turn about with this one
 * (LOADTEST_ROUNDS, 5). Loopback only.
 */
import { dirname, join } from 'node:path';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { startEngine, THIS_MAIN } from './engine.js';
import { processCpuMs } from './proc-cpu.js';

const ROUNDS = Number(process.env.LOADTEST_ROUNDS ?? 5);
const BURST = Number(process.env.LOADTEST_BURST ?? 16);
const MB = 1024 * 1024;

const builds: [string, string][] = [['this build', THIS_MAIN]];
if (process.env.LOADTEST_MAIN) builds.push(['LOADTEST_MAIN', process.env.LOADTEST_MAIN]);

interface Row {
  build: string;
  'listening ms': number;
  'CPU ms by then': number;
  'first 200 ms': number | undefined;
  'last answer ms': number;
  statuses: string;
  'worker external MB': string;
  'worker heap MB': string;
  load: string;
}

const load = () => loadavg()[0]!.toFixed(1);

/** One start of `main`: the listening line, then the burst sent at once. */
async function startRound(build: string, main: string): Promise<Row> {
  const t0 = performance.now();
  const engine = await startEngine({}, main);
  const listening = performance.now() - t0;
  const cpu = processCpuMs(engine.process.pid!);
  try {
    let first: number | undefined;
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const res = await fetch(`${engine.url}/api/qr/generate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ content: `https://example.com/startup/${t0}/${i}`, responseType: 'binary' }),
        });
        await res.arrayBuffer();
        if (res.status === 200) first ??= performance.now() - t0;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }),
    );
    const last = performance.now() - t0;
    const ping = (await (await fetch(`${engine.url}/api/ping`)).json()) as {
      memory: { workers: { externalBytes: number; heapTotalBytes: number }[] };
    };
    const each = (f: (w: { externalBytes: number; heapTotalBytes: number }) => number) =>
      ping.memory.workers.map((w) => (f(w) / MB).toFixed(1)).join(' / ');
    return {
      build,
      'listening ms': Math.round(listening),
      'CPU ms by then': Math.round(cpu),
      'first 200 ms': first === undefined ? undefined : Math.round(first),
      'last answer ms': Math.round(last),
      statuses: [...statuses.entries()].map(([s, n]) => `${s}×${n}`).join(' '),
      'worker external MB': each((w) => w.externalBytes),
      'worker heap MB': each((w) => w.heapTotalBytes),
      load: load(),
    };
  } finally {
    const exited = new Promise((resolve) => engine.process.once('exit', resolve));
    engine.process.kill('SIGTERM');
    await exited;
  }
}

/** A render worker's start alone: the worker module of the build `main` belongs to, imported in a fresh thread. */
async function workerStart(build: string, main: string) {
  const worker = pathToFileURL(join(dirname(main), 'render', 'worker.js')).href;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const thread = new Worker(
    `const { parentPort } = require('node:worker_threads');
     import(${JSON.stringify(worker)}).then(() => {
       const m = process.memoryUsage();
       parentPort.postMessage({ loaded: true, external: m.external, heapTotal: m.heapTotal });
     });`,
    { eval: true, resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 3 } },
  );
  const loaded = await new Promise<{ external: number; heapTotal: number }>((resolve, reject) => {
    thread.on('message', (m: { loaded?: boolean; external: number; heapTotal: number }) => {
      if (m.loaded) resolve(m);
    });
    thread.once('error', reject);
  });
  const wall = performance.now() - t0;
  const { user, system } = process.cpuUsage(cpu);
  await thread.terminate();
  return {
    build,
    'wall ms': Math.round(wall),
    'CPU ms': Math.round((user + system) / 1000),
    'external MB': (loaded.external / MB).toFixed(1),
    'heap MB': (loaded.heapTotal / MB).toFixed(1),
    load: load(),
  };
}

const starts: Row[] = [];
const workers: Awaited<ReturnType<typeof workerStart>>[] = [];
for (let r = 0; r < ROUNDS; r++) {
  for (const [build, main] of r % 2 ? [...builds].reverse() : builds) {
    starts.push(await startRound(build, main));
    workers.push(await workerStart(build, main));
  }
}
console.log(
  `engine starts, QR_WORKERS=${process.env.QR_WORKERS ?? 'cores'}, a burst of ${BURST} renders at the listening line:`,
);
console.table(starts);
console.log('one render worker starting alone:');
console.table(workers);
