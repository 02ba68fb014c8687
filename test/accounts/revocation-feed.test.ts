import { createHmac } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Accounts, createAccounts, KEY_REVOKED_CHANNEL } from '../../src/accounts/index.js';
import {
  countingDb,
  DRIVERS,
  manualClock,
  openTestDatabase,
  type TestDatabase,
  TEST_PEPPER as PEPPER,
} from '../helpers/databases.js';
import { requireRedis, TEST_REDIS_URL as REDIS_URL } from '../helpers/redis.js';

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe.each(DRIVERS)('key revocation across instances by Redis pub/sub, on %s', (driver) => {
  let t: TestDatabase;
  let a: Accounts;
  let b: Accounts;
  let bQueries: () => number;
  let watcher: Redis;
  const published: string[] = [];

  beforeAll(async () => {
    await requireRedis();
    t = await openTestDatabase(driver);
    // A cache TTL of a minute: within the test, only the broadcast can make b forget a key.
    const options = { pepper: PEPPER, redisUrl: REDIS_URL, keyCacheTtlWithRedisMs: 60_000 };
    a = createAccounts(t.db, options);
    const counted = countingDb(t.anotherPool());
    bQueries = counted.count;
    b = createAccounts(counted.db, options);
    watcher = new Redis(REDIS_URL);
    await watcher.subscribe(KEY_REVOKED_CHANNEL);
    watcher.on('message', (_channel: string, message: string) => published.push(message));
    await until(() => a.keyRevocationFeed() === 'listening' && b.keyRevocationFeed() === 'listening', 'subscribed');
  });
  afterAll(async () => {
    watcher?.disconnect();
    await a?.close();
    await b?.close();
    await t?.close();
  });

  it('a key revoked on one instance is refused by the other within 1 s, though it holds it in cache', async () => {
    const customer = await a.createCustomer(`feed-${driver}@example.com`);
    const issued = await a.issueKey(customer.id);
    const kept = await a.issueKey(customer.id);
    expect(await b.verifyKey(issued.key)).toEqual({ customerId: customer.id, keyId: issued.id });
    expect(await b.verifyKey(kept.key)).not.toBeNull();
    const before = bQueries();
    expect(await b.verifyKey(issued.key)).not.toBeNull();
    expect(bQueries()).toBe(before); // b answers from its cache

    const revokedAt = Date.now();
    await a.revokeKey(issued.id);
    await until(async () => (await b.verifyKey(issued.key)) === null, 'b refuses the revoked key', 1000);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    expect(await a.verifyKey(issued.key)).toBeNull();
    expect(await b.verifyKey(kept.key)).toEqual({ customerId: customer.id, keyId: kept.id });

    // What went over Redis is the key's HMAC, never the key.
    const digest = createHmac('sha256', PEPPER).update(issued.key).digest('base64url');
    await until(() => published.includes(digest), 'the broadcast seen by a third subscriber');
    for (const message of published) expect(message).not.toContain(issued.key.slice(12, 24));
  });
});

describe('key revocation when Redis is unreachable', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the feed reports down, the cache falls back to 0.9 s, and the outage is logged once', async () => {
    const logs: string[] = [];
    const clock = manualClock();
    const offline = createAccounts(t.db, {
      pepper: PEPPER,
      clock: clock.now,
      // Port 9 (discard): nothing listens there; ioredis keeps retrying in the background.
      redisUrl: 'redis://127.0.0.1:9',
      keyCacheTtlWithRedisMs: 60_000,
      log: (m) => logs.push(m),
    });
    const revoker = createAccounts(t.db, { pepper: PEPPER });
    try {
      await until(() => logs.length > 0, 'the outage logged');
      expect(offline.keyRevocationFeed()).toBe('down');
      const customer = await revoker.createCustomer('offline@example.com');
      const issued = await revoker.issueKey(customer.id);
      expect(await offline.verifyKey(issued.key)).not.toBeNull();
      await revoker.revokeKey(issued.id);
      clock.advance(899);
      expect(await offline.verifyKey(issued.key)).not.toBeNull();
      clock.advance(1);
      expect(await offline.verifyKey(issued.key)).toBeNull();
      await new Promise((r) => setTimeout(r, 300)); // reconnection attempts go on meanwhile
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(/Redis/);
    } finally {
      await offline.close();
      await revoker.close();
    }
  });
});
