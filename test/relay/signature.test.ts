/**
 * The relay signature between the consumer site and the engine: every signed part, the time window both
 * ways, replays (in this process and through the real Redis shared by two verifiers), secret rotation.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { connectRedis } from '../../src/redis.js';
import { InProcessReplayMemory, RedisReplayMemory, type ReplayMemory } from '../../src/relay/replay.js';
import {
  bodySha256,
  isRelayed,
  RELAY_HEADERS,
  signRelay,
  verifyRelay,
  type RelayedRequest,
  type VerifyRelayOptions,
} from '../../src/relay/signature.js';
import { deleteKeys, requireRedis, runPrefix, startCuttableLink, TEST_REDIS_URL } from '../helpers/redis.js';

const SECRET = 'relay-secret-current-0123456789abcdef0123456789';
const PREVIOUS = 'relay-secret-previous-fedcba9876543210fedcba98';
const UNKNOWN = 'relay-secret-nobody-knows-00000000000000000000';
/** A fixed clock: 2026-01-15T10:00:00.250Z. */
const NOW = Date.UTC(2026, 0, 15, 10, 0, 0, 250);

const REQUEST: RelayedRequest = {
  method: 'POST',
  pathWithQuery: '/api/qr/generate?trace=1',
  body: JSON.stringify({ content: 'https://example.com/ü', fileFormat: 'png' }),
  customerId: 'cus_0f3a9c2e-5b7d-4e1a-9c8b-2d6f1e0a7b3c',
};

let memory: ReplayMemory;
beforeEach(() => {
  memory = new InProcessReplayMemory();
});

/** Verifies `request` as received with `headers`, at `now`, against `secrets`. */
const verify = (headers: Record<string, string>, over: Partial<VerifyRelayOptions> = {}) =>
  verifyRelay({ secrets: [SECRET], ...REQUEST, headers, replay: memory, now: NOW, ...over });

/** The verification is refused with `code` (401), and a message matching `message`. */
async function expectRefused(p: Promise<unknown>, code: string, message: RegExp = /./): Promise<void> {
  await expect(p).rejects.toBeInstanceOf(ApiError);
  await expect(p).rejects.toMatchObject({ code, status: 401, message: expect.stringMatching(message) });
}

describe('signRelay → verifyRelay', () => {
  it('round trip: the headers name the customer, the verifier returns it', async () => {
    const headers = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
    expect(Object.keys(headers).sort()).toEqual(Object.values(RELAY_HEADERS).sort());
    expect(headers[RELAY_HEADERS.timestamp]).toBe(String(Math.floor(NOW / 1000)));
    expect(headers[RELAY_HEADERS.customer]).toBe(REQUEST.customerId);
    expect(headers[RELAY_HEADERS.signature]).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(isRelayed(headers)).toBe(true);
    expect(await verify(headers)).toEqual({ customerId: REQUEST.customerId });
  });

  it('the body may be bytes or text: the same bytes verify either way', async () => {
    const bytes = new TextEncoder().encode(REQUEST.body as string);
    const headers = signRelay({ secret: SECRET, ...REQUEST, body: bytes, now: NOW });
    expect(await verify(headers)).toEqual({ customerId: REQUEST.customerId });
  });

  it("the site may sign with the body's SHA-256 it has already: the engine hashes the bytes it receives", async () => {
    const { body, ...rest } = REQUEST;
    const headers = signRelay({ secret: SECRET, ...rest, bodySha256: bodySha256(body), now: NOW });
    expect(await verify(headers)).toEqual({ customerId: REQUEST.customerId });
    const other = signRelay({ secret: SECRET, ...rest, bodySha256: bodySha256('{}'), now: NOW });
    await expectRefused(verify(other), 'INVALID_INTERNAL_SIGNATURE', /does not match/);
  });

  it('two identical requests signed in the same second are both accepted (each has its own nonce)', async () => {
    const a = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
    const b = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
    expect(a[RELAY_HEADERS.nonce]).not.toBe(b[RELAY_HEADERS.nonce]);
    await verify(a);
    expect(await verify(b)).toEqual({ customerId: REQUEST.customerId });
  });

  it('a request without relay headers is not a relay', () => {
    expect(isRelayed({ 'content-type': 'application/json', 'x-rapidapi-proxy-secret': 's' })).toBe(false);
    expect(isRelayed({ [RELAY_HEADERS.customer]: 'cus_1' })).toBe(true);
  });
});

describe('tampering with any signed part is refused', () => {
  const headers = () => signRelay({ secret: SECRET, ...REQUEST, now: NOW });
  const cases: [string, Partial<VerifyRelayOptions>][] = [
    ['method', { method: 'PUT' }],
    ['path', { pathWithQuery: '/api/qr/templates/wifi?trace=1' }],
    ['query', { pathWithQuery: '/api/qr/generate?trace=2' }],
    ['query removed', { pathWithQuery: '/api/qr/generate' }],
    ['body', { body: (REQUEST.body as string).replace('example.com', 'evil.example') }],
    ['body emptied', { body: '' }],
  ];
  for (const [part, change] of cases) {
    it(`${part}`, async () => {
      await expectRefused(verify(headers(), change), 'INVALID_INTERNAL_SIGNATURE', /does not match/);
    });
  }

  it('customer', async () => {
    const h = { ...headers(), [RELAY_HEADERS.customer]: 'cus_someone-else' };
    await expectRefused(verify(h), 'INVALID_INTERNAL_SIGNATURE', /does not match/);
  });

  it('timestamp (moved by one second, still inside the window)', async () => {
    const h = headers();
    h[RELAY_HEADERS.timestamp] = String(Number(h[RELAY_HEADERS.timestamp]) - 1);
    await expectRefused(verify(h), 'INVALID_INTERNAL_SIGNATURE', /does not match/);
  });

  it('nonce', async () => {
    const h = { ...headers(), [RELAY_HEADERS.nonce]: 'AAAAAAAAAAAAAAAAAAAAAA' };
    await expectRefused(verify(h), 'INVALID_INTERNAL_SIGNATURE', /does not match/);
  });

  it('signature (one hex digit changed)', async () => {
    const h = headers();
    const sig = h[RELAY_HEADERS.signature]!;
    h[RELAY_HEADERS.signature] = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    await expectRefused(verify(h), 'INVALID_INTERNAL_SIGNATURE', /does not match/);
  });

  it('missing or malformed headers', async () => {
    const good = headers();
    const without = (name: string) => Object.fromEntries(Object.entries(good).filter(([k]) => k !== name));
    for (const name of Object.values(RELAY_HEADERS))
      await expectRefused(verify(without(name)), 'INVALID_INTERNAL_SIGNATURE', /missing or malformed/);
    for (const [name, value] of [
      [RELAY_HEADERS.timestamp, '1768471200.5'],
      [RELAY_HEADERS.timestamp, '-1768471200'],
      [RELAY_HEADERS.nonce, 'short'],
      [RELAY_HEADERS.customer, 'has space'],
      [RELAY_HEADERS.signature, 'v0=abcdef'],
      [RELAY_HEADERS.signature, good[RELAY_HEADERS.signature]!.replace('v1=', 'sha256=')],
    ] as const)
      await expectRefused(verify({ ...good, [name]: value }), 'INVALID_INTERNAL_SIGNATURE', /missing or malformed/);
  });
});

describe('the ±60 s window, both ways', () => {
  const signedAt = (offsetSec: number) => signRelay({ secret: SECRET, ...REQUEST, now: NOW + offsetSec * 1000 });

  for (const offset of [61, -61, 3600, -3600]) {
    it(`a timestamp ${offset > 0 ? 'ahead of' : 'behind'} the engine by ${Math.abs(offset)} s is INTERNAL_TS_EXPIRED`, async () => {
      await expectRefused(verify(signedAt(offset)), 'INTERNAL_TS_EXPIRED', new RegExp(`${-offset} s`));
    });
  }

  for (const offset of [59, -59, 60, -60]) {
    it(`${Math.abs(offset)} s ${offset > 0 ? 'ahead' : 'behind'} is accepted`, async () => {
      expect(await verify(signedAt(offset))).toEqual({ customerId: REQUEST.customerId });
    });
  }

  it('a wrong signature outside the window is INVALID_INTERNAL_SIGNATURE: only a signed request learns about the clock', async () => {
    const h = signRelay({ secret: UNKNOWN, ...REQUEST, now: NOW - 3600_000 });
    await expectRefused(verify(h), 'INVALID_INTERNAL_SIGNATURE');
  });
});

describe('rotation and several v1 values', () => {
  it('during a rotation the previous secret is accepted, an unknown one is not', async () => {
    const secrets = [SECRET, PREVIOUS];
    expect(await verify(signRelay({ secret: PREVIOUS, ...REQUEST, now: NOW }), { secrets })).toEqual({
      customerId: REQUEST.customerId,
    });
    expect(await verify(signRelay({ secret: SECRET, ...REQUEST, now: NOW }), { secrets })).toEqual({
      customerId: REQUEST.customerId,
    });
    await expectRefused(
      verify(signRelay({ secret: UNKNOWN, ...REQUEST, now: NOW }), { secrets }),
      'INVALID_INTERNAL_SIGNATURE',
      /does not match/,
    );
  });

  it('after the rotation the previous secret is refused', async () => {
    await expectRefused(
      verify(signRelay({ secret: PREVIOUS, ...REQUEST, now: NOW }), { secrets: [SECRET] }),
      'INVALID_INTERNAL_SIGNATURE',
    );
  });

  it('a signer with two secrets sends two v1 values; an engine knowing either accepts', async () => {
    const both = () => signRelay({ secret: [SECRET, PREVIOUS], ...REQUEST, now: NOW });
    expect(both()[RELAY_HEADERS.signature]).toMatch(/^v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(await verify(both(), { secrets: [SECRET] })).toEqual({ customerId: REQUEST.customerId });
    expect(await verify(both(), { secrets: [PREVIOUS] })).toEqual({ customerId: REQUEST.customerId });
    await expectRefused(verify(both(), { secrets: [UNKNOWN] }), 'INVALID_INTERNAL_SIGNATURE');
  });

  it('any matching value among several is enough; unknown versions are ignored; more than 4 values are refused', async () => {
    const h = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
    const good = h[RELAY_HEADERS.signature]!;
    const junk = `v1=${'ab'.repeat(32)}`;
    expect(await verify({ ...h, [RELAY_HEADERS.signature]: `${junk}, v2=whatever ,${good}` })).toEqual({
      customerId: REQUEST.customerId,
    });
    const h2 = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
    await expectRefused(
      verify({ ...h2, [RELAY_HEADERS.signature]: [junk, junk, junk, junk, h2[RELAY_HEADERS.signature]].join(',') }),
      'INVALID_INTERNAL_SIGNATURE',
      /missing or malformed/,
    );
  });

  it('with no secret configured, every relay is refused', async () => {
    await expectRefused(
      verify(signRelay({ secret: SECRET, ...REQUEST, now: NOW }), { secrets: [] }),
      'INVALID_INTERNAL_SIGNATURE',
      /accepts no relayed/,
    );
  });
});

describe('replays, in this process', () => {
  it('the same signed request a second time is refused, even 59 s later', async () => {
    const h = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
    await verify(h);
    await expectRefused(verify(h), 'INVALID_INTERNAL_SIGNATURE', /replayed/);
    await expectRefused(verify(h, { now: NOW + 59_000 }), 'INVALID_INTERNAL_SIGNATURE', /replayed/);
  });

  it('adding or reordering v1 values does not make a replay new', async () => {
    const h = signRelay({ secret: [SECRET, PREVIOUS], ...REQUEST, now: NOW });
    await verify(h);
    const [a, b] = h[RELAY_HEADERS.signature]!.split(',');
    await expectRefused(
      verify({ ...h, [RELAY_HEADERS.signature]: `${b},${a}` }),
      'INVALID_INTERNAL_SIGNATURE',
      /replayed/,
    );
    await expectRefused(verify({ ...h, [RELAY_HEADERS.signature]: a! }), 'INVALID_INTERNAL_SIGNATURE', /replayed/);
  });

  it('a refused request is not remembered: the genuine one still goes through afterwards', async () => {
    const h = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
    await expectRefused(verify(h, { body: 'tampered' }), 'INVALID_INTERNAL_SIGNATURE', /does not match/);
    await expectRefused(verify(h, { now: NOW - 61_000 }), 'INTERNAL_TS_EXPIRED');
    expect(await verify(h)).toEqual({ customerId: REQUEST.customerId });
  });
});

describe('InProcessReplayMemory', () => {
  it('forgets an entry once it expires, and only then', async () => {
    const m = new InProcessReplayMemory();
    expect(await m.firstSighting('a', 1000, 900)).toBe(true);
    expect(await m.firstSighting('b', 1100, 900)).toBe(true);
    expect(await m.firstSighting('a', 1000, 999)).toBe(false);
    expect(m.size).toBe(2);
    expect(await m.firstSighting('c', 1200, 1000)).toBe(true);
    expect(m.size).toBe(2); // a expired at 1000
    expect(await m.firstSighting('a', 1300, 1000)).toBe(true);
  });

  it('is bounded: full of live entries, it refuses with SERVER_BUSY rather than forget one early', async () => {
    const m = new InProcessReplayMemory(3);
    for (const id of ['a', 'b', 'c']) expect(await m.firstSighting(id, 2000, 1000)).toBe(true);
    await expect(m.firstSighting('d', 2000, 1000)).rejects.toMatchObject({
      code: 'SERVER_BUSY',
      status: 503,
      headers: { 'Retry-After': '1' },
    });
    expect(await m.firstSighting('a', 2000, 1500)).toBe(false);
    expect(await m.firstSighting('d', 2100, 2000)).toBe(true);
  });
});

describe('replays through Redis, shared by two verifiers', () => {
  const prefix = runPrefix('relay-seen');
  let redisA: Redis;
  let redisB: Redis;
  let engineA: RedisReplayMemory;
  let engineB: RedisReplayMemory;
  const log: string[] = [];

  beforeAll(async () => {
    await requireRedis();
    redisA = await connectRedis(TEST_REDIS_URL);
    redisB = await connectRedis(TEST_REDIS_URL);
    engineA = new RedisReplayMemory(redisA, { keyPrefix: prefix, log: (l) => log.push(l) });
    engineB = new RedisReplayMemory(redisB, { keyPrefix: prefix, log: (l) => log.push(l) });
  });
  afterAll(async () => {
    if (redisA) await deleteKeys(redisA, prefix);
    redisA?.disconnect();
    redisB?.disconnect();
  });

  it('a request accepted by one engine is refused as a replay by the other', async () => {
    const h = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
    expect(await verify(h, { replay: engineA })).toEqual({ customerId: REQUEST.customerId });
    await expectRefused(verify(h, { replay: engineB }), 'INVALID_INTERNAL_SIGNATURE', /replayed/);
    await expectRefused(verify(h, { replay: engineA }), 'INVALID_INTERNAL_SIGNATURE', /replayed/);
    expect(log).toEqual([]);
  });

  it('the entry lives in Redis only as long as the timestamp can be accepted', async () => {
    const h = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
    await verify(h, { replay: engineA, now: NOW + 30_000 });
    const keys = await redisA.keys(`${prefix}*`);
    const ttls = await Promise.all(keys.map((k) => redisA.ttl(k)));
    // Signed at NOW, verified 30 s later: acceptable for 31 more seconds (60 s window, whole seconds).
    expect(ttls).toContain(31);
    for (const ttl of ttls) expect(ttl).toBeGreaterThan(0);
  });

  it('concurrent copies of one request sent to both engines: exactly one is accepted', async () => {
    const h = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => verify(h, { replay: i % 2 ? engineA : engineB })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as ApiError).message).toMatch(/replayed/);
  });
});

describe('Redis lost: the engine falls back to its own memory, and says so once', () => {
  it('replays to the same engine stay refused while Redis is away; shared memory again once it is back', async () => {
    await requireRedis();
    const link = await startCuttableLink();
    const redis = await connectRedis(link.url);
    const prefix = runPrefix('relay-outage');
    const log: string[] = [];
    const engine = new RedisReplayMemory(redis, { keyPrefix: prefix, log: (l) => log.push(l) });
    try {
      link.cut();
      const h = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
      expect(await verify(h, { replay: engine })).toEqual({ customerId: REQUEST.customerId });
      await expectRefused(verify(h, { replay: engine }), 'INVALID_INTERNAL_SIGNATURE', /replayed/);
      expect(await verify(signRelay({ secret: SECRET, ...REQUEST, now: NOW }), { replay: engine })).toEqual({
        customerId: REQUEST.customerId,
      });
      expect(log).toHaveLength(1);
      expect(log[0]).toMatch(/^Redis unreachable \(.+\): relay signatures seen are kept per instance/);

      link.restore();
      for (let i = 0; i < 100 && redis.status !== 'ready'; i++) await sleep(50);
      const later = signRelay({ secret: SECRET, ...REQUEST, now: NOW });
      expect(await verify(later, { replay: engine })).toEqual({ customerId: REQUEST.customerId });
      expect(log[1]).toBe('Redis answers again: relay signatures seen are shared again.');
      expect(await redis.keys(`${prefix}*`)).toHaveLength(1);
    } finally {
      if (redis.status === 'ready') await deleteKeys(redis, prefix);
      redis.disconnect();
      await link.close();
    }
  });
});

describe('the request id and trace context in the relay (v2=, issue 29)', () => {
  const REQUEST_ID = 'req-7f3a.e2e:1';
  const TRACEPARENT = '00-4bf92f3577b34ca95c0d3cdf3a1b9a1e-00f067aa0ba902b7-01';
  const signed = () =>
    signRelay({ secret: SECRET, ...REQUEST, now: NOW, requestId: REQUEST_ID, traceparent: TRACEPARENT });

  it('sends the id and the traceparent, signed by a v2= value beside the v1= one', async () => {
    const headers = signed();
    expect(headers['x-request-id']).toBe(REQUEST_ID);
    expect(headers.traceparent).toBe(TRACEPARENT);
    expect(headers[RELAY_HEADERS.signature]).toMatch(/^v1=[0-9a-f]{64},v2=[0-9a-f]{64}$/);
    expect(await verify(headers)).toEqual({ customerId: REQUEST.customerId });
  });

  it('a changed id or traceparent is refused', async () => {
    await expectRefused(verify({ ...signed(), 'x-request-id': 'someone-else' }), 'INVALID_INTERNAL_SIGNATURE');
    await expectRefused(
      verify({ ...signed(), traceparent: TRACEPARENT.replace('01', '00') }),
      'INVALID_INTERNAL_SIGNATURE',
    );
    const { traceparent: _, ...dropped } = signed();
    await expectRefused(verify(dropped), 'INVALID_INTERNAL_SIGNATURE');
  });

  it('an engine from before reads the v1= value alone, and a site from before sends only v1=', async () => {
    const headers = signed();
    const v1Only = headers[RELAY_HEADERS.signature]!.split(',')[0]!;
    // What an engine before v2 checks: the v1= values (it skips others), over the string without the ids.
    expect(await verify({ ...headers, [RELAY_HEADERS.signature]: v1Only })).toEqual({
      customerId: REQUEST.customerId,
    });
    // A site before v2: no ids, no v2= value.
    expect(await verify(signRelay({ secret: SECRET, ...REQUEST, now: NOW }))).toEqual({
      customerId: REQUEST.customerId,
    });
  });

  it('during a rotation, one v1= and one v2= value per secret', async () => {
    const headers = signRelay({ secret: [SECRET, PREVIOUS], ...REQUEST, now: NOW, requestId: REQUEST_ID });
    expect(headers[RELAY_HEADERS.signature]!.split(',').map((v) => v.slice(0, 3))).toEqual([
      'v1=',
      'v1=',
      'v2=',
      'v2=',
    ]);
    expect(await verify(headers, { secrets: [PREVIOUS] })).toEqual({ customerId: REQUEST.customerId });
  });

  it('an id that is not sane is neither sent nor signed', () => {
    const headers = signRelay({ secret: SECRET, ...REQUEST, now: NOW, requestId: 'a b\nc' });
    expect(headers['x-request-id']).toBeUndefined();
    expect(headers[RELAY_HEADERS.signature]).toMatch(/^v1=[0-9a-f]{64}$/);
  });
});
