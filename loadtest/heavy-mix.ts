/**
 * `npm run loadtest:heavy`: ordinary renders beside high-resolution ones, and beside a client that resets
 * its requests mid-render, each next to ordinary traffic alone in the same run. Starts the engine as its
 * own process (QR_WORKERS workers, the machine's cores by default), warms it up for 3 s, then for
 * LOADTEST_SECONDS each:
 *   plain:           16 connections, closed loop, every request a unique 800 px PNG (a verified render);
 *   plain + heavy:   the same, with 4 more connections each asking a unique 4096 px PNG;
 *   plain + resets:  the same, with one client sending a 2048 px render and resetting the connection 2 ms
 *                    later, 10 times a second.
 * Reports per class ok/s, p50/p99, the status mix and timeouts, and the pool after each phase (workers,
 * renders abandoned by their clients); then, one at a time on the idle server, its CPU time for a 2048 px
 * render that completes and for one whose client resets 2 ms after sending it. Loopback only. LOADTEST_MAIN runs another build's main.js (a
 * baseline) with the same load.
 */
import { connect } from 'node:net';
import autocannon from 'autocannon';
import { startEngine } from './engine.js';
import { processCpuMs } from './proc-cpu.js';

const SECONDS = Number(process.env.LOADTEST_SECONDS ?? 15);
const WARM_UP_SECONDS = 3;

const { process: server, port: PORT, url: URL_BASE } = await startEngine();

let counter = 0;
const render = (outputWidth: number) =>
  JSON.stringify({ content: `https://example.com/mix/${outputWidth}/${counter++}`, outputWidth });

/** One class of traffic: `connections` in a closed loop for `seconds`, each request a fresh render. */
async function traffic(name: string, connections: number, outputWidth: number, seconds = SECONDS) {
  const statuses = new Map<number, number>();
  const result = await autocannon({
    url: `${URL_BASE}/api/qr/generate`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections,
    duration: seconds,
    timeout: 30,
    requests: [{ setupRequest: (req) => ({ ...req, body: render(outputWidth) }) }],
    setupClient: (client) =>
      client.on('response', (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)),
  });
  return {
    class: name,
    'ok/s': Math.round(((statuses.get(200) ?? 0) / SECONDS) * 10) / 10,
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    statuses: [...statuses.entries()].map(([s, n]) => `${s}×${n}`).join(' '),
    timeouts: result.timeouts,
  };
}

/** Sends a 2048 px render and resets the connection 2 ms later. */
function sendAndReset(): void {
  const body = render(2048);
  const socket = connect(PORT, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    `POST /api/qr/generate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  setTimeout(() => socket.resetAndDestroy(), 2);
}

/** A client resetting its renders `perSecond` times a second; the returned stop says how many it sent. */
function resettingClient(perSecond: number): () => number {
  let sent = 0;
  const timer = setInterval(() => {
    sendAndReset();
    sent++;
  }, 1000 / perSecond);
  return () => {
    clearInterval(timer);
    return sent;
  };
}

const cpuMs = () => processCpuMs(server.pid!);

/**
 * Server CPU per request, one at a time: `send` starts one, then the server is left a second after its pool
 * is idle, and 3 s after the last (a replaced worker loads its WASM modules meanwhile). An idle server uses
 * next to no CPU, so the time of the waits is not subtracted.
 */
async function cpuPerRequest(send: () => Promise<unknown>, count = 10): Promise<number> {
  const before = cpuMs();
  for (let i = 0; i < count; i++) {
    await send();
    for (let p = await poolStats(); p.running + p.queued > 0; p = await poolStats()) await sleep(20);
    await sleep(1000);
  }
  await sleep(3000);
  return Math.round((cpuMs() - before) / count);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const poolStats = async () =>
  ((await (await fetch(`${URL_BASE}/api/ping`)).json()) as { pool: Record<string, number> }).pool;
const pool = async () => {
  const p = await poolStats();
  return `workers ${p.workers}, completed ${p.completed}, abandoned ${p.abandoned ?? '—'}`;
};

try {
  // Workers load their WASM modules after the server listens; the first seconds are not measured.
  await traffic('warm-up', 4, 800, WARM_UP_SECONDS);
  const rows = [];
  rows.push({ phase: 'plain', ...(await traffic('plain 800 px', 16, 800)), pool: await pool() });
  const [plain, heavy] = await Promise.all([traffic('plain 800 px', 16, 800), traffic('heavy 4096 px', 4, 4096)]);
  rows.push({ phase: 'plain + heavy', ...plain, pool: await pool() }, { phase: 'plain + heavy', ...heavy });
  const stop = resettingClient(10);
  const beside = await traffic('plain 800 px', 16, 800);
  const resets = stop();
  rows.push({ phase: `plain + ${resets} resets`, ...beside, pool: await pool() });
  console.table(rows);
  // The resets of the last phase may still be costing the server: let it settle first.
  await sleep(5000);
  const completed = await cpuPerRequest(async () => {
    const res = await fetch(`${URL_BASE}/api/qr/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: render(2048),
    });
    await res.arrayBuffer();
  });
  const reset = await cpuPerRequest(async () => {
    sendAndReset();
    await sleep(10);
  });
  console.log(`server CPU per 2048 px render: completed ${completed} ms, reset 2 ms after sending ${reset} ms`);
} finally {
  server.kill('SIGTERM');
}
