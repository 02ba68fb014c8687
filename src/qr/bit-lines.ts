/**
 * A symbol's rows (or columns) as bitsets, 32 modules a word, bit b of word j holding module 32j + b, so the
 * mask penalty rules test 32 positions per operation. Each line carries a zero word before and after its
 * data words: shifts that look up to 10 modules ahead or 4 behind then read light modules past the edge —
 * what rule N3 wants anyway, the quiet zone being light.
 */
export const lineWords = (size: number): number => (size + 31) >>> 5;

/** Words per line including the two zero guard words; data word j of line l is at l * stride + 1 + j. */
export const lineStride = (size: number): number => lineWords(size) + 2;

/** Packs `m` (row-major bytes, 1 = dark) by rows into `out` (size × stride words, guards left zero). */
export function packRows(m: Uint8Array, size: number, out: Int32Array): void {
  const stride = lineStride(size);
  for (let y = 0; y < size; y++) {
    const row = y * size;
    for (let j = 0, x = 0; x < size; j++) {
      let w = 0;
      for (let b = 0; b < 32 && x < size; b++, x++) w |= m[row + x] << b;
      out[y * stride + 1 + j] = w;
    }
  }
}

/** Packs `m` by columns: line x of `out` holds column x, bit y its module in row y. */
export function packCols(m: Uint8Array, size: number, out: Int32Array): void {
  const stride = lineStride(size);
  for (let x = 0; x < size; x++) {
    for (let j = 0, y = 0; y < size; j++) {
      let w = 0;
      for (let b = 0; b < 32 && y < size; b++, y++) w |= m[y * size + x] << b;
      out[x * stride + 1 + j] = w;
    }
  }
}

export function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The low `n` bits set, clamped to 0–32. */
export const lowBits = (n: number): number => (n >= 32 ? -1 : n <= 0 ? 0 : (1 << n) - 1);
