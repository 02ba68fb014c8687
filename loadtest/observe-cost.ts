/**
 * `npm run loadtest:observe`: what issue 29's metrics and JSON logs cost the plain render over HTTP. This
 * build's engine with QR_LOG_FORMAT=json (every request a JSON line on stdout, read by this process as a
 * log collector would, and counted in the metrics; LOADTEST_LOG_FORMAT=text: the metrics alone) beside
 * the same build with QR_METRICS=off and text logs (neither), or beside LOADTEST_BASELINE=<another
 * build>/dist run as it is. Unique plain PNGs (the standard 50-character URL with a fresh id), 32
 * connections, LOADTEST_SECONDS (10) per run, LOADTEST_ROUNDS (4) rounds each running both engines in turn
 * (the order alternating), after a warm-up of each: both columns share the same minutes. Reports each
 * engine's ok req/s, p50, p99 and CPU time per answered request (its process's, from /proc: steadier than
 * the rate on a busy machine; and its main thread's alone, where a log line and the metrics are made, the
 * render worker threads apart) per round and in total, the median of the rounds' CPU ratios, and the load
 * average. A closed loop's CPU per request moves with its rate (fewer requests a wake-up when the rate
 * drops), so LOADTEST_RATE=<req/s> offers that rate instead (an open model, as mix.ts's openLoad) to both
 * engines: the same work asked of each, their CPU per request compared at equal rates. Loopback only.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { median, STANDARD_PREFIX } from '../bench/cases.js';
import { type Engine, startEngine, THIS_MAIN } from './engine.js';
import { type MixRequest, openLoad, peakRate, type Tally } from './mix.js';

const SECONDS = Number(process.env.LOADTEST_SECONDS ?? 10);
const ROUNDS = Number(process.env.LOADTEST_ROUNDS ?? 4);
const CONNECTIONS = 32;
const baseline = process.env.LOADTEST_BASELINE;
/** This build's QR_LOG_FORMAT: `json`, or `text` to measure the metrics alone beside a baseline. */
const LOG_FORMAT = process.env.LOADTEST_LOG_FORMAT ?? 'json';
const RATE = process.env.LOADTEST_RATE === undefined ? undefined : Number(process.env.LOADTEST_RATE);

let id = 0;
const plain = (): MixRequest => ({
  kind: 'png plain',
  path: '/api/qr/generate',
  body: JSON.stringify({ content: STANDARD_PREFIX + id++ }),
});

/**
 * CPU time the engine's process (main thread and workers) has used, in ms, from /proc: what a request costs
 * it, less sensitive than a rate to what else the machine runs.
 */
function cpuMs(pid: number, thread?: number): number {
  const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of stat (11 and 12 after the command), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const engines: {
  name: string;
  engine: Engine;
  lines: () => number;
  tallies: Tally[];
  cpu: number;
  mainCpu: number;
  /** CPU ms per answered request, each round. */
  perRound: number[];
  mainPerRound: number[];
}[] = [];
for (const [name, main, env] of [
  [`this build, metrics + ${LOG_FORMAT} logs`, THIS_MAIN, { QR_LOG_FORMAT: LOG_FORMAT }],
  baseline
    ? (['baseline', join(baseline, 'src/main.js'), {}] as const)
    : (['this build, QR_METRICS=off, text logs', THIS_MAIN, { QR_METRICS: 'off', QR_LOG_FORMAT: 'text' }] as const),
] as const) {
  const engine = await startEngine(env, main);
  let lines = 0;
  engine.process.stdout!.on('data', (d: Buffer) => {
    for (const byte of d) if (byte === 10) lines++;
  });
  engines.push({ name, engine, lines: () => lines, tallies: [], cpu: 0, mainCpu: 0, perRound: [], mainPerRound: [] });
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const loadBefore = load();
try {
  for (const e of engines) await peakRate(e.engine.url, plain, 3, CONNECTIONS);
  const rows: Record<string, string | number>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? engines : [...engines].reverse();
    for (const e of order) {
      const pid = e.engine.process.pid!;
      const cpuBefore = cpuMs(pid);
      const mainBefore = cpuMs(pid, pid);
      const tally =
        RATE === undefined
          ? await peakRate(e.engine.url, plain, SECONDS, CONNECTIONS)
          : await openLoad(e.engine.url, plain, RATE, SECONDS);
      const cpu = cpuMs(pid) - cpuBefore;
      const mainCpu = cpuMs(pid, pid) - mainBefore;
      e.cpu += cpu;
      e.mainCpu += mainCpu;
      e.perRound.push(cpu / Math.max(1, tally.ok));
      e.mainPerRound.push(mainCpu / Math.max(1, tally.ok));
      e.tallies.push(tally);
      rows.push({
        round: round + 1,
        engine: e.name,
        'ok req/s': Math.round(tally.ok / SECONDS),
        'p50 ms': tally.quantile(0.5),
        'p99 ms': tally.quantile(0.99),
        statuses: tally.statusMix(),
        'CPU ms/request': (cpu / Math.max(1, tally.ok)).toFixed(2),
        'main thread µs/request': Math.round((1000 * mainCpu) / Math.max(1, tally.ok)),
        'load avg (1 min)': loadavg()[0]!.toFixed(2),
      });
    }
  }
  console.table(rows);
  const totals = engines.map((e) => {
    const ok = e.tallies.reduce((s, t) => s + t.ok, 0);
    const latencies = e.tallies.flatMap((t) => t.latencies).sort((a, b) => a - b);
    const q = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!);
    return {
      engine: e.name,
      'ok req/s': Math.round(ok / (SECONDS * ROUNDS)),
      'p50 ms': q(0.5),
      'p99 ms': q(0.99),
      'CPU ms/request': Number((e.cpu / Math.max(1, ok)).toFixed(3)),
      'main thread µs/request': Math.round((1000 * e.mainCpu) / Math.max(1, ok)),
      'stdout lines': e.lines(),
    };
  });
  console.table(totals);
  const [mine, other] = totals;
  const change = (k: 'ok req/s' | 'CPU ms/request') => (((mine![k] - other![k]) / other![k]) * 100).toFixed(1);
  console.log(
    `this build against the other: throughput ${change('ok req/s')} %, CPU per request ${change('CPU ms/request')} %`,
  );
  // The same round's two runs share its minutes: their ratio is steadier than the totals' on a busy machine.
  const [a, b] = engines;
  const ratios = (mine: number[], other: number[]) => median(mine.map((x, i) => (x / other[i]! - 1) * 100)).toFixed(1);
  console.log(
    `median of the rounds' ratios: CPU per request ${ratios(a!.perRound, b!.perRound)} %, main thread ${ratios(a!.mainPerRound, b!.mainPerRound)} %`,
  );
  console.log(`load average before: ${loadBefore}; after: ${load()}`);
} finally {
  for (const e of engines) e.engine.process.kill('SIGTERM');
}
