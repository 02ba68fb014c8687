import qrcode from 'qrcode-generator';
import { describe, expect, it } from 'vitest';
import { ECC_LEVELS, type EccLevel } from '../../src/model/vocabulary.js';
import { encode } from '../../src/qr/encode.js';
import { dataCodewords } from '../../src/qr/version.js';
import { ECC_INDICATOR, randomString, readFormat, rng } from './support.js';

type Mode = 'Numeric' | 'Alphanumeric' | 'Byte';
type TypeNumber = Parameters<typeof qrcode>[0];

const DIGITS = '0123456789'.split('');
// No digits: a long enough digit run inside alphanumeric text is cheaper in numeric mode, and the oracle
// only knows single-segment symbols.
const ALNUM_NO_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:'.split('');
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const LOWER = 'abcdefghijklmnopqrstuvwxyz'.split('');

/**
 * Byte-mode text whose best encoding is a single byte segment: every third character is a lowercase
 * letter, starting with the first, so no run of numeric or alphanumeric characters is long enough to pay
 * for the extra segment headers.
 */
function byteText(r: () => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += i % 3 === 0 ? LOWER[Math.floor(r() * 26)] : PRINTABLE[Math.floor(r() * 95)];
  return s;
}

/** Most characters of `mode` a version holds, from its data capacity and the mode's bit costs. */
function maxChars(version: number, ecc: EccLevel, mode: Mode): number {
  const countBits = { Numeric: [10, 12, 14], Alphanumeric: [9, 11, 13], Byte: [8, 16, 16] }[mode][
    version <= 9 ? 0 : version <= 26 ? 1 : 2
  ];
  const bits = dataCodewords(version, ecc) * 8 - 4 - countBits;
  if (mode === 'Byte') return Math.floor(bits / 8);
  if (mode === 'Alphanumeric') return Math.floor(bits / 11) * 2 + (bits % 11 >= 6 ? 1 : 0);
  return Math.floor(bits / 10) * 3 + (bits % 10 >= 7 ? 2 : bits % 10 >= 4 ? 1 : 0);
}

function compare(text: string, version: number, ecc: EccLevel, mode: Mode): void {
  const q = qrcode(version as TypeNumber, ecc);
  q.addData(text, mode);
  q.make();
  const n = q.getModuleCount();
  const format = readFormat((row, col) => q.isDark(row, col));
  expect(format.ecc).toBe(ECC_INDICATOR[ecc]);

  const s = encode(text, { ecc, minVersion: version, mask: format.mask });
  expect(s.version).toBe(version);
  expect(s.size).toBe(n);
  let mismatches = 0;
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) if ((s.modules[row * n + col] === 1) !== q.isDark(row, col)) mismatches++;
  }
  expect(mismatches, `v${version}-${ecc} ${mode} mask ${format.mask}, ${text.length} chars`).toBe(0);
}

describe('matrix identical to qrcode-generator for single-mode payloads', () => {
  const modes: Mode[] = ['Numeric', 'Alphanumeric', 'Byte'];
  const cases: [number, EccLevel][] = [];
  for (let v = 1; v <= 40; v++) for (const ecc of ECC_LEVELS) cases.push([v, ecc]);

  it.each(cases)('version %i, level %s', (version, ecc) => {
    const r = rng(version * 16 + ECC_LEVELS.indexOf(ecc));
    for (const mode of modes) {
      const max = maxChars(version, ecc, mode);
      // The exact maximum half the time: it fills every data codeword and leaves no room for padding.
      const length = r() < 0.5 ? max : 1 + Math.floor(r() * max);
      const text =
        mode === 'Numeric'
          ? randomString(r, DIGITS, length)
          : mode === 'Alphanumeric'
            ? randomString(r, ALNUM_NO_DIGITS, length)
            : byteText(r, length);
      compare(text, version, ecc, mode);
    }
  });

  it('agrees for short payloads forced into every mask by the oracle', () => {
    const seen = new Set<number>();
    const r = rng(99);
    for (let i = 0; i < 64; i++) {
      const version = 1 + Math.floor(r() * 6);
      const ecc = ECC_LEVELS[i % 4];
      const text = byteText(r, 1 + Math.floor(r() * 10));
      const q = qrcode(version as TypeNumber, ecc);
      q.addData(text, 'Byte');
      q.make();
      seen.add(readFormat((row, col) => q.isDark(row, col)).mask);
      compare(text, version, ecc, 'Byte');
    }
    // The oracle picks its own masks; make sure the sample exercised most of them.
    expect(seen.size).toBeGreaterThanOrEqual(6);
  });
});
