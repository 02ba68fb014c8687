import { describe, expect, it } from 'vitest';
import { BoundedCache, boundedByCount } from '../../src/cache/bounded-cache.js';

/** Values that are their own size in bytes. */
const sized = (options: { maxBytes: number; maxEntryBytes?: number; admitOnSecondSighting?: boolean }) =>
  new BoundedCache<{ n: number }>({ ...options, sizeOf: (v) => v.n });

describe('BoundedCache without admission', () => {
  it('keeps what it is given, and gives it back on a hit', () => {
    const cache = sized({ maxBytes: 1000 });
    const value = { n: 100 };
    expect(cache.get('a')).toBeUndefined();
    expect(cache.set('a', value)).toBe(true);
    expect(cache.get('a')).toBe(value);
    expect(cache.stats()).toMatchObject({
      entries: 1,
      bytes: 100,
      hits: 1,
      misses: 1,
      declined: 0,
      doorkeeperBytes: 0,
    });
  });

  it('evicts the least recently used past its bytes; a read makes an entry recent', () => {
    const cache = sized({ maxBytes: 300, maxEntryBytes: 100 });
    for (const key of ['a', 'b', 'c']) cache.set(key, { n: 100 });
    expect(cache.get('a')).toBeDefined();
    cache.set('d', { n: 100 });
    expect(['a', 'b', 'c', 'd'].map((k) => cache.get(k) !== undefined)).toEqual([true, false, true, true]);
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 300 });
  });

  it('never keeps a value over the entry bound (a quarter of the cache unless set)', () => {
    const quarter = sized({ maxBytes: 400 });
    expect(quarter.set('big', { n: 101 })).toBe(false);
    expect(quarter.set('fits', { n: 100 })).toBe(true);
    const bounded = sized({ maxBytes: 10_000, maxEntryBytes: 50 });
    expect(bounded.set('big', { n: 51 })).toBe(false);
    expect(bounded.set('fits', { n: 50 })).toBe(true);
    expect(bounded.get('big')).toBeUndefined();
    expect(bounded.stats()).toMatchObject({ entries: 1, bytes: 50, declined: 1 });
  });

  it('keeps the first value of a key: an identical request gives identical bytes', () => {
    const cache = sized({ maxBytes: 1000 });
    const first = { n: 10 };
    cache.set('k', first);
    expect(cache.set('k', { n: 20 })).toBe(true);
    expect(cache.get('k')).toBe(first);
    expect(cache.stats().bytes).toBe(10);
  });
});

describe('BoundedCache admitting on the second sighting (the doorkeeper)', () => {
  it('keeps a value the second time its key is offered', () => {
    const cache = sized({ maxBytes: 1000, admitOnSecondSighting: true });
    expect(cache.set('k', { n: 10 })).toBe(false);
    expect(cache.get('k')).toBeUndefined();
    const second = { n: 10 };
    expect(cache.set('k', second)).toBe(true);
    expect(cache.get('k')).toBe(second);
    expect(cache.stats()).toMatchObject({ entries: 1, declined: 1 });
    expect(cache.stats().doorkeeperBytes).toBeGreaterThan(0);
  });

  it('one-off keys never evict the keys that repeat', () => {
    const cache = sized({ maxBytes: 300, maxEntryBytes: 100, admitOnSecondSighting: true });
    for (const key of ['a', 'b', 'c']) {
      cache.set(key, { n: 100 });
      cache.set(key, { n: 100 });
    }
    for (let i = 0; i < 500; i++) cache.set(`once-${i}`, { n: 100 });
    expect(['a', 'b', 'c'].map((k) => cache.get(k) !== undefined)).toEqual([true, true, true]);
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 300 });
  });
});

describe('BoundedCache forgetting', () => {
  it('delete and clear give back the bytes of what they forget', () => {
    const cache = sized({ maxBytes: 300, maxEntryBytes: 100 });
    for (const key of ['a', 'b', 'c']) cache.set(key, { n: 100 });
    cache.delete('b');
    cache.delete('missing');
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 200 });
    cache.set('d', { n: 100 });
    expect(['a', 'c', 'd'].map((k) => cache.get(k) !== undefined)).toEqual([true, true, true]);
    cache.clear();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('boundedByCount keeps at most its number of entries', () => {
    const cache = boundedByCount<string>(2);
    for (const key of ['a', 'b', 'c']) expect(cache.set(key, key)).toBe(true);
    expect(['a', 'b', 'c'].map((k) => cache.get(k))).toEqual([undefined, 'b', 'c']);
  });
});
