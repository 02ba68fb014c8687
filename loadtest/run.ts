/**
 * `npm run loadtest`: the k6 scenario's questions answered without k6. Starts the service as its own
 * process (as it runs in production), then drives POST /api/qr/generate with autocannon:
 *   1. throughput: 32 connections, closed loop, every request a unique (uncached) verified render;
 *   2. overload: an open-loop rate of 4× the measured throughput, where only 200s and fast 503s may come back.
 * Reports req/s, p50/p99, the share of 200/503/other, timeouts, and the server's peak resident memory.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startEngine } from './engine.js';

const SECONDS = Number(process.env.LOADTEST_SECONDS ?? 15);
const CONNECTIONS = 32;
const STANDARD = 'https://example.com/some/path?utm_source=qr&id=';

const { process: server, url: URL_BASE } = await startEngine();

/** Peak resident set of the server process (VmHWM), from /proc. */
const peakRssMb = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};

let counter = 0;
interface Phase {
  name: string;
  connections: number;
  overallRate?: number;
}

async function run(phase: Phase) {
  const statuses = new Map<number, number>();
  const result = await autocannon({
    url: `${URL_BASE}/api/qr/generate`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: phase.connections,
    duration: SECONDS,
    timeout: 10,
    ...(phase.overallRate ? { overallRate: phase.overallRate } : {}),
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ content: STANDARD + counter++ }) }) }],
    setupClient: (client) =>
      client.on('response', (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)),
  });
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  const share = (s: number) => `${(((statuses.get(s) ?? 0) / Math.max(1, total)) * 100).toFixed(1)} %`;
  const other = total - (statuses.get(200) ?? 0) - (statuses.get(503) ?? 0);
  return {
    phase: phase.name,
    'ok req/s': Math.round((statuses.get(200) ?? 0) / SECONDS),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    '200': share(200),
    '503': share(503),
    other: `${other}`,
    timeouts: result.timeouts,
    errors: result.errors,
  };
}

try {
  const throughput = await run({ name: `throughput, ${CONNECTIONS} connections`, connections: CONNECTIONS });
  const rate = Math.max(50, throughput['ok req/s'] * 4);
  const overload = await run({ name: `overload, ${rate} req/s offered (4×)`, connections: 256, overallRate: rate });
  console.table([throughput, overload]);
  const rss = peakRssMb();
  console.log(`server peak RSS: ${rss} MB (target ≤ 400 MB)`);
  console.log(
    `targets: ≥ 200 verified renders/s: ${throughput['ok req/s'] >= 200 ? 'met' : 'NOT met'}; p99 ≤ 150 ms: ${throughput['p99 ms'] <= 150 ? 'met' : 'NOT met'}; overload only 200/503, no timeouts: ${overload.other === '0' && overload.timeouts === 0 ? 'met' : 'NOT met'}`,
  );
} finally {
  server.kill('SIGTERM');
}
