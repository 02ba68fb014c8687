import { lineStride, lineWords, lowBits, packCols, packRows, popcount } from './bit-lines.js';
import { formatBits } from './format.js';
import type { VersionTemplate } from './matrix.js';
import { ModuleRole } from './types.js';
import type { EccLevel } from '../model/vocabulary.js';

export const MASK_COUNT = 8;

/** The eight data-mask conditions of ISO 18004 Table 10 (i = row, j = column); true inverts the module. */
function maskInverts(mask: number, i: number, j: number): boolean {
  switch (mask) {
    case 0:
      return (i + j) % 2 === 0;
    case 1:
      return i % 2 === 0;
    case 2:
      return j % 3 === 0;
    case 3:
      return (i + j) % 3 === 0;
    case 4:
      return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5:
      return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6:
      return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    default:
      return (((i + j) % 2) + ((i * j) % 3)) % 2 === 0;
  }
}

/**
 * Per module, bit k set when mask k inverts it, so masking a whole symbol is one XOR pass instead of a
 * formula per module per mask. Function modules are never masked and get 0.
 */
export function maskTable(size: number, roles: Uint8Array): Uint8Array {
  const table = new Uint8Array(size * size);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      if (roles[i * size + j] !== ModuleRole.Data) continue;
      let bits = 0;
      for (let k = 0; k < MASK_COUNT; k++) if (maskInverts(k, i, j)) bits |= 1 << k;
      table[i * size + j] = bits;
    }
  }
  return table;
}

/** Each mask's inversion pattern packed by rows and by columns (mask k at offset k × size × stride). */
export function packMaskPatterns(table: Uint8Array, size: number): { rows: Int32Array; cols: Int32Array } {
  const lineLen = size * lineStride(size);
  const rows = new Int32Array(MASK_COUNT * lineLen);
  const cols = new Int32Array(MASK_COUNT * lineLen);
  const plane = new Uint8Array(size * size);
  for (let k = 0; k < MASK_COUNT; k++) {
    for (let i = 0; i < plane.length; i++) plane[i] = (table[i] >>> k) & 1;
    packRows(plane, size, rows.subarray(k * lineLen, (k + 1) * lineLen));
    packCols(plane, size, cols.subarray(k * lineLen, (k + 1) * lineLen));
  }
  return { rows, cols };
}

export function applyMask(target: Uint8Array, unmasked: Uint8Array, table: Uint8Array, mask: number): void {
  for (let i = 0; i < target.length; i++) target[i] = unmasked[i] ^ ((table[i] >>> mask) & 1);
}

/** Per symbol size: which bit positions of each data word may start an N1 window or an N2 block. */
interface Limits {
  /** x + 4 inside the symbol: the 5-module N1 window ends before the zero padding would lengthen runs. */
  runStarts: Int32Array;
  /** x + 1 inside the symbol, for the 2×2 blocks of N2. */
  blockStarts: Int32Array;
}

const limitsBySize: (Limits | undefined)[] = [];

function limits(size: number): Limits {
  let l = limitsBySize[size];
  if (!l) {
    const words = lineWords(size);
    l = { runStarts: new Int32Array(words), blockStarts: new Int32Array(words) };
    for (let j = 0; j < words; j++) {
      l.runStarts[j] = lowBits(size - 4 - 32 * j);
      l.blockStarts[j] = lowBits(size - 1 - 32 * j);
    }
    limitsBySize[size] = l;
  }
  return l;
}

/**
 * N1 and N3 over every packed line. For module x of a 32-module word `cur`, `rk` holds module x + k:
 * - N1: f marks x where x..x+4 share a colour; a run of L ≥ 5 owns L − 4 such marks and one start, so its
 *   3 + (L − 5) points are the marks plus 2 per start.
 * - N3: p marks a 1:1:3:1:1 core (dark light dark dark dark light dark) starting at x, which scores 40 when
 *   the 4 modules before it or the 4 after it are light — each core once, as zxing's encoder counts.
 */
function linePenalty(lines: Int32Array, size: number, runStarts: Int32Array): number {
  const words = runStarts.length;
  const stride = words + 2;
  let n1 = 0;
  let n3 = 0;
  for (let base = 0; base < size * stride; base += stride) {
    let carry = 0;
    for (let j = 0; j < words; j++) {
      const prev = lines[base + j];
      const cur = lines[base + j + 1];
      const next = lines[base + j + 2];
      const r1 = (cur >>> 1) | (next << 31);
      const r2 = (cur >>> 2) | (next << 30);
      const r3 = (cur >>> 3) | (next << 29);
      const r4 = (cur >>> 4) | (next << 28);
      const f = ~((cur ^ r1) | (cur ^ r2) | (cur ^ r3) | (cur ^ r4)) & runStarts[j];
      if (f !== 0) n1 += popcount(f) + 2 * popcount(f & ~((f << 1) | carry));
      carry = f >>> 31;

      const r5 = (cur >>> 5) | (next << 27);
      const r6 = (cur >>> 6) | (next << 26);
      const p = cur & ~r1 & r2 & r3 & r4 & ~r5 & r6;
      if (p !== 0) {
        const before =
          (cur << 1) |
          (prev >>> 31) |
          (cur << 2) |
          (prev >>> 30) |
          (cur << 3) |
          (prev >>> 29) |
          (cur << 4) |
          (prev >>> 28);
        const after =
          (cur >>> 7) |
          (next << 25) |
          (cur >>> 8) |
          (next << 24) |
          (cur >>> 9) |
          (next << 23) |
          (cur >>> 10) |
          (next << 22);
        n3 += popcount(p & (~before | ~after));
      }
    }
  }
  return n1 + 40 * n3;
}

/**
 * ISO 18004 7.8.3.1 penalty of a symbol packed by rows and by columns (see bit-lines.ts):
 * N1 3 + (L − 5) per same-colour run of L ≥ 5 in a row or column; N2 3 per 2×2 same-colour block,
 * overlapping (an m×n block scores as (m−1)(n−1) of them, the standard's intent); N3 40 per finder-like
 * pattern; N4 10 per full 5 % the dark share strays from 50 %.
 */
export function penalty(rows: Int32Array, cols: Int32Array, size: number): number {
  const { runStarts, blockStarts } = limits(size);
  const words = runStarts.length;
  const stride = words + 2;
  let n2 = 0;
  for (let a0 = 1; a0 < (size - 1) * stride; a0 += stride) {
    const b0 = a0 + stride;
    for (let j = 0; j < words; j++) {
      const a = rows[a0 + j];
      const b = rows[b0 + j];
      const a1 = (a >>> 1) | (rows[a0 + j + 1] << 31);
      const b1 = (b >>> 1) | (rows[b0 + j + 1] << 31);
      const uniform = ~((a ^ b) | (a ^ a1) | (a ^ b1)) & blockStarts[j];
      if (uniform !== 0) n2 += popcount(uniform);
    }
  }
  // Guard words are zero, so counting them too changes nothing.
  let dark = 0;
  for (let i = 0; i < size * stride; i++) dark += popcount(rows[i]);
  const total = size * size;
  // total is odd, so the share is never exactly 50 % and k is never negative.
  const k = Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1;
  return linePenalty(rows, size, runStarts) + linePenalty(cols, size, runStarts) + 3 * n2 + 10 * k;
}

/** The mask with the lowest penalty (the lowest-numbered on ties), format information included. */
export function bestMask(unmasked: Uint8Array, t: VersionTemplate, ecc: EccLevel): number {
  const { size, maskRows, maskCols, formatA, formatB } = t;
  const stride = lineStride(size);
  const len = size * stride;
  const baseRows = new Int32Array(len);
  const baseCols = new Int32Array(len);
  packRows(unmasked, size, baseRows);
  packCols(unmasked, size, baseCols);
  const rows = new Int32Array(len);
  const cols = new Int32Array(len);

  let best = Infinity;
  let chosen = 0;
  for (let k = 0; k < MASK_COUNT; k++) {
    const off = k * len;
    for (let i = 0; i < len; i++) {
      rows[i] = baseRows[i] ^ maskRows[off + i];
      cols[i] = baseCols[i] ^ maskCols[off + i];
    }
    // Format modules are light in `unmasked` and never masked, so only the dark bits need setting.
    const format = formatBits(ecc, k);
    for (let i = 0; i < 30; i++) {
      if ((format >>> (i % 15)) & 1) {
        const idx = i < 15 ? formatA[i] : formatB[i - 15];
        const y = (idx / size) | 0;
        const x = idx - y * size;
        rows[y * stride + 1 + (x >>> 5)] |= 1 << (x & 31);
        cols[x * stride + 1 + (y >>> 5)] |= 1 << (y & 31);
      }
    }
    const score = penalty(rows, cols, size);
    if (score < best) {
      best = score;
      chosen = k;
    }
  }
  return chosen;
}
