/**
 * Two consumer sites (QR_ROLE=site) sharing the real PostgreSQL and the real Redis, relaying to one engine
 * (QR_ROLE=engine), all over real HTTP: credits exact under 1,000 concurrent server-AI calls, a revoked
 * key refused by both sites within a second, and rate limits exact at the boundary across both. PGlite
 * has one writer by design, so this suite is PostgreSQL's alone; both servers are required (it fails, never
 * skips, without them).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeVendor, startFakeVendor, success } from '../ai/fake-vendor.js';
import type { Answer } from '../helpers/answers.js';
import {
  type Consumer,
  type ConsumerStore,
  call,
  consumerConfig,
  consumerStore,
  type Env,
  eventually,
  GROQ_KEY,
  groqEnv,
  refusal,
  startConsumer,
  startEngineRole,
} from '../helpers/consumer.js';
import { decodeOne } from '../helpers/decode.js';
import {
  type CuttableLink,
  deleteKeys,
  requireRedis,
  runPrefix,
  startCuttableLink,
  TEST_REDIS_URL,
} from '../helpers/redis.js';
import { startLink } from '../helpers/tcp.js';

const CONTENT = 'https://tea.example.com/menu?table=12';
const DESIGN = {
  config: { primaryColor: '#1b3a4b', backgroundColor: '#f7f3e8', moduleShape: 'rounded', eccLevel: 'Q' },
  explanation: 'Deep teal on cream.',
};
/** A cheap render: the engine's work per call stays small next to the site's. */
const BRIEF = { content: CONTENT, prompt: 'calm teal', outputWidth: 128, fileFormat: 'png' };
const AI_PATH = '/api/v1/qr/ai/generate/server';
const LIMITS = { general: 1000, generation: 5, ai: 2000 };

let store: ConsumerStore;
let groq: FakeVendor;
let engine: { url: string; close(): Promise<void> };
let a: Consumer;
let b: Consumer;
/** The sites reach Redis through it, so a test can take Redis away from them. */
let redisLink: CuttableLink;
const prefix = runPrefix('consumer-instances');

beforeAll(async () => {
  await requireRedis();
  store = await consumerStore('postgres');
  groq = await startFakeVendor('openai', GROQ_KEY);
  redisLink = await startCuttableLink();
  const shared: Env = {
    ...store.env,
    REDIS_URL: TEST_REDIS_URL,
    QR_REDIS_PREFIX: prefix,
    QR_LIMIT_GENERAL: String(LIMITS.general),
    QR_LIMIT_GENERATION: String(LIMITS.generation),
    QR_LIMIT_AI: String(LIMITS.ai),
  };
  // Enough queue for every call of the big test at once: a SERVER_BUSY would give a credit back.
  engine = await startEngineRole(await consumerConfig({ ...shared, ...groqEnv(groq), QR_MAX_QUEUE: '4096' }));
  const site = async () =>
    startConsumer(
      await consumerConfig({ ...shared, REDIS_URL: redisLink.url, QR_ROLE: 'site', QR_ENGINE_URL: engine.url }),
    );
  a = await site();
  b = await site();
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await engine?.close();
  await redisLink?.close();
  await groq?.close();
  await store?.close();
  const redis = new Redis(TEST_REDIS_URL);
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

beforeEach(() => {
  groq.clearReplies();
  groq.reply(success.openai(JSON.stringify(DESIGN)));
});

const statusCounts = (answers: Answer[]) =>
  answers.reduce<Record<string, number>>((n, x) => {
    const k = `${x.status} ${x.body?.code ?? ''}`.trim();
    n[k] = (n[k] ?? 0) + 1;
    return n;
  }, {});

describe('two sites on one PostgreSQL and one Redis', () => {
  it('a key issued through one site is served by both', async () => {
    const ora = await a.customer(1);
    for (const site of [a, b]) expect((await call(site.siteUrl, '/api/v1/ping', { key: ora.key })).status).toBe(200);
  });

  it('a revoked key is refused by both sites within 1 s, whichever revoked it (Redis pub/sub)', async () => {
    for (const [revoking, other] of [
      [a, b],
      [b, a],
    ] as const) {
      // Both caches trust the feed, so without it the key would stay cached for 10 s.
      await eventually(async () => a.accounts.keyRevocationFeed() === 'listening', 5000);
      await eventually(async () => b.accounts.keyRevocationFeed() === 'listening', 5000);
      const pat = await a.customer(1);
      for (const site of [a, b]) expect((await call(site.siteUrl, '/api/v1/ping', { key: pat.key })).status).toBe(200);
      await revoking.accounts.revokeKey(pat.keyId);
      const here = await call(revoking.siteUrl, '/api/v1/ping', { key: pat.key });
      expect(refusal(here)).toEqual({ status: 401, success: false, code: 'invalid_api_key' });
      const took = await eventually(async () => {
        const there = await call(other.siteUrl, '/api/v1/ping', { key: pat.key });
        return there.status === 401 && there.body.code === 'invalid_api_key';
      }, 1000);
      expect(took).toBeLessThan(1000);
    }
  });

  it('rate limits are exact at the boundary across both: 10 at once against 5 → five 200, five 429', async () => {
    const quin = await a.customer(1);
    const body = { content: CONTENT, responseType: 'binary', outputWidth: 200 };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call((i % 2 === 0 ? a : b).siteUrl, '/api/v1/qr/generate', { key: quin.key, body }),
      ),
    );
    const served = answers.filter((x) => x.status === 200);
    const limited = answers.filter((x) => x.status === 429);
    expect(served).toHaveLength(5);
    expect(limited).toHaveLength(5);
    const policy = `"generation";q=${LIMITS.generation};w=60`;
    for (const x of answers) expect(x.headers.get('ratelimit-policy')).toBe(policy);
    // Each served request saw its own place in one shared count.
    const remaining = served.map((x) => Number(/^"generation";r=(\d+);t=\d+$/.exec(x.headers.get('ratelimit')!)![1]));
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4]);
    for (const x of served) expect((await decodeOne('png', x.bytes)).text).toBe(CONTENT);
    for (const x of limited) {
      expect(refusal(x)).toEqual({ status: 429, success: false, code: 'rate_limited' });
      const retryAfter = Number(x.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(x.headers.get('ratelimit')).toBe(`"generation";r=0;t=${retryAfter}`);
    }
    // The next one is refused on either site; another class is counted apart and still served.
    for (const site of [a, b]) {
      expect((await call(site.siteUrl, '/api/v1/qr/generate', { key: quin.key, body })).status).toBe(429);
      const ping = await call(site.siteUrl, '/api/v1/ping', { key: quin.key });
      expect(ping.status).toBe(200);
      expect(ping.headers.get('ratelimit')).toMatch(/^"general";r=\d+;t=\d+$/);
    }
  });

  it('1,000 concurrent server-AI calls against 500 credits: exactly 500 designs and 500 out_of_api_credits', async () => {
    const rex = await a.customer(500);
    // Another customer calling meanwhile is served as usual: one customer's burst does not take the store.
    const neighbour = await b.customer(5);
    const vendorCalls = groq.received.length;
    const burst = Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        call((i % 2 === 0 ? a : b).siteUrl, AI_PATH, { key: rex.key, body: BRIEF }),
      ),
    );
    const meanwhile = Promise.all(
      [a, b].map((site) => call(site.siteUrl, AI_PATH, { key: neighbour.key, body: BRIEF })),
    );
    const [answers, theirs] = await Promise.all([burst, meanwhile]);
    expect(statusCounts(answers)).toEqual({ 200: 500, '402 out_of_api_credits': 500 });
    expect(statusCounts(theirs)).toEqual({ 200: 2 });
    expect(await a.accounts.balance(neighbour.id)).toEqual({ available: 3, reserved: 0 });
    // Credits are held before the LLM is asked: the refused calls never reached it.
    expect(groq.received.length - vendorCalls).toBe(502);

    const served = answers.filter((x) => x.status === 200);
    const left = served.map((x) => x.body.creditsRemaining as number);
    for (const n of left) expect(n >= 0 && n < 500).toBe(true);
    // The last commit comes after the last reservation, when nothing was left.
    expect(Math.min(...left)).toBe(0);
    const files = new Set([...served, ...theirs].map((x) => x.body.qrBase64 as string));
    for (const f of files)
      expect((await decodeOne('png', new Uint8Array(Buffer.from(f, 'base64')))).text).toBe(CONTENT);

    for (const site of [a, b]) expect(await site.accounts.balance(rex.id)).toEqual({ available: 0, reserved: 0 });
    const ledger = await a.accounts.ledger(rex.id, 5000);
    const ofKind = (kind: string) => ledger.filter((e) => e.kind === kind);
    expect(ledger.length).toBe(1001);
    expect(ofKind('grant')).toHaveLength(1);
    expect(ofKind('reserve')).toHaveLength(500);
    expect(ofKind('commit')).toHaveLength(500);
    expect(new Set(ofKind('commit').map((e) => e.reservationId))).toEqual(
      new Set(ofKind('reserve').map((e) => e.reservationId)),
    );
    // The ledger sums to the balance: nothing remaining, nothing held.
    expect(ledger.reduce((s, e) => s + e.remainingChange, 0)).toBe(0);
    expect(ledger.reduce((s, e) => s + e.heldChange, 0)).toBe(0);
    const [pack] = await a.accounts.listPacks(rex.id);
    expect(pack).toMatchObject({ credits: 500, remaining: 0 });
  }, 300_000);
});

describe('when PostgreSQL or Redis goes away', () => {
  /** A third site reaching PostgreSQL through a link the test can cut. */
  async function siteBehindLink() {
    const url = new URL(store.env.DATABASE_URL!);
    const link = await startLink(Number(url.port || 5432), url.hostname);
    url.host = `127.0.0.1:${link.port}`;
    const site = await startConsumer(
      await consumerConfig({
        ...store.env,
        DATABASE_URL: url.href,
        QR_ROLE: 'site',
        QR_ENGINE_URL: engine.url,
        QR_LIMIT_AI: String(LIMITS.ai),
      }),
    );
    return { site, link };
  }

  it('PostgreSQL unreachable: 503 store_unavailable in the envelope, nothing written; served again once back', async () => {
    const { site, link } = await siteBehindLink();
    try {
      const uma = await a.customer(5);
      // Vic's key and pack have never been read through this site, so nothing about them is cached.
      const vic = await a.customer(5);
      expect((await call(site.siteUrl, '/api/v1/ping', { key: uma.key })).status).toBe(200);
      link.cut();
      const vendorCalls = groq.received.length;
      for (const [target, body, key] of [
        ['/api/v1/ping', undefined, vic.key],
        [AI_PATH, BRIEF, uma.key],
      ] as const) {
        const x = await call(site.siteUrl, target, { key, body });
        expect(refusal(x)).toEqual({ status: 503, success: false, code: 'store_unavailable' });
        expect(x.headers.get('retry-after')).toBe('1');
      }
      expect(groq.received.length).toBe(vendorCalls);
      expect(await a.accounts.balance(uma.id)).toEqual({ available: 5, reserved: 0 });
      link.restore();
      await eventually(async () => (await call(site.siteUrl, '/api/v1/ping', { key: uma.key })).status === 200, 10_000);
      const ai = await call(site.siteUrl, AI_PATH, { key: uma.key, body: BRIEF });
      expect(ai.body.creditsRemaining).toBe(4);
      expect((await decodeOne('png', new Uint8Array(Buffer.from(ai.body.qrBase64, 'base64')))).text).toBe(CONTENT);
    } finally {
      await site.close();
      await link.close();
    }
  });

  it('PostgreSQL lost during the design: 503, the credit never spent, and the sweeper gives it back', async () => {
    const { site, link } = await siteBehindLink();
    try {
      const val = await a.customer(5);
      groq.clearReplies();
      groq.reply({ ...success.openai(JSON.stringify(DESIGN)), delayMs: 500 });
      const pending = call(site.siteUrl, AI_PATH, { key: val.key, body: BRIEF });
      await groq.nextRequest();
      link.cut();
      const x = await pending;
      expect(refusal(x)).toEqual({ status: 503, success: false, code: 'store_unavailable' });
      expect(x.headers.get('retry-after')).toBe('1');
      // The hold could not be settled either: it stays until it expires, and is then released.
      expect(await a.accounts.balance(val.id)).toEqual({ available: 4, reserved: 1 });
      const afterExpiry = new Date(Date.now() + 10 * 60_000);
      expect(await b.accounts.sweepExpiredReservations(afterExpiry)).toBeGreaterThanOrEqual(1);
      expect(await a.accounts.balance(val.id)).toEqual({ available: 5, reserved: 0 });
      const kinds = (await a.accounts.ledger(val.id)).map((e) => e.kind).reverse();
      expect(kinds).toEqual(['grant', 'reserve', 'expire']);
    } finally {
      await site.close();
      await link.close();
    }
  });

  it('Redis unreachable: both sites keep serving (limits per instance), a revocation still lands within 1 s', async () => {
    redisLink.cut();
    try {
      await eventually(async () => a.accounts.keyRevocationFeed() === 'down', 5000);
      await eventually(async () => b.accounts.keyRevocationFeed() === 'down', 5000);
      const wes = await a.customer(1);
      for (const site of [a, b]) {
        const ping = await call(site.siteUrl, '/api/v1/ping', { key: wes.key });
        expect(ping.status).toBe(200);
        expect(ping.headers.get('ratelimit')).toMatch(/^"general";r=\d+;t=\d+$/);
        const png = await call(site.siteUrl, '/api/v1/qr/generate', {
          key: wes.key,
          body: { content: CONTENT, responseType: 'binary' },
        });
        expect((await decodeOne('png', png.bytes)).text).toBe(CONTENT);
      }
      await a.accounts.revokeKey(wes.keyId);
      expect((await call(a.siteUrl, '/api/v1/ping', { key: wes.key })).status).toBe(401);
      // Without the feed, b keeps a verified key for 1 s at most.
      const took = await eventually(
        async () => (await call(b.siteUrl, '/api/v1/ping', { key: wes.key })).status === 401,
        1000,
      );
      expect(took).toBeLessThan(1000);
    } finally {
      redisLink.restore();
    }
    await eventually(async () => a.accounts.keyRevocationFeed() === 'listening', 10_000);
    await eventually(async () => b.accounts.keyRevocationFeed() === 'listening', 10_000);
  });
});
