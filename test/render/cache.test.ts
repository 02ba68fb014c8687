import { describe, expect, it } from 'vitest';
import { ENTRY_OVERHEAD_BYTES, RenderCache } from '../../src/render/cache.js';
import { Doorkeeper } from '../../src/cache/doorkeeper.js';
import type { RenderSuccess } from '../../src/render/types.js';

/** A render of `size` bytes; the cache reads only the bytes, the rest is what a real result carries. */
const render = (size: number): RenderSuccess => ({
  ok: true,
  bytes: new Uint8Array(size),
  format: 'png',
  contentType: 'image/png',
  width: 800,
  height: 800,
  version: 3,
  eccLevel: 'M',
  mask: 0,
  modulePx: 24,
  verification: {} as RenderSuccess['verification'],
  corrections: [],
  warnings: [],
  timings: {},
});

describe('RenderCache admission', () => {
  it('keeps none of a stream of one-off renders: the cache stays empty in bytes', () => {
    const cache = new RenderCache(64 * 1024 * 1024);
    for (let i = 0; i < 5000; i++) {
      const key = `unique-${i}`;
      expect(cache.get(key)).toBeUndefined();
      cache.set(key, render(10_000));
    }
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0, hits: 0, misses: 5000, declined: 5000 });
  });

  it('keeps a render on the second sighting of its key, so the third request is a hit', () => {
    const cache = new RenderCache(1024 * 1024);
    const first = render(1000);
    const second = render(1000);
    expect(cache.get('design')).toBeUndefined();
    cache.set('design', first);
    expect(cache.get('design')).toBeUndefined();
    cache.set('design', second);
    expect(cache.get('design')).toBe(second);
    expect(cache.stats()).toMatchObject({
      entries: 1,
      bytes: 1000 + ENTRY_OVERHEAD_BYTES,
      hits: 1,
      misses: 2,
      declined: 1,
    });
  });

  it('admits a repeated design among one-off traffic, and evicts the least recently used past its bytes', () => {
    // Room for four entries of 1000 bytes and what each holds beside them.
    const entry = 1000 + ENTRY_OVERHEAD_BYTES;
    const cache = new RenderCache(4 * entry);
    const sighted = (key: string) => {
      cache.set(key, render(1000));
      cache.set(key, render(1000));
    };
    for (const key of ['a', 'b', 'c', 'd']) sighted(key);
    for (let i = 0; i < 100; i++) cache.set(`once-${i}`, render(1000));
    expect(cache.get('a')).toBeDefined();
    sighted('e');
    // 'b' was the least recently used once 'a' was read again.
    expect(['a', 'b', 'c', 'd', 'e'].map((k) => cache.get(k) !== undefined)).toEqual([true, false, true, true, true]);
    expect(cache.stats()).toMatchObject({ entries: 4, bytes: 4 * entry });
  });

  it('keeps nothing when off, however often a key is seen', () => {
    const cache = new RenderCache(0);
    for (let i = 0; i < 3; i++) cache.set('design', render(1));
    expect(cache.get('design')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('holds its doorkeeper in memory fixed at its size, however many keys pass', () => {
    const cache = new RenderCache(64 * 1024 * 1024);
    const before = cache.stats().doorkeeperBytes;
    // 64 MB: 65 536 keys a generation at 16 bits each, two generations.
    expect(before).toBe(2 * 65_536 * 2);
    for (let i = 0; i < 300_000; i++) cache.set(`k${i}`, render(1));
    expect(cache.stats().doorkeeperBytes).toBe(before);
  });
});

describe('Doorkeeper', () => {
  it('remembers a key for at least one generation of other keys, and forgets it after two', () => {
    const door = new Doorkeeper(1000);
    expect(door.sighted('design')).toBe(false);
    for (let i = 0; i < 999; i++) door.sighted(`other-${i}`);
    expect(door.sighted('design')).toBe(true);
    // That sighting put it in the current generation again; two full generations later it is gone.
    for (let i = 0; i < 2000; i++) door.sighted(`later-${i}`);
    expect(door.sighted('design')).toBe(false);
  });

  it('takes few keys it never saw for seen', () => {
    const door = new Doorkeeper(10_000);
    let wrong = 0;
    for (let i = 0; i < 100_000; i++) if (door.sighted(`https://example.com/some/path?id=${i}`)) wrong++;
    // (1 − e^(−5/16))^5 ≈ 0.14 % against a full generation, less while the current one fills.
    expect(wrong / 100_000).toBeLessThan(0.005);
  });
});
