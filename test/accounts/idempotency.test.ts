import { describe, expect, it } from 'vitest';
import { createAccounts, hashRequest } from '../../src/accounts/index.js';
import { accountsFixture, DRIVERS, TEST_PEPPER as PEPPER } from '../helpers/databases.js';

const PATH = '/api/v1/qr/ai/generate/server';
const body = (prompt: string) => new TextEncoder().encode(JSON.stringify({ prompt, content: 'https://example.com' }));

describe.each(DRIVERS)('Idempotency-Key records on %s', (driver) => {
  const f = accountsFixture(driver, { idempotencyLeaseMs: 120_000 });
  const { clock, newCustomer } = f;

  it('same key and body: in progress while running, then the stored response replayed byte for byte', async () => {
    const customer = await newCustomer();
    const hash = hashRequest('POST', PATH, body('gold'));
    expect(await f.accounts.beginIdempotent(customer, 'retry-1', hash)).toEqual({ outcome: 'started' });
    expect(await f.accounts.beginIdempotent(customer, 'retry-1', hash)).toEqual({ outcome: 'in_progress' });
    const stored = {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-credits-remaining': '4' },
      body: new Uint8Array([0, 1, 2, 250, 255, ...new TextEncoder().encode('{"success":true}')]),
    };
    await f.accounts.completeIdempotent(customer, 'retry-1', stored);
    const replay = await f.accounts.beginIdempotent(customer, 'retry-1', hashRequest('POST', PATH, body('gold')));
    expect(replay).toEqual({ outcome: 'replay', response: stored });
    // Completing again (a late duplicate) does not overwrite the first outcome.
    await f.accounts.completeIdempotent(customer, 'retry-1', { status: 500, headers: {}, body: new Uint8Array() });
    expect(await f.accounts.beginIdempotent(customer, 'retry-1', hash)).toEqual({
      outcome: 'replay',
      response: stored,
    });
  });

  it('same key with a different body (or path) is refused as reused, whatever the first one’s state', async () => {
    const customer = await newCustomer();
    await f.accounts.beginIdempotent(customer, 'k', hashRequest('POST', PATH, body('gold')));
    expect(await f.accounts.beginIdempotent(customer, 'k', hashRequest('POST', PATH, body('silver')))).toEqual({
      outcome: 'reused',
    });
    await f.accounts.completeIdempotent(customer, 'k', { status: 200, headers: {}, body: new Uint8Array([1]) });
    expect(await f.accounts.beginIdempotent(customer, 'k', hashRequest('POST', '/api/v1/other', body('gold')))).toEqual(
      {
        outcome: 'reused',
      },
    );
  });

  it('keys belong to one customer: the same key for another customer is a new request', async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    const hash = hashRequest('POST', PATH, body('x'));
    expect(await f.accounts.beginIdempotent(a, 'shared', hash)).toEqual({ outcome: 'started' });
    expect(await f.accounts.beginIdempotent(b, 'shared', hash)).toEqual({ outcome: 'started' });
  });

  it('an abandoned key (engine failure) lets the retry run again', async () => {
    const customer = await newCustomer();
    const hash = hashRequest('POST', PATH, body('y'));
    await f.accounts.beginIdempotent(customer, 'flaky', hash);
    await f.accounts.abandonIdempotent(customer, 'flaky');
    expect(await f.accounts.beginIdempotent(customer, 'flaky', hash)).toEqual({ outcome: 'started' });
    // Abandoning a completed key does nothing.
    await f.accounts.completeIdempotent(customer, 'flaky', { status: 201, headers: {}, body: new Uint8Array([7]) });
    await f.accounts.abandonIdempotent(customer, 'flaky');
    expect((await f.accounts.beginIdempotent(customer, 'flaky', hash)).outcome).toBe('replay');
  });

  it('a key left running by a crashed instance is taken over once its lease is over', async () => {
    const customer = await newCustomer();
    const hash = hashRequest('POST', PATH, body('z'));
    const start = clock.now();
    await f.accounts.beginIdempotent(customer, 'orphan', hash, start);
    expect(await f.accounts.beginIdempotent(customer, 'orphan', hash, new Date(start.getTime() + 119_999))).toEqual({
      outcome: 'in_progress',
    });
    expect(await f.accounts.beginIdempotent(customer, 'orphan', hash, new Date(start.getTime() + 120_000))).toEqual({
      outcome: 'started',
    });
    expect(await f.accounts.beginIdempotent(customer, 'orphan', hash, new Date(start.getTime() + 120_001))).toEqual({
      outcome: 'in_progress',
    });
  });

  it('concurrent first requests with the same key: exactly one starts', async () => {
    const customer = await newCustomer();
    const hash = hashRequest('POST', PATH, body('race'));
    const other = createAccounts(f.t.anotherPool(), { pepper: PEPPER, clock: clock.now });
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? other : f.accounts).beginIdempotent(customer, 'race', hash)),
      );
      expect(outcomes.filter((o) => o.outcome === 'started')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'in_progress')).toHaveLength(9);
    } finally {
      await other.close();
    }
  });

  it('prunes records older than 24 hours and keeps younger ones', async () => {
    const customer = await newCustomer();
    const hash = hashRequest('POST', PATH, body('old'));
    const day = 24 * 3600 * 1000;
    const then = new Date(clock.now().getTime() - day);
    await f.accounts.beginIdempotent(customer, 'old', hash, then);
    await f.accounts.beginIdempotent(customer, 'young', hash, new Date(then.getTime() + 1));
    expect(await f.accounts.pruneIdempotency()).toBeGreaterThanOrEqual(1);
    const left = await f.t.db.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE customer_id = $1', [
      customer,
    ]);
    expect(left.rows.map((r) => r.key)).toEqual(['young']);
    expect(await f.accounts.beginIdempotent(customer, 'old', hash)).toEqual({ outcome: 'started' });
  });

  it('refuses keys the header could not carry', async () => {
    const customer = await newCustomer();
    const hash = hashRequest('POST', PATH, body('k'));
    for (const key of ['', 'has space', 'x'.repeat(256), 'é'])
      await expect(f.accounts.beginIdempotent(customer, key, hash)).rejects.toThrow(/Idempotency-Key/);
    expect(await f.accounts.beginIdempotent(customer, 'x'.repeat(255), hash)).toEqual({ outcome: 'started' });
  });
});
