/**
 * `npm run bench:batch`: bulk jobs against single requests, on one engine process started as `npm start`
 * starts one (QR_ROLE=engine, PGlite in memory, the render cache off so no render is answered from it),
 * in alternating rounds on the same engine.
 *
 * 1. Rate: 1,000 plain PNG codes as one bulk job (submitted to finished, by the job's own createdAt and
 *    finishedAt, 1.5 s after the single requests ended) against the same 1,000 renders as single requests at
 *    32 connections (autocannon).
 * 2. Single-request latency: single requests at a steady BENCH_SINGLE_RATE (50 a second, on 4 connections) for
 *    BENCH_SECONDS, with a bulk job of 3,000 items running and without one; p50 and p99.
 * 3. Memory: the engine's resident set (VmRSS) sampled every 50 ms while a 10,000-item job's ZIP streams to a
 *    client that reads it as it comes.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServiceProcess } from '../scripts/service-process.js';

const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const OWNER = { 'x-rapidapi-user': 'bench' };
/** Single requests a second beside the bulk job: steady traffic, well under what the pool renders. */
const SINGLE_RATE = Number(process.env.BENCH_SINGLE_RATE ?? 50);
const JSON_TYPE = { 'content-type': 'application/json' };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const startEngine = () =>
  startServiceProcess(MAIN, {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    QR_ROLE: 'engine',
    QR_DATA_DIR: 'memory://',
    QR_CACHE_MB: '0',
  });

let tag = 0;
const contents = (n: number) => {
  const round = tag++;
  return Array.from({ length: n }, (_, i) => `https://shop.example.com/product/${round}-${i}?utm_source=qr`);
};

async function submit(url: string, items: string[]): Promise<string> {
  const res = await fetch(`${url}/api/qr/batch`, {
    method: 'POST',
    headers: { ...JSON_TYPE, ...OWNER },
    body: JSON.stringify({ items: items.map((content) => ({ content })) }),
  });
  if (res.status !== 202) throw new Error(`batch refused: ${res.status} ${await res.text()}`);
  return (await res.json()).jobId;
}

async function finished(url: string, id: string): Promise<{ seconds: number; failed: number }> {
  for (;;) {
    const s = await (await fetch(`${url}/api/qr/batch/${id}`, { headers: OWNER })).json();
    if (s.status === 'done')
      return { seconds: (Date.parse(s.finishedAt) - Date.parse(s.createdAt)) / 1000, failed: s.failed };
    await sleep(100);
  }
}

async function singles(url: string, items: string[], connections: number, duration?: number, rate?: number) {
  let next = 0;
  return autocannon({
    url: `${url}/api/qr/generate`,
    method: 'POST',
    connections,
    ...(rate !== undefined && { overallRate: rate }),
    ...(duration === undefined ? { amount: items.length } : { duration }),
    headers: { ...JSON_TYPE, ...OWNER },
    requests: [
      { setupRequest: (req) => ({ ...req, body: JSON.stringify({ content: items[next++ % items.length] }) }) },
    ],
  });
}

async function rates(url: string): Promise<void> {
  const single: number[] = [];
  const bulk: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const r = await singles(url, contents(1000), 32);
    if (r.non2xx > 0) throw new Error(`${r.non2xx} single requests answered other than 2xx`);
    single.push(1000 / r.duration);
    // Bulk items keep to their share for a second after the last single request (SINGLE_QUIET_MS).
    await sleep(1500);
    const job = await finished(url, await submit(url, contents(1000)));
    if (job.failed > 0) throw new Error(`${job.failed} bulk items failed`);
    bulk.push(1000 / job.seconds);
    console.log(
      `round ${round + 1}: singles ${single.at(-1)!.toFixed(1)}/s, bulk ${bulk.at(-1)!.toFixed(1)}/s (load ${load()})`,
    );
  }
  const ratio = median(bulk) / median(single);
  console.log(
    `1,000 plain PNG codes: single requests at 32 connections median ${median(single).toFixed(1)}/s, one bulk job median ${median(bulk).toFixed(1)}/s: ${(ratio * 100).toFixed(0)} %`,
  );
}

async function latency(url: string): Promise<void> {
  const quiet = { p50: [] as number[], p99: [] as number[] };
  const busy = { p50: [] as number[], p99: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const a = await singles(url, contents(5000), 4, SECONDS, SINGLE_RATE);
    quiet.p50.push(a.latency.p50);
    quiet.p99.push(a.latency.p99);
    const id = await submit(url, contents(3000));
    await sleep(500);
    const b = await singles(url, contents(5000), 4, SECONDS, SINGLE_RATE);
    busy.p50.push(b.latency.p50);
    busy.p99.push(b.latency.p99);
    await fetch(`${url}/api/qr/batch/${id}`, { method: 'DELETE', headers: OWNER });
    await sleep(2000);
    console.log(
      `round ${round + 1}: p99 alone ${a.latency.p99} ms, during a bulk job ${b.latency.p99} ms (load ${load()})`,
    );
  }
  console.log(
    `single requests, ${SINGLE_RATE}/s on 4 connections: alone p50 ${median(quiet.p50)} ms p99 ${median(quiet.p99)} ms; during a bulk job p50 ${median(busy.p50)} ms p99 ${median(busy.p99)} ms (${(median(busy.p99) / median(quiet.p99)).toFixed(2)}×)`,
  );
}

async function zipMemory(url: string, pid: number): Promise<void> {
  const started = Date.now();
  const id = await submit(url, contents(10_000));
  await finished(url, id);
  console.log(`10,000-item job finished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  await sleep(1000);
  const before = rssMb(pid);
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(rssMb(pid)), 50);
  let bytes = 0;
  const t0 = performance.now();
  const res = await fetch(`${url}/api/qr/batch/${id}/result`, { headers: OWNER });
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  clearInterval(timer);
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `10,000-item ZIP: ${(bytes / 1048576).toFixed(1)} MB in ${seconds.toFixed(1)} s; engine RSS before ${before.toFixed(0)} MB, during max ${Math.max(...samples).toFixed(0)} MB (median ${median(samples).toFixed(0)}), after ${rssMb(pid).toFixed(0)} MB`,
  );
}

const engine = await startEngine();
const url = engine.ready[1]!;
try {
  console.log(`engine ${url}, load ${load()}`);
  // Warm-up: the workers' first renders.
  await finished(url, await submit(url, contents(200)));
  await singles(url, contents(200), 8);
  if (process.env.BENCH_ONLY !== 'memory') {
    await rates(url);
    await latency(url);
  }
  await zipMemory(url, engine.child.pid!);
} finally {
  await engine.stop();
}
