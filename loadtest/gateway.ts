/**
 * `npm run loadtest:gateway`: what the consumer gateway adds, measured beside the engine direct in the same
 * run. Starts engine and site as `npm start` does (QR_ROLE=all: the engine and a site process of its own,
 * relaying through the engine's Unix socket) on a fresh data directory and ports of the system's choosing,
 * issues a key with the operator CLI, then drives POST /api/qr/generate on the engine and
 * POST /api/v1/qr/generate on the site, alternating, with autocannon (32 connections, closed loop):
 *   cached: one design repeated, so the engine answers from its render cache, and the site from its edge
 *           cache (QR_SITE_CACHE_MB) after the key check, limit and pack, without a relay;
 *   unique: every request a new verified render.
 * Limits are raised for the run (one customer sends everything). Reports req/s, p50 and p99 per path, the
 * gateway's share of the direct throughput, the CPU time per request of the engine process (its render
 * workers included) and of the site process (which a busy machine inflates less than the wall clock), and
 * the load average; then each build's median share per kind.
 * LOADTEST_BASELINE=<another build>/dist starts that build's process tree too and runs each of its rows
 * beside the same row of this build, so a change is measured beside its base under the same load; the
 * builds take turns going first from round to round, as the tree that ran second often did better
 * (bench/README.md, "The consumer gateway").
 * LOADTEST_KINDS=cached or unique runs one kind only; LOADTEST_ROUNDS (2) and LOADTEST_SECONDS (10).
 */
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median } from '../bench/cases.js';
import { startBuildTree } from './engine.js';
import { processCpuMs } from './proc-cpu.js';

const SECONDS = Number(process.env.LOADTEST_SECONDS ?? 10);
const ROUNDS = Number(process.env.LOADTEST_ROUNDS ?? 2);
const KINDS = (process.env.LOADTEST_KINDS ?? 'cached,unique').split(',');
const CONNECTIONS = 32;

interface Tree {
  label: string;
  process: ChildProcess;
  sitePid: number;
  direct: string;
  gateway: string;
  key: string;
  stop(): Promise<void>;
}

/** One build's process tree, its output prefixed with `label`. */
async function startTree(label: string, dist: string): Promise<Tree> {
  const tree = await startBuildTree(dist, { onOutput: (chunk) => process.stdout.write(`[${label}] ${chunk}`) });
  return {
    label,
    process: tree.process,
    sitePid: tree.sitePid,
    direct: `${tree.engine}/api/qr/generate`,
    gateway: `${tree.site}/api/v1/qr/generate`,
    key: tree.key,
    stop: tree.stop,
  };
}

let counter = 0;
const body = (unique: boolean) =>
  JSON.stringify({ content: unique ? `https://example.com/load/${counter++}` : 'https://example.com/load/cached' });

async function run(tree: Tree, path: 'direct' | 'gateway', unique: boolean) {
  const statuses = new Map<number, number>();
  const cpuBefore = { engine: processCpuMs(tree.process.pid!), site: processCpuMs(tree.sitePid) };
  const result = await autocannon({
    url: tree[path],
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(path === 'gateway' && { 'x-api-key': tree.key }) },
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 10,
    requests: [{ setupRequest: (req) => ({ ...req, body: body(unique) }) }],
    setupClient: (client) =>
      client.on('response', (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)),
  });
  const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
  const perRequest = (ms: number) => Math.round((1000 * ms) / Math.max(1, answered));
  const ok = statuses.get(200) ?? 0;
  const other = [...statuses.entries()].filter(([s]) => s !== 200);
  return {
    name: `${tree.label}, ${unique ? 'unique' : 'cached'}, ${path === 'direct' ? 'engine direct' : 'through the gateway'}`,
    'ok req/s': Math.round(ok / SECONDS),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'engine CPU µs/req': perRequest(processCpuMs(tree.process.pid!) - cpuBefore.engine),
    'site CPU µs/req': perRequest(processCpuMs(tree.sitePid) - cpuBefore.site),
    load: loadavg()[0]!.toFixed(1),
    'not 200': other.map(([s, n]) => `${s}×${n}`).join(' ') || '0',
    errors: result.errors + result.timeouts,
  };
}

const trees: Tree[] = [];
try {
  const baseline = process.env.LOADTEST_BASELINE;
  if (baseline !== undefined) trees.push(await startTree('baseline', resolve(baseline)));
  trees.push(await startTree('this build', fileURLToPath(new URL('..', import.meta.url))));
  const rows = [];
  const shares = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const unique of KINDS.map((k) => k === 'unique')) {
      for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) {
        const d = await run(tree, 'direct', unique);
        const g = await run(tree, 'gateway', unique);
        const share = Math.round((100 * g['ok req/s']) / d['ok req/s']);
        rows.push(d, { ...g, 'share of direct': `${share} %` });
        const name = `${tree.label}, ${unique ? 'unique' : 'cached'}`;
        shares.set(name, [...(shares.get(name) ?? []), share]);
      }
    }
  }
  console.table(rows);
  // One round's share swings by ±15 points on two shared cores (bench/README.md): the median says more.
  for (const [name, list] of shares)
    console.log(`${name}: median share of direct ${Math.round(median(list))} % (rounds: ${list.join(', ')})`);
  console.log('targets: cached ≥ 60 % of direct and p50 at most +1 ms; unique renders ≥ 90 % of direct.');
} finally {
  await Promise.all(trees.map((tree) => tree.stop()));
}
