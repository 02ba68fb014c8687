import { describe, expect, it } from 'vitest';
import { ECC_LEVELS } from '../../src/model/vocabulary.js';
import { encode, fits, measure } from '../../src/qr/encode.js';
import { alignmentPositions } from '../../src/qr/matrix.js';
import { DataTooLongError, ModuleRole } from '../../src/qr/types.js';
import { ECC_INDICATOR, darkAt, readFormat } from './support.js';

describe('encode options', () => {
  it('uses the smallest version that fits, or minVersion when larger', () => {
    expect(encode('HELLO', { ecc: 'L' }).version).toBe(1);
    expect(encode('HELLO', { ecc: 'H', minVersion: 17 }).version).toBe(17);
    expect(encode('HELLO', { ecc: 'H', minVersion: 17 }).size).toBe(17 * 4 + 17);
    // 18 bytes do not fit 1-L (17), so minVersion 1 still ends at 2.
    expect(encode('a'.repeat(18), { ecc: 'L', minVersion: 1 }).version).toBe(2);
  });

  it('rejects out-of-range options', () => {
    for (const minVersion of [0, 41, 1.5, Number.NaN])
      expect(() => encode('x', { ecc: 'L', minVersion })).toThrow(RangeError);
    for (const mask of [-1, 8, 2.5]) expect(() => encode('x', { ecc: 'L', mask })).toThrow(RangeError);
  });

  it('writes the requested level into the format information', () => {
    for (const ecc of ECC_LEVELS) {
      const s = encode('LEVEL', { ecc });
      expect(s.ecc).toBe(ecc);
      expect(readFormat(darkAt(s)).ecc).toBe(ECC_INDICATOR[ecc]);
    }
  });

  it('flags an ECI exactly for non-ASCII text', () => {
    expect(encode('plain ASCII ~ \x7f', { ecc: 'M' }).eci).toBe(false);
    expect(encode('café', { ecc: 'M' }).eci).toBe(true);
    expect(encode('😀', { ecc: 'M' }).eci).toBe(true);
  });

  it('encodes the empty string as a version 1 symbol', () => {
    const s = encode('', { ecc: 'M' });
    expect(s.version).toBe(1);
    expect(s.modules).toHaveLength(21 * 21);
  });

  it('returns its own copies, so callers may restyle roles without touching later symbols', () => {
    const a = encode('COPY', { ecc: 'L' });
    a.roles.fill(ModuleRole.Data);
    a.modules.fill(0);
    const b = encode('COPY', { ecc: 'L' });
    expect(b.roles[0]).toBe(ModuleRole.Finder);
    expect(b.modules[0]).toBe(1);
  });
});

describe('fits / measure', () => {
  it('agrees with encode at the version 40 boundary for every level', () => {
    for (const ecc of ECC_LEVELS) {
      const { bitsAvailable } = measure('', ecc);
      // Largest all-digit payload by the measured capacity: 4 + 14 header bits, 10 bits per 3 digits.
      const room = bitsAvailable - 18;
      const max = Math.floor(room / 10) * 3 + (room % 10 >= 7 ? 2 : room % 10 >= 4 ? 1 : 0);
      expect(fits('9'.repeat(max), ecc)).toBe(true);
      expect(encode('9'.repeat(max), { ecc }).version).toBe(40);
      expect(fits('9'.repeat(max + 1), ecc)).toBe(false);
      expect(() => encode('9'.repeat(max + 1), { ecc })).toThrow(DataTooLongError);
    }
  });

  it('counts what the optimal segmentation needs, not the worst mode', () => {
    const digits = measure('1'.repeat(300), 'M').bitsNeeded;
    const bytes = measure('a'.repeat(300), 'M').bitsNeeded;
    expect(digits).toBe(4 + 14 + 100 * 10);
    expect(bytes).toBe(4 + 16 + 300 * 8);
  });
});

describe('module roles', () => {
  const count = (roles: Uint8Array, role: ModuleRole): number => roles.reduce((n, r) => n + (r === role ? 1 : 0), 0);

  it.each([1, 2, 6, 7, 14, 22, 32, 40])('version %i has the standard function-pattern module counts', (v) => {
    const s = encode('ROLES', { ecc: 'M', minVersion: v });
    const n = s.size;
    const a = alignmentPositions(v).length;
    const alignments = a === 0 ? 0 : a * a - 3;
    // Alignment patterns centred on row or column 6 overlap the timing patterns by 5 modules each.
    const onTiming = a < 3 ? 0 : 2 * (a - 2);
    expect(count(s.roles, ModuleRole.Finder)).toBe(3 * 49);
    expect(count(s.roles, ModuleRole.Separator)).toBe(3 * 15);
    expect(count(s.roles, ModuleRole.Alignment)).toBe(25 * alignments);
    expect(count(s.roles, ModuleRole.Timing)).toBe(2 * (n - 16) - 5 * onTiming);
    expect(count(s.roles, ModuleRole.Format)).toBe(30);
    expect(count(s.roles, ModuleRole.DarkModule)).toBe(1);
    expect(count(s.roles, ModuleRole.Version)).toBe(v >= 7 ? 36 : 0);
  });

  it('labels and draws the fixed patterns where ISO 18004 puts them', () => {
    const s = encode('PATTERNS', { ecc: 'Q', minVersion: 10 });
    const n = s.size;
    const at = (row: number, col: number): [number, number] => [s.roles[row * n + col], s.modules[row * n + col]];
    for (const [r0, c0] of [
      [0, 0],
      [0, n - 7],
      [n - 7, 0],
    ]) {
      for (let dy = 0; dy < 7; dy++) {
        for (let dx = 0; dx < 7; dx++) {
          const ring = Math.max(Math.abs(dy - 3), Math.abs(dx - 3));
          expect(at(r0 + dy, c0 + dx)).toEqual([ModuleRole.Finder, ring === 2 ? 0 : 1]);
        }
      }
    }
    expect(at(7, 7)).toEqual([ModuleRole.Separator, 0]);
    expect(at(7, n - 8)).toEqual([ModuleRole.Separator, 0]);
    expect(at(n - 8, 7)).toEqual([ModuleRole.Separator, 0]);
    for (let i = 8; i < n - 8; i++) {
      const row6 = at(6, i);
      const col6 = at(i, 6);
      expect(row6[1]).toBe(i % 2 === 0 ? 1 : 0);
      expect(col6[1]).toBe(i % 2 === 0 ? 1 : 0);
      expect([ModuleRole.Timing, ModuleRole.Alignment]).toContain(row6[0]);
    }
    expect(at(n - 8, 8)).toEqual([ModuleRole.DarkModule, 1]);
    // Version 10: alignment centres 6, 28, 50; (28, 28) is a full pattern with a dark centre.
    expect(at(28, 28)).toEqual([ModuleRole.Alignment, 1]);
    expect(at(27, 28)).toEqual([ModuleRole.Alignment, 0]);
    expect(at(26, 28)).toEqual([ModuleRole.Alignment, 1]);
    expect(at(0, n - 11)[0]).toBe(ModuleRole.Version);
    expect(at(n - 11, 0)[0]).toBe(ModuleRole.Version);
    expect(at(8, 0)[0]).toBe(ModuleRole.Format);
    expect(at(8, n - 1)[0]).toBe(ModuleRole.Format);
    expect(at(n - 1, 8)[0]).toBe(ModuleRole.Format);
  });
});
