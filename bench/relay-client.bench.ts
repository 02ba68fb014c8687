/**
 * `npm run bench:relay`: the site's CPU per relayed call in its engine client (src/gateway/engine-client.ts)
 * alone: signing, choosing the engine, undici's dispatch, reading the answer. The engine is a stub in a
 * process of its own (node:http on a Unix socket, a fixed 1,200-byte PNG-typed answer), so this process's
 * CPU (`process.cpuUsage`) is the client's. 32 calls in flight, BENCH_RELAYS (20,000) calls a round,
 * BENCH_ROUNDS (6) rounds after a warm-up one.
 * BENCH_BASELINE=<another build>/dist loads that build's client too, and the two take turns round by round
 * (each going first in every other round), in one process, against the same stub.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './cases.js';

const RELAYS = Number(process.env.BENCH_RELAYS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const IN_FLIGHT = 32;
const ANSWER_BYTES = 1200;

/** The stub engine: answers every request at once, /readyz (the new client's probe) included. */
const STUB = `
const { createServer } = require('node:http');
const body = Buffer.alloc(${ANSWER_BYTES}, 7);
createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
    res.end(body);
  });
}).listen(process.argv[1], () => process.send('listening'));
`;

type Client = { relay(call: unknown): Promise<{ status: number; body: unknown }>; close(): Promise<void> };

interface Build {
  label: string;
  client: Client;
  makeCall: () => unknown;
}

async function loadBuild(label: string, dist: string, socket: string): Promise<Build> {
  const mod = (path: string) => import(pathToFileURL(join(dist, path)).href);
  const { EngineClient, relayCall } = await mod('src/gateway/engine-client.js');
  const { ClientGone } = await mod('src/http/response.js');
  const client: Client = new EngineClient([`unix:${socket}`], ['bench-secret-0123456789abcdef0123456789'], 10_000);
  const body = Buffer.from(JSON.stringify({ content: 'https://example.com/load/cached' }));
  const makeCall = () =>
    relayCall({
      method: 'POST',
      path: '/api/qr/generate',
      headers: { 'content-type': 'application/json', host: 'site.example' },
      body,
      caller: { customerId: 'cus_bench' },
      signal: new ClientGone(),
    });
  return { label, client, makeCall };
}

/** RELAYS calls, IN_FLIGHT at a time: this process's CPU µs per call and calls per second. */
async function round(build: Build): Promise<{ cpuUs: number; perSecond: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const worker = async () => {
    while (next++ < RELAYS) {
      const answer = await build.client.relay(build.makeCall());
      if (answer.status !== 200) throw new Error(`${build.label}: the stub answered ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / RELAYS, perSecond: RELAYS / seconds };
}

const dir = mkdtempSync(join(tmpdir(), 'qrfarm-relay-bench-'));
const socket = join(dir, 'engine.sock');
const stub = spawn(process.execPath, ['-e', STUB, socket], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const builds: Build[] = [];
try {
  await new Promise((done, fail) => {
    stub.once('message', done);
    stub.once('exit', (code) => fail(new Error(`the stub engine exited with ${code}`)));
  });
  const baseline = process.env.BENCH_BASELINE;
  if (baseline !== undefined) builds.push(await loadBuild('baseline', resolve(baseline), socket));
  builds.push(await loadBuild('this build', fileURLToPath(new URL('..', import.meta.url)), socket));
  for (const build of builds) await round(build); // warm-up
  const results = new Map<string, { cpuUs: number; perSecond: number }[]>(builds.map((b) => [b.label, []]));
  const rows = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const build of r % 2 === 0 ? builds : [...builds].reverse()) {
      const result = await round(build);
      results.get(build.label)!.push(result);
      rows.push({
        round: r + 1,
        build: build.label,
        'CPU µs/call': result.cpuUs.toFixed(1),
        'calls/s': Math.round(result.perSecond),
      });
    }
  }
  console.table(rows);
  for (const [label, list] of results)
    console.log(
      `${label}: median ${median(list.map((x) => x.cpuUs)).toFixed(1)} µs of CPU a call, ` +
        `${Math.round(median(list.map((x) => x.perSecond)))} calls/s (${RELAYS} calls a round, ${ROUNDS} rounds)`,
    );
} finally {
  await Promise.all(builds.map((b) => b.client.close()));
  stub.kill();
  rmSync(dir, { recursive: true, force: true });
}
