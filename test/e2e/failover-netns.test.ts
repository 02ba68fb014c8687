/**
 * Failover across hosts (issue 29): two engines and two sites, each a `node dist/src/main.js` process in a
 * network namespace of its own (test/helpers/netns.ts), reaching PostgreSQL, Redis and a fake LLM vendor
 * through the root namespace's end of the bridge. Load goes through both sites with a customer's key:
 * renders, and server AI that holds a credit while the vendor takes its time. One engine killed
 * (SIGKILL) mid-load; both engines restarted one after the other (SIGTERM, a drain); a site drained with
 * calls in flight. Needs root and iproute2 (.ci/run installs it): without them the suite fails, never skips.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { Agent, Client, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts } from '../../src/accounts/index.js';
import type { Accounts } from '../../src/accounts/types.js';
import { type FakeVendor, startFakeVendor, success } from '../ai/fake-vendor.js';
import { GROQ_KEY, INTERNAL_SECRET, KEY_PEPPER } from '../helpers/consumer.js';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/databases.js';
import { decodeOne } from '../helpers/decode.js';
import { createTestNetwork, type Host, type RoleProcess, type TestNetwork, untilReady } from '../helpers/netns.js';
import { deleteKeys, requireRedis, runPrefix, TEST_REDIS_URL } from '../helpers/redis.js';

const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));
const ENGINE_PORT = 3000;
const SITE_PORT = 3001;
const METRICS_TOKEN = 'failover-metrics-token-0123456789';
const DESIGN = {
  config: { primaryColor: '#1b3a4b', backgroundColor: '#f7f3e8', moduleShape: 'rounded' },
  explanation: 'Teal.',
};
/** The vendor's time per design: server-AI calls stay in flight long enough to be caught by a kill. */
const VENDOR_DELAY_MS = 400;
const CREDITS = 100_000;
/** Concurrent clients of the load: renders and server-AI calls, spread over both sites. */
const RENDER_CLIENTS = 20;
const AI_CLIENTS = 8;

let net: TestNetwork;
let db: TestDatabase;
let accounts: Accounts;
let groq: FakeVendor;
const prefix = runPrefix('failover-netns');
const dataDirs: string[] = [];
let customer: { id: string; key: string };

interface Role {
  host: Host;
  env: Record<string, string>;
  url: string;
  process?: RoleProcess;
}
const engines: Role[] = [];
const sites: Role[] = [];

function start(role: Role): Promise<void> {
  role.process = net.run(role.host, MAIN, role.env);
  return untilReady(`${role.url}/readyz`, 60_000, () => role.process!.output());
}

beforeAll(async () => {
  await requireRedis();
  net = createTestNetwork();
  db = await openTestDatabase('postgres');
  accounts = createAccounts(db.db, { pepper: Buffer.from(KEY_PEPPER, 'utf8') });
  groq = await startFakeVendor('openai', GROQ_KEY);
  groq.reply({ ...success.openai(JSON.stringify(DESIGN)), delayMs: VENDOR_DELAY_MS });
  const gw = net.gateway;
  await net.forward(Number(new URL(TEST_DATABASE_URL).port || 5432));
  await net.forward(Number(new URL(TEST_REDIS_URL).port || 6379));
  const vendorPort = await net.forward(Number(new URL(groq.origin).port));
  const databaseUrl = new URL(TEST_DATABASE_URL);
  databaseUrl.hostname = gw;
  const redisUrl = new URL(TEST_REDIS_URL);
  redisUrl.hostname = gw;
  const shared = {
    DATABASE_URL: databaseUrl.href,
    QR_DATABASE_SCHEMA: db.schema!,
    QR_KEY_PEPPER: KEY_PEPPER,
    REDIS_URL: redisUrl.href,
    QR_REDIS_PREFIX: prefix,
    QR_INTERNAL_SECRET: INTERNAL_SECRET,
    QR_METRICS_TOKEN: METRICS_TOKEN,
    QR_DRAIN_SECONDS: '30',
  };
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'qrfarm-failover-'));
    dataDirs.push(dir);
    return dir;
  };
  for (let i = 0; i < 2; i++) {
    const host = net.host();
    engines.push({
      host,
      url: `http://${host.address}:${ENGINE_PORT}`,
      env: {
        ...shared,
        QR_ROLE: 'engine',
        HOST: host.address,
        PORT: String(ENGINE_PORT),
        QR_WORKERS: '1',
        // Room for the whole load on one engine while the other is away: no SERVER_BUSY.
        QR_MAX_QUEUE: '256',
        QR_PROXY_SECRET: 'failover-proxy-secret-0123456789abcdef',
        QR_DATA_DIR: dataDir(),
        QR_LLM_GROQ_BASE_URL: `http://${gw}:${vendorPort}/v1`,
        QR_MANAGED_GROQ_API_KEY: GROQ_KEY,
      },
    });
  }
  for (let i = 0; i < 2; i++) {
    const host = net.host();
    sites.push({
      host,
      url: `http://${host.address}:${SITE_PORT}`,
      env: {
        ...shared,
        QR_ROLE: 'site',
        HOST: host.address,
        SITE_PORT: String(SITE_PORT),
        QR_ENGINE_URL: engines.map((e) => e.url).join(','),
        QR_DATA_DIR: dataDir(),
        // Every call reaches an engine: none is answered from the site's memory.
        QR_SITE_CACHE_MB: '0',
        QR_LIMIT_GENERAL: '100000',
        QR_LIMIT_GENERATION: '100000',
        QR_LIMIT_AI: '100000',
      },
    });
  }
  await Promise.all(engines.map(start));
  await Promise.all(sites.map(start));
  const { id } = await accounts.createCustomer(`failover-${process.pid}@example.com`);
  const issued = await accounts.issueKey(id);
  await accounts.grantPack({ customerId: id, credits: CREDITS });
  customer = { id, key: issued.key };
}, 180_000);

afterAll(async () => {
  const problems: unknown[] = [];
  const attempt = async (f: () => Promise<unknown> | unknown) => {
    try {
      await f();
    } catch (e) {
      problems.push(e);
    }
  };
  await attempt(() => net?.close());
  await attempt(() => groq?.close());
  await attempt(() => accounts?.close());
  await attempt(() => db?.close());
  await attempt(async () => {
    const redis = new Redis(TEST_REDIS_URL);
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  if (problems.length > 0) throw problems[0];
}, 60_000);

/** One call of the load, as the client saw it (times from performance.now()). */
interface Outcome {
  kind: 'render' | 'ai';
  content: string;
  sentAt: number;
  doneAt: number;
  status: number;
  code?: string;
  bytes: Uint8Array;
}

const clientAgent = new Agent({ connections: 64 });

async function callSite(site: Role, kind: Outcome['kind'], content: string): Promise<Outcome> {
  const body =
    kind === 'render'
      ? { content, responseType: 'binary', outputWidth: 160, fileFormat: 'png' }
      : { content, prompt: 'calm teal', outputWidth: 128, fileFormat: 'png' };
  const sentAt = performance.now();
  const path = kind === 'render' ? '/api/v1/qr/generate' : '/api/v1/qr/ai/generate/server';
  const r = await request(site.url + path, {
    method: 'POST',
    dispatcher: clientAgent,
    headers: { 'content-type': 'application/json', 'x-api-key': customer.key },
    body: JSON.stringify(body),
  });
  const bytes = new Uint8Array(await r.body.arrayBuffer());
  const json = (r.headers['content-type'] ?? '').toString().startsWith('application/json')
    ? JSON.parse(Buffer.from(bytes).toString('utf8'))
    : undefined;
  const file = kind === 'ai' && r.statusCode === 200 ? Buffer.from(json.qrBase64, 'base64') : bytes;
  return { kind, content, sentAt, doneAt: performance.now(), status: r.statusCode, code: json?.code, bytes: file };
}

/** Calls through both sites from RENDER_CLIENTS + AI_CLIENTS clients, each content its own, until `stop()`. */
function startLoad(through: Role[]): { stop(): Promise<Outcome[]> } {
  let running = true;
  const outcomes: Outcome[] = [];
  const client = async (n: number, kind: Outcome['kind']) => {
    for (let i = 0; running; i++) {
      outcomes.push(await callSite(through[n % through.length]!, kind, `https://failover.example/${kind}/${n}/${i}`));
    }
  };
  const clients = [
    ...Array.from({ length: RENDER_CLIENTS }, (_, n) => client(n, 'render')),
    ...Array.from({ length: AI_CLIENTS }, (_, n) => client(n, 'ai')),
  ];
  return {
    async stop() {
      running = false;
      await Promise.all(clients);
      return outcomes;
    },
  };
}

/** Every answer that succeeded is the QR code of its own content. */
async function expectDecoded(outcomes: Outcome[]): Promise<void> {
  for (const o of outcomes.filter((x) => x.status === 200))
    expect((await decodeOne('png', o.bytes)).text).toBe(o.content);
}

/** A site's `qrfarm_engine_relays_total` and `qrfarm_engine_up` for one engine. */
async function engineSeries(site: Role, engine: Role): Promise<{ relays: number; up: number }> {
  const r = await request(`${site.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await r.body.text();
  const value = (metric: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${metric}{engine="${engine.url}"}`));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  return { relays: value('qrfarm_engine_relays_total'), up: value('qrfarm_engine_up') };
}

/** Relays sent to `engine` by both sites together. */
const relaysTo = async (engine: Role) =>
  (await Promise.all(sites.map((s) => engineSeries(s, engine)))).reduce((n, s) => n + s.relays, 0);

/** Waits until both sites have sent `engine` more relays than `since`; returns when that was seen. */
async function untilTakenBack(engine: Role, since: number): Promise<number> {
  const start = performance.now();
  while ((await relaysTo(engine)) <= since) {
    if (performance.now() - start > 30_000) throw new Error(`${engine.url} got no traffic back within 30 s`);
    await sleep(50);
  }
  return performance.now();
}

/** The site's qrfarm_http_requests_in_flight, read on `client`'s connection: the reading request included. */
async function siteInFlight(client: Client): Promise<number> {
  const r = await client.request({
    method: 'GET',
    path: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await r.body.text();
  const line = text.split('\n').find((l) => l.startsWith('qrfarm_http_requests_in_flight{role="site"}'));
  if (r.statusCode !== 200 || line === undefined)
    throw new Error(`no in-flight gauge in the site's metrics (${r.statusCode})`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

const failures = (outcomes: Outcome[]) => outcomes.filter((o) => o.status !== 200);

/** Server AI's credits: exactly one spent per design answered, none held, every failed call's released. */
async function expectCreditsExact(outcomes: Outcome[], before: { available: number }): Promise<void> {
  const ai = outcomes.filter((o) => o.kind === 'ai');
  const designed = ai.filter((o) => o.status === 200).length;
  expect(await accounts.balance(customer.id)).toEqual({ available: before.available - designed, reserved: 0 });
}

describe('failover across hosts (network namespaces)', () => {
  it('SIGKILL of one engine mid-load: only calls in flight on it fail, 503 engine_unavailable, credits back; the sites stop sending to it within 1 s and take it back', async () => {
    const [a, b] = engines as [Role, Role];
    const before = await accounts.balance(customer.id);
    const releases = async () =>
      (await accounts.ledger(customer.id, 100_000)).filter((e) => e.kind === 'release').length;
    const releasedBefore = await releases();
    const load = startLoad(sites);
    // Both engines take part before the kill.
    await untilTakenBack(a, 0);
    await untilTakenBack(b, 0);
    await sleep(1500);

    const killedAt = performance.now();
    a.process!.child.kill('SIGKILL');
    // When each site last sent to the dead engine: the counter's last change, sampled every 50 ms.
    let last = await relaysTo(a);
    let lastSendBy = killedAt;
    // How long the read that saw the last change took: the bound is no tighter than that read.
    let changeSeenIn = 0;
    while (performance.now() - killedAt < 1500) {
      await sleep(50);
      const asked = performance.now();
      const now = await relaysTo(a);
      if (now !== last) {
        lastSendBy = performance.now();
        changeSeenIn = lastSendBy - asked;
      }
      last = now;
    }
    const sentAfterOneSecond = last;
    await a.process!.exited;
    for (const site of sites) expect((await engineSeries(site, a)).up).toBe(0);
    await sleep(1500);
    expect(await relaysTo(a)).toBe(sentAfterOneSecond);

    await start(a);
    const readyAt = performance.now();
    const takenBackAt = await untilTakenBack(a, sentAfterOneSecond);
    await sleep(1000);
    const outcomes = await load.stop();

    const failed = failures(outcomes);
    const inFlightAtKill = outcomes.filter((o) => o.sentAt < killedAt && o.doneAt > killedAt);
    console.log(
      `SIGKILL: ${outcomes.length} calls, ${failed.length} failed of ${inFlightAtKill.length} in flight at the kill; ` +
        (lastSendBy === killedAt
          ? 'no send to the dead engine seen after the kill; '
          : `last send to the dead engine ≤ ${Math.round(lastSendBy - killedAt)} ms after the kill ` +
            `(seen by a read of the sites' metrics that took ${Math.round(changeSeenIn)} ms); `) +
        `traffic back ${Math.round(takenBackAt - readyAt)} ms after it was ready`,
    );
    for (const f of failed) {
      expect({ status: f.status, code: f.code }).toEqual({ status: 503, code: 'engine_unavailable' });
      // Sent before the sites stopped sending to the dead engine, answered after the kill.
      expect(f.sentAt).toBeLessThan(lastSendBy);
      expect(f.doneAt).toBeGreaterThan(killedAt);
    }
    expect(failed.length).toBeLessThanOrEqual(inFlightAtKill.length);
    expect(failed.filter((f) => f.sentAt > killedAt + 1000)).toEqual([]);
    expect(lastSendBy - killedAt, `the read that saw the last send took ${Math.round(changeSeenIn)} ms`).toBeLessThan(
      1000,
    );
    expect(outcomes.filter((o) => o.sentAt > takenBackAt && o.status === 200).length).toBeGreaterThan(0);

    await expectCreditsExact(outcomes, before);
    // Each failed server-AI call gave its credit back, in the ledger too.
    expect((await releases()) - releasedBefore).toBe(failed.filter((o) => o.kind === 'ai').length);
    expect(groq.problems).toEqual([]);
    await expectDecoded(outcomes);
  }, 180_000);

  it('rolling restart under load (SIGTERM one engine, restart it, then the other): no call fails', async () => {
    const before = await accounts.balance(customer.id);
    const load = startLoad(sites);
    const drains: number[] = [];
    for (const engine of engines) {
      await untilTakenBack(engine, await relaysTo(engine));
      await sleep(1000);
      const signalled = performance.now();
      engine.process!.child.kill('SIGTERM');
      expect(await engine.process!.exited).toEqual({ code: 0, signal: null });
      drains.push(performance.now() - signalled);
      expect(engine.process!.output()).toMatch(/drained in \d+ ms/);
      const sent = await relaysTo(engine);
      await start(engine);
      await untilTakenBack(engine, sent);
    }
    await sleep(1000);
    const outcomes = await load.stop();
    console.log(
      `rolling restart: ${outcomes.length} calls, ${failures(outcomes).length} failed; drains ${drains.map((d) => `${Math.round(d)} ms`).join(', ')}`,
    );
    expect(failures(outcomes).map((o) => `${o.status} ${o.code}`)).toEqual([]);
    expect(outcomes.filter((o) => o.kind === 'ai').length).toBeGreaterThan(0);
    await expectCreditsExact(outcomes, before);
    await expectDecoded(outcomes);
  }, 240_000);

  it('SIGTERM of a site with calls accepted: not ready at once, no new connection, every call answered, exit 0', async () => {
    const site = sites[1]!;
    const before = await accounts.balance(customer.id);
    // The designs come when the test says: the server-AI calls are in flight at the signal, each holding a credit.
    let answerDesigns!: () => void;
    const designsMayCome = new Promise<void>((resolve) => (answerDesigns = resolve));
    groq.clearReplies();
    groq.reply({ ...success.openai(JSON.stringify(DESIGN)), until: designsMayCome });
    // A connection opened before the signal, to read the site's metrics and /readyz on while no new one is taken.
    const held = new Client(site.url, { keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
    try {
      const vendorCalls = groq.received.length;
      let answered = 0;
      const calls = [
        ...Array.from({ length: 6 }, (_, i) => callSite(site, 'ai', `https://failover.example/drain/ai/${i}`)),
        ...Array.from({ length: 12 }, (_, i) => callSite(site, 'render', `https://failover.example/drain/render/${i}`)),
      ].map((call) => call.finally(() => answered++));
      while (groq.received.length < vendorCalls + 6) await groq.nextRequest();
      // Every call accepted by the site before the signal: a connection still in the listening socket's
      // queue when the site closes it is refused, as it should be, and is no call in flight. Accepted: those
      // answered, plus those the site counts in flight (less the metrics request itself). `answered` is read
      // before the request, so a call answered meanwhile is counted in neither, never in both.
      for (;;) {
        const answeredBefore = answered;
        if (answeredBefore + (await siteInFlight(held)) - 1 >= calls.length) break;
      }
      const inFlightAtSignal = calls.length - answered;
      const signalled = performance.now();
      site.process!.child.kill('SIGTERM');
      const readyz = () =>
        held.request({ method: 'GET', path: '/readyz' }).catch((e) => {
          throw new Error(`GET /readyz on the connection held open: ${e.code}`);
        });
      let readiness = await readyz();
      while (readiness.statusCode === 200) {
        // Answers before the drain keep the connection open: a 200 never says Connection: close.
        expect(readiness.headers.connection).not.toBe('close');
        await readiness.body.dump();
        readiness = await readyz();
      }
      expect(readiness.statusCode).toBe(503);
      expect(readiness.headers.connection).toBe('close');
      expect(await readiness.body.json()).toMatchObject({
        success: false,
        status: 'not_ready',
        reason: expect.stringMatching(/^draining/),
      });
      const fresh = new Agent();
      const refused = await request(`${site.url}/healthz`, { dispatcher: fresh }).then(
        () => 'connected',
        (e: { code?: string }) => e.code,
      );
      expect(refused).toBe('ECONNREFUSED');
      await fresh.close();
      answerDesigns();
      const outcomes = await Promise.all(
        calls.map((c) =>
          c.catch((e) => {
            throw new Error(`a call accepted before the signal: ${e.code}`);
          }),
        ),
      );
      expect(await site.process!.exited).toEqual({ code: 0, signal: null });
      const drained = performance.now() - signalled;
      console.log(
        `site drain: ${outcomes.length} calls accepted, ${inFlightAtSignal} in flight at the signal, all answered; ` +
          `exited ${Math.round(drained)} ms after SIGTERM`,
      );
      expect(outcomes.map((o) => o.status)).toEqual(outcomes.map(() => 200));
      expect(groq.problems).toEqual([]);
      await expectCreditsExact(outcomes, before);
      await expectDecoded(outcomes);
    } finally {
      answerDesigns();
      groq.clearReplies();
      groq.reply({ ...success.openai(JSON.stringify(DESIGN)), delayMs: VENDOR_DELAY_MS });
      await held.destroy();
    }
  }, 120_000);
});
