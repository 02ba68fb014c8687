/**
 * `npm run loadtest:gateway`: what the consumer gateway adds, measured beside the engine direct in the same
 * run. Starts engine and site as `npm start` does (QR_ROLE=all: the engine and a site process of its own) on
 * a fresh data directory,
 * issues a key with the operator CLI, then drives POST /api/qr/generate on the engine and
 * POST /api/v1/qr/generate on the site, alternating, with autocannon (32 connections, closed loop):
 *   cached: one design repeated, so the engine answers from its render cache and the gateway's own work
 *           (key check, limit, pack, relay) is most of the cost;
 *   unique: every request a new verified render.
 * Limits are raised for the run (one customer sends everything). Reports req/s, p50 and p99 per path and
 * the gateway's share of the direct throughput.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ENGINE_PORT = Number(process.env.LOADTEST_PORT ?? 3917);
const SITE_PORT = ENGINE_PORT + 1;
const SECONDS = Number(process.env.LOADTEST_SECONDS ?? 10);
const ROUNDS = Number(process.env.LOADTEST_ROUNDS ?? 2);
const CONNECTIONS = 32;
const dataDir = mkdtempSync(join(tmpdir(), 'qrfarm-loadtest-'));
const env = {
  ...process.env,
  HOST: '127.0.0.1',
  PORT: String(ENGINE_PORT),
  SITE_PORT: String(SITE_PORT),
  QR_ROLE: 'all',
  QR_DATA_DIR: dataDir,
  QR_LIMIT_GENERAL: '100000000',
  QR_LIMIT_GENERATION: '100000000',
};

const main = fileURLToPath(new URL('../src/main.js', import.meta.url));
const admin = fileURLToPath(new URL('../scripts/admin.js', import.meta.url));

/** Starts main.js with `extra` and resolves once its log says `ready`. */
async function start(extra: Record<string, string>, ready: string) {
  const child = spawn(process.execPath, [main], { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      process.stdout.write(`[server] ${d}`);
      if (d.toString().includes(ready)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return child;
}

const servers = [await start({}, 'site listening')];
const key: string = JSON.parse(execFileSync(process.execPath, [admin, 'quickstart', '--json'], { env }).toString()).key;

let counter = 0;
const body = (unique: boolean) =>
  JSON.stringify({ content: unique ? `https://example.com/load/${counter++}` : 'https://example.com/load/cached' });

async function run(name: string, url: string, headers: Record<string, string>, unique: boolean) {
  const statuses = new Map<number, number>();
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 10,
    requests: [{ setupRequest: (req) => ({ ...req, body: body(unique) }) }],
    setupClient: (client) =>
      client.on('response', (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)),
  });
  const ok = statuses.get(200) ?? 0;
  const other = [...statuses.entries()].filter(([s]) => s !== 200);
  return {
    name,
    'ok req/s': Math.round(ok / SECONDS),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'not 200': other.map(([s, n]) => `${s}×${n}`).join(' ') || '0',
    errors: result.errors + result.timeouts,
  };
}

const direct = `http://127.0.0.1:${ENGINE_PORT}/api/qr/generate`;
const gateway = `http://127.0.0.1:${SITE_PORT}/api/v1/qr/generate`;
try {
  const rows = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const unique of [false, true]) {
      const kind = unique ? 'unique' : 'cached';
      const d = await run(`${kind}, engine direct`, direct, {}, unique);
      const g = await run(`${kind}, through the gateway`, gateway, { 'x-api-key': key }, unique);
      rows.push(d, { ...g, 'share of direct': `${Math.round((100 * g['ok req/s']) / d['ok req/s'])} %` });
    }
  }
  console.table(rows);
  console.log('targets: cached ≥ 60 % of direct and p50 at most +1 ms; unique renders ≥ 90 % of direct.');
} finally {
  for (const server of servers) server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
