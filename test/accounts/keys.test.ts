import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts, isWellFormedKey, KEY_PREFIX, MAX_LIVE_KEYS } from '../../src/accounts/index.js';
import type { Accounts } from '../../src/accounts/index.js';
import {
  countingDb,
  DRIVERS,
  manualClock,
  openTestDatabase,
  type TestDatabase,
  TEST_PEPPER as PEPPER,
} from '../helpers/databases.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The key with the character at `index` replaced by the next one in the alphabet. */
const mistype = (key: string, index: number) =>
  key.slice(0, index) + BASE62[(BASE62.indexOf(key[index]!) + 1) % 62] + key.slice(index + 1);

describe.each(DRIVERS)('API keys on %s', (driver) => {
  let t: TestDatabase;
  let counted: ReturnType<typeof countingDb>;
  let accounts: Accounts;
  const clock = manualClock();

  beforeAll(async () => {
    t = await openTestDatabase(driver);
    counted = countingDb(t.db);
    accounts = createAccounts(counted.db, { pepper: PEPPER, clock: clock.now });
  });
  afterAll(async () => {
    await accounts?.close();
    await t?.close();
  });

  const newCustomer = (name: string) => accounts.createCustomer(`${name}-${driver}@example.com`);

  it('issues keys with the prefix, 192 random bits and a valid checksum, all different', async () => {
    const customer = await newCustomer('format');
    const keys = await Promise.all([1, 2, 3].map(() => accounts.issueKey(customer.id)));
    for (const k of keys) {
      expect(k.key).toMatch(/^qrf_[0-9A-Za-z]{39}$/);
      expect(k.key.startsWith(KEY_PREFIX)).toBe(true);
      expect(isWellFormedKey(k.key)).toBe(true);
      expect(k.start).toBe(k.key.slice(0, 12));
      expect(k.customerId).toBe(customer.id);
      expect(k.revokedAt).toBeNull();
    }
    expect(new Set(keys.map((k) => k.key)).size).toBe(3);
  });

  it('holds at most MAX_LIVE_KEYS live keys per customer, exactly when issued at once from two pools', async () => {
    const customer = await newCustomer('cap');
    const other = createAccounts(t.anotherPool(), { pepper: PEPPER, clock: clock.now });
    try {
      const first = await Promise.all(Array.from({ length: MAX_LIVE_KEYS - 2 }, () => accounts.issueKey(customer.id)));
      // Ten at once, half through another pool (a second instance): two more are issued, eight refused.
      const tries = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? accounts : other).issueKey(customer.id)),
      );
      const refused = tries.filter((r) => r.status === 'rejected');
      expect(tries.length - refused.length).toBe(2);
      for (const r of refused)
        expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'key_limit_reached', status: 409 });
      expect((await accounts.listKeys(customer.id)).filter((k) => k.revokedAt === null)).toHaveLength(MAX_LIVE_KEYS);
      // A revoked key frees its place; revoked keys never count.
      await accounts.revokeKey(first[0]!.id);
      await accounts.issueKey(customer.id);
      await expect(accounts.issueKey(customer.id)).rejects.toMatchObject({ code: 'key_limit_reached' });
    } finally {
      await other.close();
    }
  });

  it('refuses malformed keys without a database query, and looks up well-formed unknown ones once', async () => {
    const customer = await newCustomer('offline');
    const { key } = await accounts.issueKey(customer.id);
    const malformed = [
      '',
      'qrf_',
      `sk_${key.slice(4)}`,
      key.slice(0, -1),
      `${key}0`,
      `${key.slice(0, -1)}!`,
      key.toUpperCase(),
      ` ${key}`,
      // Every single-character typo in the random part or the checksum is caught by the CRC.
      ...Array.from({ length: key.length - 4 }, (_, i) => mistype(key, i + 4)),
    ];
    const before = counted.count();
    for (const candidate of malformed) expect(await accounts.verifyKey(candidate)).toBeNull();
    expect(counted.count()).toBe(before);

    // A well-formed key nobody issued: one lookup, then cached like any other answer.
    const other = createAccounts(t.db, { pepper: Buffer.from('another-pepper-0123456789abcdefghijklmn') });
    const foreign = (await other.issueKey(customer.id)).key;
    await other.close();
    const beforeUnknown = counted.count();
    expect(await accounts.verifyKey(foreign)).toBeNull();
    expect(counted.count()).toBe(beforeUnknown + 1);
    expect(await accounts.verifyKey(foreign)).toBeNull();
    expect(counted.count()).toBe(beforeUnknown + 1);
  });

  it('verifies a key to its owner, caches the answer, and keeps several keys per customer active', async () => {
    const customer = await newCustomer('several');
    const a = await accounts.issueKey(customer.id, { name: 'ci' });
    clock.advance(1000);
    const b = await accounts.issueKey(customer.id);
    expect(await accounts.verifyKey(a.key)).toEqual({ customerId: customer.id, keyId: a.id });
    expect(await accounts.verifyKey(b.key)).toEqual({ customerId: customer.id, keyId: b.id });
    const before = counted.count();
    expect(await accounts.verifyKey(a.key)).toEqual({ customerId: customer.id, keyId: a.id });
    expect(counted.count()).toBe(before);
    const listed = await accounts.listKeys(customer.id);
    expect(listed.map((k) => [k.id, k.name, k.start])).toEqual([
      [a.id, 'ci', a.start],
      [b.id, null, b.start],
    ]);
    for (const k of listed) expect(k).not.toHaveProperty('key');
  });

  it('revokes one key (refused at once on this instance, again after the cache TTL) and leaves the other', async () => {
    const customer = await newCustomer('revoke');
    const old = await accounts.issueKey(customer.id);
    const fresh = await accounts.issueKey(customer.id);
    expect(await accounts.verifyKey(old.key)).not.toBeNull();
    const revoked = await accounts.revokeKey(old.id);
    expect(revoked.revokedAt).toEqual(clock.now());
    expect(await accounts.verifyKey(old.key)).toBeNull();
    expect(await accounts.verifyKey(fresh.key)).toEqual({ customerId: customer.id, keyId: fresh.id });
    clock.advance(5000);
    expect(await accounts.verifyKey(old.key)).toBeNull();
    // Revoking again keeps the first time.
    expect((await accounts.revokeKey(old.id)).revokedAt).toEqual(revoked.revokedAt);
    const listed = await accounts.listKeys(customer.id);
    expect(listed.find((k) => k.id === old.id)!.revokedAt).toEqual(revoked.revokedAt);
    expect(listed.find((k) => k.id === fresh.id)!.revokedAt).toBeNull();
    await expect(accounts.revokeKey('key_nonexistent')).rejects.toMatchObject({ code: 'api_key_not_found' });
  });

  it('without Redis, another instance stops accepting a revoked key once its 0.9 s cache entry ages out', async () => {
    const customer = await newCustomer('two-instances');
    const issued = await accounts.issueKey(customer.id);
    const otherClock = manualClock(clock.now());
    const other = createAccounts(t.anotherPool(), { pepper: PEPPER, clock: otherClock.now });
    try {
      expect(await other.verifyKey(issued.key)).not.toBeNull();
      await accounts.revokeKey(issued.id);
      otherClock.advance(899);
      expect(await other.verifyKey(issued.key)).not.toBeNull(); // still the cached answer
      otherClock.advance(1);
      expect(await other.verifyKey(issued.key)).toBeNull();
      expect(other.keyRevocationFeed()).toBe('off');
    } finally {
      await other.close();
    }
  });

  it('stores only the HMAC of the key and its first 12 characters: the plaintext is nowhere in the database', async () => {
    const customer = await newCustomer('storage');
    const issued = await accounts.issueKey(customer.id);
    const { rows } = await t.db.query<{ hash: Uint8Array; start: string }>(
      'SELECT hash, start FROM api_keys WHERE id = $1',
      [issued.id],
    );
    expect(Buffer.from(rows[0]!.hash)).toEqual(createHmac('sha256', PEPPER).update(issued.key).digest());
    expect(rows[0]!.start).toBe(issued.key.slice(0, 12));

    // Every column of every table, as text (bytea as hex and as raw bytes), searched for the key and
    // for its secret part alone.
    const secretPart = issued.key.slice(12);
    const tables = await t.db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    expect(tables.rows.map((r) => r.table_name)).toContain('api_keys');
    let scanned = 0;
    for (const { table_name } of tables.rows) {
      const all = await t.db.query<{ row: string }>(`SELECT t::text AS row FROM ${table_name} t`);
      for (const { row } of all.rows) {
        scanned++;
        expect(row).not.toContain(issued.key);
        expect(row).not.toContain(secretPart);
        expect(row).not.toContain(Buffer.from(secretPart).toString('hex'));
      }
    }
    expect(scanned).toBeGreaterThan(0);
  });

  it('records last use at most once a minute, off the request path', async () => {
    const customer = await newCustomer('touch');
    const issued = await accounts.issueKey(customer.id);
    const lastUsed = async () => (await accounts.listKeys(customer.id))[0]!.lastUsedAt;
    const first = clock.now();
    await accounts.verifyKey(issued.key);
    await vi_waitFor(async () => (await lastUsed())?.getTime() === first.getTime());
    clock.advance(30_000);
    await accounts.verifyKey(issued.key);
    clock.advance(29_000);
    await accounts.verifyKey(issued.key);
    await accounts.close(); // waits for pending writes
    expect(await lastUsed()).toEqual(first);
    accounts = createAccounts(counted.db, { pepper: PEPPER, clock: clock.now });
    clock.advance(2000);
    await accounts.verifyKey(issued.key);
    await vi_waitFor(async () => (await lastUsed())?.getTime() === clock.now().getTime());
  });

  it('refuses keys for a customer that does not exist', async () => {
    await expect(accounts.issueKey('cus_missing')).rejects.toMatchObject({ code: 'customer_not_found', status: 404 });
    await expect(accounts.listKeys('cus_missing')).rejects.toMatchObject({ code: 'customer_not_found' });
  });
});

/** Polls until `check` holds (bounded): for writes that happen off the request path. */
async function vi_waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
