import type { EccLevel } from '../../src/model/vocabulary.js';
import type { QrSymbol } from '../../src/qr/types.js';

export { seededRandom as rng } from '../helpers/seeded-random.js';

export const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)];

export function randomString(r: () => number, alphabet: readonly string[], length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += pick(r, alphabet);
  return s;
}

/** ISO 18004 Table 12: the two-bit error-correction indicator in the format information. */
export const ECC_INDICATOR: Readonly<Record<EccLevel, number>> = { L: 0b01, M: 0b00, Q: 0b11, H: 0b10 };

/**
 * Reads the first copy of the format information straight from a matrix, positions per ISO 18004
 * Figure 25: bit 14 at (row 8, col 0) … bit 9 at (8, 5), bit 8 at (8, 7), bit 7 at (8, 8), bit 6 at
 * (7, 8), bits 5 … 0 at rows 5 … 0 of column 8. Returns the unmasked 5 data bits split up.
 */
export function readFormat(isDark: (row: number, col: number) => boolean): { raw: number; ecc: number; mask: number } {
  const cells: [number, number][] = [
    [8, 0],
    [8, 1],
    [8, 2],
    [8, 3],
    [8, 4],
    [8, 5],
    [8, 7],
    [8, 8],
    [7, 8],
    [5, 8],
    [4, 8],
    [3, 8],
    [2, 8],
    [1, 8],
    [0, 8],
  ];
  let raw = 0;
  for (const [row, col] of cells) raw = (raw << 1) | (isDark(row, col) ? 1 : 0);
  const data = (raw ^ 0x5412) >>> 10;
  return { raw, ecc: data >>> 3, mask: data & 7 };
}

export const darkAt =
  (s: QrSymbol) =>
  (row: number, col: number): boolean =>
    s.modules[row * s.size + col] === 1;

/** White/black RGBA raster with a light quiet zone, as a camera would see a printed symbol. */
export function rasterize(s: QrSymbol, px = 4, quiet = 4): { data: Uint8ClampedArray; width: number; height: number } {
  const width = (s.size + 2 * quiet) * px;
  const data = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let y = 0; y < s.size; y++) {
    for (let x = 0; x < s.size; x++) {
      if (!s.modules[y * s.size + x]) continue;
      for (let dy = 0; dy < px; dy++) {
        const row = ((y + quiet) * px + dy) * width;
        for (let dx = 0; dx < px; dx++) {
          const o = (row + (x + quiet) * px + dx) * 4;
          data[o] = data[o + 1] = data[o + 2] = 0;
        }
      }
    }
  }
  return { data, width, height: width };
}

/**
 * ISO 18004 7.8.3.1 penalty written out module by module, as a reference for the packed scorer:
 * N1 3 + (run − 5) per run of ≥ 5 same-colour modules in a row or column; N2 3 per 2×2 same-colour block;
 * N3 40 per dark-light-dark-dark-dark-light-dark core with 4 light modules (the outside counting as light)
 * directly before or after it; N4 10 × k, k the smallest integer with |dark% − 50| ≤ 5(k + 1).
 */
export function referencePenalty(m: Uint8Array, n: number): number {
  const at = (x: number, y: number): number => (x < 0 || y < 0 || x >= n || y >= n ? 0 : m[y * n + x]);
  let score = 0;
  const line = (get: (i: number) => number): void => {
    let run = 1;
    for (let i = 1; i <= n; i++) {
      if (i < n && get(i) === get(i - 1)) run++;
      else {
        if (run >= 5) score += 3 + run - 5;
        run = 1;
      }
    }
    const core = [1, 0, 1, 1, 1, 0, 1];
    for (let i = 0; i + 7 <= n; i++) {
      if (!core.every((v, k) => get(i + k) === v)) continue;
      const lightBefore = [1, 2, 3, 4].every((k) => get(i - k) === 0);
      const lightAfter = [7, 8, 9, 10].every((k) => get(i + k) === 0);
      if (lightBefore || lightAfter) score += 40;
    }
  };
  for (let y = 0; y < n; y++) line((i) => at(i, y));
  for (let x = 0; x < n; x++) line((i) => at(x, i));
  for (let y = 0; y + 1 < n; y++) {
    for (let x = 0; x + 1 < n; x++) {
      const c = at(x, y);
      if (at(x + 1, y) === c && at(x, y + 1) === c && at(x + 1, y + 1) === c) score += 3;
    }
  }
  let dark = 0;
  for (let i = 0; i < n * n; i++) dark += m[i];
  const total = n * n;
  let k = 0;
  // |dark/total·100 − 50| > 5(k + 1), in integers.
  while (Math.abs(dark * 100 - total * 50) > 5 * (k + 1) * total) k++;
  return score + 10 * k;
}
