/**
 * `npm run bench:marketplace`: what metering the marketplace channel adds, each measured beside the same
 * work without it, in the same run.
 *
 * 1. The managed-AI quota in the store: one managed call's two statements (hold, then deliver) beside a
 *    bare `SELECT 1`, on PGlite in memory and on the PostgreSQL server (QR_TEST_DATABASE_URL).
 * 2. A whole managed call over HTTP against a loopback LLM that answers at once (the render cached after
 *    the first call, so the quota is as large a share of the call as it can be): engines metering on
 *    PGlite, on PostgreSQL, and one whose meter is replaced by a pass-through, alternated round by round.
 * 3. Usage counting: `MarketplaceCallCounter.count` alone, then `POST /api/qr/generate` (one cached design) through
 *    two engine processes started as `npm start` starts one, counting (QR_USAGE_FLUSH_MS=10000) and not
 *    (0), driven by autocannon in alternating rounds.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Bench } from 'tinybench';
import { startServiceProcess } from '../scripts/service-process.js';
import { loadConfig } from '../src/config.js';
import { PLANS } from '../src/marketplace/plans.js';
import { deliverManagedDesign, holdManagedDesign } from '../src/marketplace/quota.js';
import { MarketplaceCallCounter } from '../src/marketplace/usage.js';
import { startService } from '../src/server.js';
import { type Db, MEMORY_DATA_DIR, openStore } from '../src/store/index.js';

const DATABASE_URL = process.env.QR_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `bench_marketplace_${process.pid}`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLS_PER_ROUND = 200;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONTENT = 'https://example.com/some/path?utm_source=qr&id=12345';
const DESIGN = JSON.stringify({ config: { primaryColor: '#1b3a4b', moduleShape: 'rounded' }, explanation: 'Teal.' });

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

// --- 1. The quota's statements -----------------------------------------------------------------------------

async function storeCost(name: string, db: Db): Promise<void> {
  let n = 0;
  const bench = new Bench({ time: 2000, warmupTime: 300 });
  // The peer: the driver's own round trip, the floor of any statement.
  bench.add(`${name}: SELECT 1`, async () => {
    await db.query('SELECT 1');
  });
  bench.add(`${name}: hold + deliver (one managed call)`, async () => {
    const holdId = `bench-${n++}`;
    const held = await holdManagedDesign(db, {
      holdId,
      user: 'bench-user',
      month: '2026-11',
      planId: 'PRO',
      limit: undefined,
      expiresAt: new Date(Date.now() + 60_000),
    });
    if (!held || (await deliverManagedDesign(db, holdId, 100)) === null) throw new Error('not counted');
  });
  await bench.run();
  for (const task of bench.tasks) {
    const t = task.result!;
    console.log(
      `${task.name}: median ${(t.latency.p50! * 1000).toFixed(0)} µs, p99 ${(t.latency.p99! * 1000).toFixed(0)} µs`,
    );
  }
}

// --- 2. A managed call over HTTP ---------------------------------------------------------------------------

/** A loopback OpenAI-style vendor answering every chat completion at once with the same design. */
async function fakeLlm(): Promise<{ url: string; close(): void }> {
  const body = JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: DESIGN }, finish_reason: 'stop' }],
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => server.close() };
}

async function managedCalls(): Promise<void> {
  const llm = await fakeLlm();
  const env = {
    QR_WORKERS: '1',
    QR_LLM_GROQ_BASE_URL: llm.url,
    QR_MANAGED_GROQ_API_KEY: 'gsk_bench0123456789',
    QR_MANAGED_CHAIN: 'groq',
    QR_DATA_DIR: MEMORY_DATA_DIR,
  };
  const quiet = () => {};
  const engines = {
    'quota on PGlite': await startService({ ...loadConfig(env), port: 0 }, quiet),
    'quota on PostgreSQL': await startService(
      { ...loadConfig({ ...env, DATABASE_URL, QR_DATABASE_SCHEMA: SCHEMA }), port: 0 },
      quiet,
    ),
    'no quota (pass-through meter)': await startService({ ...loadConfig(env), port: 0 }, quiet),
  };
  // The peer: the same route, its meter replaced by one that holds, counts and bills nothing.
  engines['no quota (pass-through meter)'].service.marketplace.managedAi.meter = (_headers, call) =>
    call(async () => ({}));
  const call = async (port: number) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/qr/ai/generate-managed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-rapidapi-user': 'bench', 'x-rapidapi-subscription': 'MEGA' },
      body: JSON.stringify({ content: CONTENT, prompt: 'teal', outputWidth: 256 }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`managed call answered ${res.status}`);
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(engines).map((k) => [k, []]));
  for (const e of Object.values(engines)) for (let i = 0; i < 20; i++) await call(e.port);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, e] of Object.entries(engines)) {
      const t0 = performance.now();
      for (let i = 0; i < CALLS_PER_ROUND; i++) await call(e.port);
      times[name]!.push((performance.now() - t0) / CALLS_PER_ROUND);
    }
  }
  const peer = median(times['no quota (pass-through meter)']!);
  for (const [name, per] of Object.entries(times)) {
    const m = median(per);
    console.log(
      `managed call, ${name}: median of ${ROUNDS} rounds ${m.toFixed(2)} ms a call (rounds ${per.map((x) => x.toFixed(2)).join(', ')}); ${name.startsWith('no') ? 'peer' : `+${(m - peer).toFixed(2)} ms`}`,
    );
  }
  for (const e of Object.values(engines)) await e.close();
  llm.close();
}

// --- 3. Usage counting -------------------------------------------------------------------------------------

async function countCost(): Promise<void> {
  const db = await openStore({ dataDir: MEMORY_DATA_DIR });
  const counter = new MarketplaceCallCounter(db, { flushMs: 3_600_000, maxPending: 1_000_000 });
  const callers = Array.from({ length: 1000 }, (_, i) => ({ user: `user-${i}`, plan: PLANS.planOf('PRO') }));
  let i = 0;
  const bench = new Bench({ time: 1000, warmupTime: 200 });
  bench.add('MarketplaceCallCounter.count (1,000 users in turn)', () => {
    counter.count(callers[i++ % 1000]!, 'generation');
  });
  await bench.run();
  const t = bench.tasks[0]!.result!;
  console.log(`${bench.tasks[0]!.name}: median ${(t.latency.p50! * 1e6).toFixed(0)} ns a call`);
  await counter.close();
  await db.close();
}

/** An engine process as `npm start` runs one (QR_ROLE=engine), once it listens. */
/** An engine process as `npm start` runs one (QR_ROLE=engine), once it listens. */
const engineProcess = (port: number, flushMs: string) =>
  startServiceProcess(
    fileURLToPath(new URL('../src/main.js', import.meta.url)),
    {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      QR_ROLE: 'engine',
      QR_WORKERS: '1',
      QR_DATA_DIR: MEMORY_DATA_DIR,
      QR_USAGE_FLUSH_MS: flushMs,
    },
    { passStderr: true },
  );

async function generateThroughput(): Promise<void> {
  const sides = { counting: { port: 3931, flush: '10000' }, 'not counting': { port: 3932, flush: '0' } };
  const children = await Promise.all(Object.values(sides).map((s) => engineProcess(s.port, s.flush)));
  const results: Record<string, { rps: number[]; p50: number[] }> = {
    counting: { rps: [], p50: [] },
    'not counting': { rps: [], p50: [] },
  };
  try {
    // Two renders each first (the render cache keeps a design on its second sighting): the rounds measure
    // the request path around a cached render, not the render.
    for (const side of Object.values(sides)) {
      for (let sighting = 0; sighting < 2; sighting++) {
        const res = await fetch(`http://127.0.0.1:${side.port}/api/qr/generate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ content: CONTENT }),
        });
        if (res.status !== 200) throw new Error(`warm-up answered ${res.status}`);
        await res.arrayBuffer();
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, side] of Object.entries(sides)) {
        const r = await autocannon({
          url: `http://127.0.0.1:${side.port}/api/qr/generate`,
          method: 'POST',
          connections: 32,
          duration: SECONDS,
          headers: { 'content-type': 'application/json', 'x-rapidapi-user': 'bench', 'x-rapidapi-subscription': 'PRO' },
          body: JSON.stringify({ content: CONTENT }),
        });
        if (r.non2xx > 0) throw new Error(`${name}: ${r.non2xx} answers other than 2xx`);
        results[name]!.rps.push(r.requests.average);
        results[name]!.p50.push(r.latency.p50);
      }
    }
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `POST /api/qr/generate (cached), ${name}: median ${Math.round(median(r.rps))} req/s, p50 ${median(r.p50)} ms (rounds ${r.rps.map(Math.round).join(', ')})`,
    );
  }
}

console.log(`load average at start: ${loadAverage()}`);
const pglite = await openStore({ dataDir: MEMORY_DATA_DIR });
await storeCost('PGlite', pglite);
await pglite.close();
const postgres = await openStore({ databaseUrl: DATABASE_URL, dataDir: MEMORY_DATA_DIR, schema: SCHEMA });
try {
  await storeCost('PostgreSQL', postgres);
  await managedCalls();
} finally {
  await postgres.query(`DROP SCHEMA ${SCHEMA} CASCADE`);
  await postgres.close();
}
await countCost();
await generateThroughput();
console.log(`load average at end: ${loadAverage()}`);
