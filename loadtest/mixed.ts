/**
 * `npm run loadtest:mix`: issue 17's mixed workload (loadtest/mix.ts). Starts the engine as its own process
 * (QR_WORKERS, the machine's cores by default), warms it up for 3 s, finds its peak on the mix (closed loop,
 * 16 connections, LOADTEST_SECONDS, default 20), then offers 70 % of that peak as an open model for as long
 * and reports p50/p99 and the status mix. Targets (issue 17): peak ≥ 200 req/s, p99 ≤ 150 ms at 70 %.
 * Loopback only; LOADTEST_MAIN runs another build's main.js (a baseline) with the same load.
 */
import { loadavg } from 'node:os';
import { startEngine } from './engine.js';
import { findPeak, mixedRequests, openLoad, templateIds } from './mix.js';

const SECONDS = Number(process.env.LOADTEST_SECONDS ?? 20);

const engine = await startEngine();
try {
  const next = mixedRequests(await templateIds(engine.url));
  const { tally: peak, rps: peakRps, rate } = await findPeak(engine.url, next, SECONDS);
  const steady = await openLoad(engine.url, next, rate, SECONDS);
  console.table([
    {
      phase: 'peak, 16 connections',
      'ok/s': peakRps.toFixed(1),
      'p50 ms': peak.quantile(0.5),
      'p99 ms': peak.quantile(0.99),
      statuses: peak.statusMix(),
    },
    {
      phase: `${rate} req/s offered (70 %)`,
      'ok/s': (steady.ok / SECONDS).toFixed(1),
      'p50 ms': steady.quantile(0.5),
      'p99 ms': steady.quantile(0.99),
      statuses: steady.statusMix(),
    },
  ]);
  console.log(
    `targets: peak ≥ 200 req/s: ${peakRps >= 200 ? 'met' : 'NOT met'}; p99 ≤ 150 ms at 70 %: ${steady.quantile(0.99) <= 150 ? 'met' : 'NOT met'}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  engine.process.kill('SIGTERM');
}
