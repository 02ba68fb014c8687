import { describe, expect, it } from 'vitest';
import { ECC_LEVELS } from '../../src/model/vocabulary.js';
import { lineStride, packCols, packRows } from '../../src/qr/bit-lines.js';
import { encode } from '../../src/qr/encode.js';
import { penalty } from '../../src/qr/mask.js';
import { ModuleRole } from '../../src/qr/types.js';
import { darkAt, readFormat, referencePenalty, rng } from './support.js';

function packedPenalty(m: Uint8Array, size: number): number {
  const rows = new Int32Array(size * lineStride(size));
  const cols = new Int32Array(size * lineStride(size));
  packRows(m, size, rows);
  packCols(m, size, cols);
  return penalty(rows, cols, size);
}

describe('mask penalty', () => {
  it('matches the module-by-module reference on random matrices', () => {
    const r = rng(11);
    // QR sizes either side of the 32-module word boundaries, up to version 40.
    for (const size of [21, 25, 29, 33, 37, 61, 65, 93, 97, 125, 129, 157, 161, 177]) {
      for (const density of [0.5, 0.15, 0.85, 0.97]) {
        const m = Uint8Array.from({ length: size * size }, () => (r() < density ? 1 : 0));
        expect(packedPenalty(m, size), `size ${size}, density ${density}`).toBe(referencePenalty(m, size));
      }
    }
  });

  it('matches the reference on finder-like and long-run structures at the edges', () => {
    for (const size of [21, 33, 65]) {
      const m = new Uint8Array(size * size);
      const row = [1, 0, 1, 1, 1, 0, 1];
      // Cores flush against the left and right edges and in the middle, in rows and in columns.
      for (let k = 0; k < 7; k++) {
        m[0 * size + k] = row[k];
        m[2 * size + size - 7 + k] = row[k];
        m[4 * size + 12 + k] = row[k];
        m[(10 + k) * size + 3] = row[k];
        m[(size - 7 + k) * size + size - 1] = row[k];
      }
      for (let x = 0; x < size; x++) m[(size - 2) * size + x] = 1;
      expect(packedPenalty(m, size)).toBe(referencePenalty(m, size));
    }
  });

  it('matches the reference on real symbols', () => {
    for (const [text, v] of [
      ['HELLO WORLD', 1],
      ['https://example.com/?q=1', 7],
      ['x', 33],
      ['0'.repeat(500), 40],
    ] as const) {
      for (let mask = 0; mask < 8; mask++) {
        const s = encode(text, { ecc: 'Q', minVersion: v, mask });
        expect(packedPenalty(s.modules, s.size)).toBe(referencePenalty(s.modules, s.size));
      }
    }
  });
});

describe('mask choice', () => {
  it('picks the lowest-penalty mask (the first on ties), format information included', () => {
    const cases: [string, number][] = [
      ['HELLO WORLD', 1],
      ['https://example.com/some/path?utm_source=qr&id=12345', 1],
      ['Grüße aus Köln', 5],
      ['0123456789'.repeat(30), 12],
      ['x', 40],
    ];
    for (const [text, minVersion] of cases) {
      for (const ecc of ECC_LEVELS) {
        const scores = Array.from({ length: 8 }, (_, mask) => {
          const s = encode(text, { ecc, minVersion, mask });
          return referencePenalty(s.modules, s.size);
        });
        const chosen = encode(text, { ecc, minVersion });
        expect(chosen.mask, `${text.slice(0, 12)} ${ecc}: ${scores}`).toBe(scores.indexOf(Math.min(...scores)));
      }
    }
  });

  it('honours an explicit mask in the symbol and in its format information', () => {
    for (const ecc of ECC_LEVELS) {
      for (let mask = 0; mask < 8; mask++) {
        const s = encode('MASK TEST 42', { ecc, mask });
        expect(s.mask).toBe(mask);
        expect(readFormat(darkAt(s)).mask).toBe(mask);
      }
    }
  });

  it('leaves every function module alone and masks the data modules by the Table 10 condition', () => {
    const text = 'mask scope';
    const base = encode(text, { ecc: 'M', minVersion: 8, mask: 0 });
    const n = base.size;
    const conditions = [
      (i: number, j: number) => (i + j) % 2 === 0,
      (i: number) => i % 2 === 0,
      (_: number, j: number) => j % 3 === 0,
      (i: number, j: number) => (i + j) % 3 === 0,
      (i: number, j: number) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
      (i: number, j: number) => ((i * j) % 2) + ((i * j) % 3) === 0,
      (i: number, j: number) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
      (i: number, j: number) => (((i + j) % 2) + ((i * j) % 3)) % 2 === 0,
    ];
    for (let mask = 1; mask < 8; mask++) {
      const s = encode(text, { ecc: 'M', minVersion: 8, mask });
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const k = i * n + j;
          if (s.roles[k] === ModuleRole.Format) continue;
          // mask k vs mask 0: the data bit is the same, so the difference is condition(k) xor condition(0).
          const expected =
            s.roles[k] === ModuleRole.Data
              ? base.modules[k] ^ +conditions[0](i, j) ^ +conditions[mask](i, j)
              : base.modules[k];
          expect(s.modules[k], `mask ${mask} (${i}, ${j})`).toBe(expected);
        }
      }
    }
  });
});
