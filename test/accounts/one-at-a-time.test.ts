/** The per-key queue that keeps one customer's reservations to one pooled connection at a time. */
import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../src/accounts/one-at-a-time.js';

/** A promise the test settles by hand. */
function gate<T>() {
  let open!: (v: T) => void;
  let fail!: (e: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('oneAtATime', () => {
  it('runs work of one key in call order, each after the previous settles, failures included', async () => {
    const queue = oneAtATime();
    const started: string[] = [];
    const first = gate<string>();
    const second = gate<string>();
    const a = queue('cus_1', () => {
      started.push('a');
      return first.promise;
    });
    const b = queue('cus_1', () => {
      started.push('b');
      return second.promise;
    });
    const c = queue('cus_1', async () => {
      started.push('c');
      return 'c';
    });
    await tick();
    expect(started).toEqual(['a']);
    first.fail(new Error('store down'));
    await expect(a).rejects.toThrow('store down');
    await tick();
    expect(started).toEqual(['a', 'b']);
    second.open('b');
    expect(await b).toBe('b');
    expect(await c).toBe('c');
    expect(started).toEqual(['a', 'b', 'c']);
  });

  it('work of different keys runs side by side', async () => {
    const queue = oneAtATime();
    const held = gate<void>();
    const started: string[] = [];
    const one = queue('cus_1', () => {
      started.push('cus_1');
      return held.promise;
    });
    const other = queue('cus_2', async () => {
      started.push('cus_2');
      return 2;
    });
    expect(await other).toBe(2);
    expect(started).toEqual(['cus_1', 'cus_2']);
    held.open();
    await one;
  });
});
