/**
 * `npm run loadtest:soak`: does resident memory stay flat under steady traffic? Finds the peak rate of issue
 * 17's mixed workload (loadtest/mix.ts; closed loop, 16 connections, on an engine of its own), then starts a
 * fresh engine and offers it SOAK_RATE requests a second (default 70 % of that peak) as an open model for
 * SOAK_MINUTES (default 10), sampling every SOAK_SAMPLE_SECONDS (default 5) the resident memory of the
 * engine's process tree and what GET /api/ping says of its parts. Prints the samples, then RSS at start, after
 * the first minute, at the end and at peak, and the drift after the first minute, also less the render
 * cache's bytes (bounded by QR_CACHE_MB; it keeps a render from the second request for its design on, so the
 * mix, every request unique, leaves it nearly empty): the target of issue 16 is a drift under 10 % and a
 * peak under 400 MB with 2 workers (QR_WORKERS=2 is the default here). Loopback
 * only; LOADTEST_MAIN runs another build's main.js (a baseline) with the same load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { type Engine, startEngine } from './engine.js';
import { findPeak, mixedRequests, openLoad, templateIds } from './mix.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 5);
const PEAK_SECONDS = 20;
const env = { QR_WORKERS: process.env.QR_WORKERS ?? '2' };

/** The process and every process it started, recursively. */
function tree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((t) =>
    readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(tree)];
}

/** Resident memory of the engine's process tree, in MB. */
const rssMb = (pid: number) =>
  tree(pid).reduce((sum, p) => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
    return sum + (m ? Number(m[1]) / 1024 : 0);
  }, 0);

const mb = (bytes: number | undefined) => (bytes === undefined ? '—' : Math.round(bytes / 1048576));

/**
 * What the engine says of its memory, as one line (the main thread, the render cache, then each worker's
 * parts), and the render cache's bytes.
 */
async function parts(engine: Engine): Promise<{ line: string; cacheBytes: number }> {
  const ping = (await (await fetch(`${engine.url}/api/ping`)).json()) as {
    cache: { bytes: number; entries: number };
    memory: {
      heapUsedBytes: number;
      externalBytes?: number;
      workers?: { tasks: number; heapUsedBytes: number; externalBytes: number; wasmBytes: Record<string, number> }[];
    };
    pool: { recycled?: number };
  };
  const main = `main heap ${mb(ping.memory.heapUsedBytes)} ext ${mb(ping.memory.externalBytes)}`;
  const workers = (ping.memory.workers ?? []).map((w) => {
    const wasm = Object.entries(w.wasmBytes).map(([name, bytes]) => `${name} ${mb(bytes)}`);
    return `${w.tasks} tasks, heap ${mb(w.heapUsedBytes)} ext ${mb(w.externalBytes)} (${wasm.join(', ')})`;
  });
  const line = [
    main,
    `cache ${mb(ping.cache.bytes)} (${ping.cache.entries} entries)`,
    ...workers.map((w, i) => `w${i}: ${w}`),
    `recycled ${ping.pool.recycled ?? '—'}`,
  ].join('; ');
  return { line, cacheBytes: ping.cache.bytes };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

let rate = Number(process.env.SOAK_RATE ?? 0);
if (!rate) {
  const probe = await startEngine(env);
  try {
    const peak = await findPeak(probe.url, mixedRequests(await templateIds(probe.url)), PEAK_SECONDS);
    rate = peak.rate;
    console.log(
      `peak: ${peak.rps.toFixed(1)} req/s (${peak.tally.statusMix()}, p50 ${peak.tally.quantile(0.5)} ms, p99 ${peak.tally.quantile(0.99)} ms); soaking at ${rate} req/s (70 %)`,
    );
  } finally {
    probe.process.kill('SIGTERM');
  }
}

const engine = await startEngine(env);
/** RSS, and RSS less the render cache's bytes (bounded by QR_CACHE_MB), in MB. */
const samples: { t: number; rss: number; lessCache: number }[] = [];
try {
  const next = mixedRequests(await templateIds(engine.url));
  const sample = async (t: number) => {
    const rss = rssMb(engine.process.pid!);
    const { line, cacheBytes } = await parts(engine);
    samples.push({ t, rss, lessCache: rss - cacheBytes / 1048576 });
    console.log(`${String(t).padStart(4)} s  RSS ${rss.toFixed(0).padStart(4)} MB  ${line}`);
  };
  await sample(0);
  const tally = await openLoad(engine.url, next, rate, MINUTES * 60, (t) => {
    if (t % SAMPLE_SECONDS === 0) void sample(t);
  });
  await sample(MINUTES * 60);
  // Memory an idle engine gives back, or keeps.
  await new Promise((r) => setTimeout(r, 10_000));
  await sample(MINUTES * 60 + 10);
  const at = (from: number, to: number, of: 'rss' | 'lessCache' = 'rss') =>
    mean(samples.filter((s) => s.t >= from && s.t < to).map((s) => s[of]));
  const drift = (of: 'rss' | 'lessCache') => {
    const minute = at(60, 60 + 3 * SAMPLE_SECONDS, of);
    return ((at(MINUTES * 60 - 3 * SAMPLE_SECONDS, MINUTES * 60 + 1, of) - minute) / minute) * 100;
  };
  const start = samples[0]!.rss;
  const minute = at(60, 60 + 3 * SAMPLE_SECONDS);
  const end = at(MINUTES * 60 - 3 * SAMPLE_SECONDS, MINUTES * 60 + 1);
  const peak = Math.max(...samples.map((s) => s.rss));
  console.log(
    `\n${rate} req/s for ${MINUTES} min: ${tally.ok} ok (${(tally.ok / (MINUTES * 60)).toFixed(1)}/s), ${tally.statusMix()}, p50 ${tally.quantile(0.5)} ms, p99 ${tally.quantile(0.99)} ms`,
  );
  console.log(
    `RSS MB: start ${start.toFixed(0)}, 1 min ${minute.toFixed(0)}, end ${end.toFixed(0)}, peak ${peak.toFixed(0)}, idle 10 s later ${samples.at(-1)!.rss.toFixed(0)}; drift after the first minute ${drift('rss').toFixed(1)} % (target < 10 %; ${drift('lessCache').toFixed(1)} % less the render cache), peak ${peak < 400 ? '<' : '≥'} 400 MB; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  engine.process.kill('SIGTERM');
}
