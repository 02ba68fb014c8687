/**
 * Failed attempts counted per key (src/gateway/limits.ts, FailureThrottle): growing delays after the free
 * failures, the window's cap, forgetting a key; in memory, on the real Redis shared by two instances, and
 * with Redis away (per-instance counts).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialThrottle, type FailurePolicy, FailureThrottle } from '../../src/gateway/failure-throttle.js';
import { connectRedis } from '../../src/redis.js';
import { redisPairFor, runPrefix, unreachableRedisUrl } from '../helpers/redis.js';

const POLICIES: Record<'slow' | 'capped', FailurePolicy> = {
  slow: { limit: 100, windowSec: 900, backoff: { free: 2, baseSec: 1, maxSec: 30 } },
  capped: { limit: 3, windowSec: 60 },
};

type Options = ConstructorParameters<typeof FailureThrottle<'slow' | 'capped'>>[0];
const throttles = (over: Partial<Options>) => [
  new FailureThrottle({ policies: POLICIES, ...over }),
  new FailureThrottle({ policies: POLICIES, ...over }),
];

/** What every store must do; `a` and `b` share their counts when Redis is there. */
function behaves(make: () => FailureThrottle<'slow' | 'capped'>[], shared: boolean) {
  it('the free failures cost nothing; each after locks the key twice as long, to the maximum', async () => {
    const [a, b] = make();
    const key = `k-${Math.random()}`;
    expect(await a!.check(key, 'slow')).toBeUndefined();
    const locks: number[] = [];
    for (let i = 0; i < 9; i++) locks.push((await (i % 2 ? b! : a!).fail(key, 'slow')).lockSec);
    expect(locks).toEqual(shared ? [0, 0, 1, 2, 4, 8, 16, 30, 30] : [0, 0, 0, 0, 1, 1, 2, 2, 4]);
    const wait = await a!.check(key, 'slow');
    expect(wait).toBeGreaterThanOrEqual(shared ? 29 : 3);
    expect(await a!.check('another key', 'slow')).toBeUndefined();
    // Forgotten: no count, no lock.
    await a!.clear(key, 'slow');
    expect(await a!.check(key, 'slow')).toBeUndefined();
    expect(await a!.failures(key, 'slow')).toBe(0);
  });

  it('`free` overrides the policy: from the first failure on', async () => {
    const [a] = make();
    const key = `f-${Math.random()}`;
    expect((await a!.fail(key, 'slow', 0)).lockSec).toBe(1);
    expect(await a!.check(key, 'slow')).toBe(1);
  });

  it('without backoff: past the limit the key waits for the window', async () => {
    const [a, b] = make();
    const key = `c-${Math.random()}`;
    for (let i = 0; i < 3; i++) {
      expect(await a!.check(key, 'capped')).toBeUndefined();
      await a!.fail(key, 'capped');
    }
    const wait = await a!.check(key, 'capped');
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(wait).toBeLessThanOrEqual(60);
    if (shared) expect(await b!.check(key, 'capped')).toBe(wait);
    else expect(await b!.check(key, 'capped')).toBeUndefined();
  });
}

describe('in memory (each instance its own counts)', () => {
  behaves(() => throttles({}), false);

  const WRONG = new Error('wrong');
  const isWrong = (e: unknown) => e === WRONG;
  /** A lookup that answers on a later turn of the event loop, as a store does; counts its runs. */
  const lookups = { runs: 0 };
  const lookup = (valid: boolean) => async () => {
    lookups.runs++;
    await new Promise((resolve) => setImmediate(resolve));
    if (!valid) throw WRONG;
    return 'owner';
  };
  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e === WRONG ? 'wrong' : (e as { code: string }).code),
    );

  it('CredentialThrottle: past the limit, 429 rate_limited with Retry-After, per address as keyOf groups them', async () => {
    const t = new CredentialThrottle(2, { keyOf: (a) => a.split('.').slice(0, 3).join('.') });
    expect(await outcome(t.check('203.0.113.1', lookup(false), isWrong))).toBe('wrong');
    expect(await outcome(t.check('203.0.113.2', lookup(true), isWrong))).toBe('ok');
    expect(await outcome(t.check('203.0.113.3', lookup(false), isWrong))).toBe('wrong');
    const refused = await t.check('203.0.113.4', lookup(true), isWrong).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number((refused as { headers: Record<string, string> }).headers['Retry-After'])).toBeGreaterThan(0);
    expect(await outcome(t.check('198.51.100.1', lookup(true), isWrong))).toBe('ok');
  });

  it('a burst of wrong keys sent at once gets the limit’s lookups, not one each; valid ones at once all pass', async () => {
    const t = new CredentialThrottle(5);
    lookups.runs = 0;
    const burst = await Promise.all(Array.from({ length: 200 }, () => outcome(t.check('a', lookup(false), isWrong))));
    expect(lookups.runs).toBe(5);
    expect(burst.filter((o) => o === 'wrong')).toHaveLength(5);
    expect(burst.filter((o) => o === 'rate_limited')).toHaveLength(195);
    const valid = await Promise.all(Array.from({ length: 100 }, () => outcome(t.check('b', lookup(true), isWrong))));
    expect(valid.every((o) => o === 'ok')).toBe(true);
  });
});

describe('on the real Redis, shared by two instances', () => {
  const prefix = runPrefix('failures');
  const redis = redisPairFor(prefix);

  behaves(
    () => [
      new FailureThrottle({ policies: POLICIES, redis: redis.a, keyPrefix: prefix }),
      new FailureThrottle({ policies: POLICIES, redis: redis.b, keyPrefix: prefix }),
    ],
    true,
  );
});

describe('Redis away: each instance counts on its own, and says so once', () => {
  let redis: Redis;
  const log: string[] = [];
  beforeAll(async () => {
    redis = await connectRedis(await unreachableRedisUrl());
  });
  afterAll(() => redis?.disconnect());

  behaves(() => throttles({ redis, keyPrefix: runPrefix('failures-down'), log: (l) => log.push(l) }), false);

  it('logged once per instance', () => {
    expect(log.length).toBeGreaterThan(0);
    for (const line of log) expect(line).toMatch(/^Redis unreachable \(.+\): rate limits are kept per instance/);
  });
});
