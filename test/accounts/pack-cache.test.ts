/** The active-pack cache behind the gateway's Studio check: trusted for its TTL, never past the pack's end. */
import { describe, expect, it } from 'vitest';
import { ActivePackCache } from '../../src/accounts/pack-cache.js';
import type { Pack } from '../../src/accounts/types.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const pack = (customerId: string, endsInMs: number): Pack => ({
  id: `pack_${customerId}`,
  customerId,
  kind: 'studio',
  credits: 10,
  remaining: 10,
  purchasedAt: new Date(T0.getTime() - 1000),
  refundedAt: null,
  expiresAt: at(endsInMs),
});

describe('ActivePackCache', () => {
  it('answers within the TTL and forgets the pack once it has passed', () => {
    const cache = new ActivePackCache(5000, 10);
    const p = pack('a', 60_000);
    cache.set(p, T0);
    expect(cache.get('a', at(4999))).toBe(p);
    expect(cache.get('a', at(5000))).toBeUndefined();
    expect(cache.get('a', at(1))).toBeUndefined();
  });

  it("never answers at or past the pack's end, however fresh the entry", () => {
    const cache = new ActivePackCache(5000, 10);
    cache.set(pack('a', 1000), T0);
    expect(cache.get('a', at(999))).toBeDefined();
    expect(cache.get('a', at(1000))).toBeUndefined();
  });

  it('does not answer for a clock before the read (a clock set back)', () => {
    const cache = new ActivePackCache(5000, 10);
    cache.set(pack('a', 60_000), T0);
    expect(cache.get('a', at(-1))).toBeUndefined();
  });

  it('forgets a customer on demand (a refund) and drops the oldest entry when full', () => {
    const cache = new ActivePackCache(5000, 2);
    cache.set(pack('a', 60_000), T0);
    cache.set(pack('b', 60_000), T0);
    cache.forget('a');
    expect(cache.get('a', T0)).toBeUndefined();
    cache.set(pack('a', 60_000), T0);
    cache.set(pack('c', 60_000), T0);
    expect(cache.get('b', T0)).toBeUndefined();
    expect(cache.get('a', T0)).toBeDefined();
    expect(cache.get('c', T0)).toBeDefined();
  });
});
