/**
 * A value in [0, 1) fixed by (seed, index, salt): the design layer's only source of randomness, so a
 * request with the same seed always renders the same bytes. `salt` separates independent draws for
 * one module (its size, its rotation). An integer avalanche mix (murmur3's finalizer) is enough here:
 * what matters is that neighbouring indices look unrelated, not cryptographic quality.
 */
export function unitHash(seed: number, index: number, salt = 0): number {
  let h = (seed | 0) ^ Math.imul(index + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca77);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}
