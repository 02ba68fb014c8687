import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { CustomerLimiter, type LimitDecision, rateLimitedError } from '../../src/gateway/limits.js';
import { DEFAULT_RATE_LIMITS, type LimitClass } from '../../src/config.js';
import { GATEWAY_ROUTES } from '../../src/gateway/routes.js';
import { connectRedis } from '../../src/redis.js';
import {
  type CuttableLink,
  deleteKeys,
  redisPairFor,
  requireRedis,
  runPrefix,
  startCuttableLink,
  unreachableRedisUrl,
} from '../helpers/redis.js';

const LIMITS = { general: 7, generation: 5, ai: 3 };

/** `n` requests of one customer in one class, one after another. */
async function consumeMany(limiter: CustomerLimiter, customer: string, cls: LimitClass, n: number) {
  const out: LimitDecision[] = [];
  for (let i = 0; i < n; i++) out.push(await limiter.consume(customer, cls));
  return out;
}

const allowedCount = (ds: LimitDecision[]) => ds.filter((d) => d.allowed).length;

/** The seconds a `t=` or Retry-After value says, checked to lie within the window. */
function seconds(value: string | undefined, windowSec: number): number {
  const n = Number(value);
  expect(Number.isInteger(n)).toBe(true);
  expect(n).toBeGreaterThanOrEqual(1);
  expect(n).toBeLessThanOrEqual(windowSec);
  return n;
}

describe('the limit classes of the gateway routes', () => {
  it.each([
    ['POST /api/v1/qr/generate', 'generation'],
    ['POST /api/v1/qr/templates/:id', 'generation'],
    ['POST /api/v1/qr/ai/generate/server', 'ai'],
    ['GET /api/v1/qr/templates', 'general'],
    ['POST /api/v1/qr/content/:type', 'general'],
    ['GET /api/v1/qr/ai/providers', 'general'],
    ['GET /api/v1/ping', 'general'],
  ])('%s → %s', (route, cls) => {
    expect(GATEWAY_ROUTES.find((r) => `${r.method} ${r.path}` === route)?.limit).toBe(cls);
  });

  it('covers every gateway route', () => {
    expect(GATEWAY_ROUTES).toHaveLength(7);
  });

  it("defaults to the contract's 120 / 60 / 30 per minute", () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({ general: 120, generation: 60, ai: 30 });
  });
});

describe('in memory', () => {
  it('allows exactly the limit, then refuses with Retry-After; headers count down', async () => {
    const limiter = new CustomerLimiter({ limits: LIMITS });
    const ds = await consumeMany(limiter, 'cus_a', 'generation', 8);
    expect(ds.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(ds.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    for (const d of ds) expect(d.headers['RateLimit-Policy']).toBe('"generation";q=5;w=60');
    expect(ds[0]!.headers.RateLimit).toBe('"generation";r=4;t=60');
    const [, r, t] = /^"generation";r=(\d+);t=(\d+)$/.exec(ds[4]!.headers.RateLimit!)!;
    expect(r).toBe('0');
    seconds(t, 60);
    expect(ds[4]!.headers['Retry-After']).toBeUndefined();
    const refused = ds[5]!;
    expect(seconds(refused.headers['Retry-After'], 60)).toBe(refused.resetSec);
    expect(refused.headers.RateLimit).toBe(`"generation";r=0;t=${refused.resetSec}`);
  });

  it('each class and each customer has its own count', async () => {
    const limiter = new CustomerLimiter({ limits: LIMITS });
    expect(allowedCount(await consumeMany(limiter, 'cus_a', 'ai', 5))).toBe(3);
    expect(allowedCount(await consumeMany(limiter, 'cus_a', 'generation', 6))).toBe(5);
    expect(allowedCount(await consumeMany(limiter, 'cus_a', 'general', 9))).toBe(7);
    expect(allowedCount(await consumeMany(limiter, 'cus_b', 'ai', 5))).toBe(3);
    const d = await limiter.consume('cus_b', 'general');
    expect(d.headers).toEqual({ 'RateLimit-Policy': '"general";q=7;w=60', RateLimit: '"general";r=6;t=60' });
  });

  it('the refusal is 429 rate_limited in the envelope, carrying the headers', async () => {
    const limiter = new CustomerLimiter({ limits: LIMITS });
    const ds = await consumeMany(limiter, 'cus_a', 'ai', 4);
    const e = rateLimitedError(ds[3]!);
    expect([e.status, e.code]).toEqual([429, 'rate_limited']);
    expect(e.headers).toEqual(ds[3]!.headers);
    expect(e.headers['Retry-After']).toBeDefined();
    expect(e.toBody()).toMatchObject({ success: false, code: 'rate_limited' });
    expect(e.message).toMatch(/More than 3 ai requests in 60 s/);
  });

  it('the window resets: after it, the customer starts afresh', async () => {
    const limiter = new CustomerLimiter({ limits: LIMITS, windowSec: 1 });
    const ds = await consumeMany(limiter, 'cus_a', 'ai', 4);
    expect(ds.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(ds[3]!.headers['Retry-After']).toBe('1');
    await sleep(1100);
    const again = await limiter.consume('cus_a', 'ai');
    expect([again.allowed, again.headers.RateLimit]).toEqual([true, '"ai";r=2;t=1']);
  });
});

describe('on the real Redis, shared by two limiter instances', () => {
  const prefix = runPrefix('limits');
  const redis = redisPairFor(prefix);
  const log: string[] = [];
  const shared = (over: Partial<ConstructorParameters<typeof CustomerLimiter>[0]> = {}) => [
    new CustomerLimiter({ limits: LIMITS, redis: redis.a, keyPrefix: prefix, log: (l) => log.push(l), ...over }),
    new CustomerLimiter({ limits: LIMITS, redis: redis.b, keyPrefix: prefix, log: (l) => log.push(l), ...over }),
  ];

  it('exact at the boundary: of 2N concurrent requests over both instances, exactly N pass', async () => {
    for (const [cls, n] of [
      ['generation', 60],
      ['ai', 30],
      ['general', 120],
    ] as const) {
      const [a, b] = shared({ limits: DEFAULT_RATE_LIMITS });
      const ds = await Promise.all(
        Array.from({ length: 2 * n }, (_, i) => (i % 2 ? a! : b!).consume('cus_boundary', cls)),
      );
      expect(allowedCount(ds)).toBe(n);
      // Every remaining count from n−1 down to 0 was handed out once: one shared counter, no lost update.
      expect(
        ds
          .filter((d) => d.allowed)
          .map((d) => d.remaining)
          .sort((x, y) => x - y),
      ).toEqual(Array.from({ length: n }, (_, i) => i));
      for (const d of ds.filter((d) => !d.allowed)) {
        expect(d.headers['RateLimit-Policy']).toBe(`"${cls}";q=${n};w=60`);
        expect(d.headers.RateLimit).toBe(`"${cls}";r=0;t=${d.resetSec}`);
        seconds(d.headers['Retry-After'], 60);
      }
    }
    expect(log).toEqual([]);
  });

  it('one count for both instances: what one spends, the other sees', async () => {
    const [a, b] = shared();
    expect((await a!.consume('cus_seen', 'ai')).headers.RateLimit).toBe('"ai";r=2;t=60');
    expect((await b!.consume('cus_seen', 'ai')).remaining).toBe(1);
    expect((await a!.consume('cus_seen', 'ai')).remaining).toBe(0);
    expect((await b!.consume('cus_seen', 'ai')).allowed).toBe(false);
    const keys = await redis.a.keys(`${prefix}*cus_seen`);
    expect(keys).toEqual([`${prefix}ai:cus_seen`]);
  });

  it('the window resets in Redis too', async () => {
    const [a, b] = shared({ windowSec: 1 });
    const ds = [await a!.consume('cus_reset', 'ai'), await b!.consume('cus_reset', 'ai')];
    ds.push(await a!.consume('cus_reset', 'ai'), await b!.consume('cus_reset', 'ai'));
    expect(ds.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(ds[3]!.headers['Retry-After']).toBe('1');
    await sleep(1100);
    const again = await b!.consume('cus_reset', 'ai');
    expect([again.allowed, again.remaining]).toEqual([true, 2]);
  });
});

describe('Redis away: each instance limits on its own (fail open), and says so once', () => {
  beforeAll(requireRedis);

  it('unreachable from the start: falls back to memory and still limits per instance', async () => {
    const redis = await connectRedis(await unreachableRedisUrl());
    try {
      const log: string[] = [];
      const opts = { limits: LIMITS, redis, keyPrefix: runPrefix('limits-down'), log: (l: string) => log.push(l) };
      const a = new CustomerLimiter(opts);
      const b = new CustomerLimiter(opts);
      const da = await consumeMany(a, 'cus_down', 'generation', 7);
      const db = await consumeMany(b, 'cus_down', 'generation', 7);
      expect(da.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
      expect(db.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
      expect(da[5]!.headers['Retry-After']).toBeDefined();
      // One line per instance for the whole outage, however many requests it saw.
      expect(log).toHaveLength(2);
      for (const line of log) expect(line).toMatch(/^Redis unreachable \(.+\): rate limits are kept per instance/);
    } finally {
      redis.disconnect();
    }
  });

  it('lost mid-run and back: memory meanwhile, the shared count afterwards, one line each way', async () => {
    const link: CuttableLink = await startCuttableLink();
    const prefix = runPrefix('limits-outage');
    const redis = await connectRedis(link.url);
    const log: string[] = [];
    try {
      expect(redis.status).toBe('ready');
      const limiter = new CustomerLimiter({ limits: LIMITS, redis, keyPrefix: prefix, log: (l) => log.push(l) });
      expect((await consumeMany(limiter, 'cus_o', 'generation', 2)).map((d) => d.remaining)).toEqual([4, 3]);

      link.cut();
      const during = await consumeMany(limiter, 'cus_o', 'generation', 7);
      // This instance's own window starts empty: all five of the limit, then refusals.
      expect(during.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatch(/^Redis unreachable/);

      link.restore();
      for (let i = 0; i < 100 && redis.status !== 'ready'; i++) await sleep(50);
      expect(redis.status).toBe('ready');
      const after = await limiter.consume('cus_o', 'generation');
      // Redis kept its count of 2 through the outage: this is the third.
      expect([after.allowed, after.remaining]).toEqual([true, 2]);
      expect(log).toHaveLength(2);
      expect(log[1]).toBe('Redis answers again: rate limits are shared again.');
    } finally {
      if (redis.status === 'ready') await deleteKeys(redis, prefix);
      redis.disconnect();
      await link.close();
    }
  });
});
