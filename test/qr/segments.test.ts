import qrcode from 'qrcode-generator';
import { describe, expect, it } from 'vitest';
import { encode, measure } from '../../src/qr/encode.js';
import { MODE_ALPHANUMERIC, MODE_BYTE, MODE_NUMERIC, optimalSegments, type DataMode } from '../../src/qr/segments.js';
import { rng } from './support.js';

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';
const isDigit = (b: number): boolean => b >= 48 && b <= 57;
const isAlnum = (b: number): boolean => ALNUM.includes(String.fromCharCode(b));

// ISO 18004 Table 3 count-field widths per version class, and 7.4.3–7.4.5 data bit costs.
const COUNT: Record<DataMode, number[]> = {
  [MODE_NUMERIC]: [10, 12, 14],
  [MODE_ALPHANUMERIC]: [9, 11, 13],
  [MODE_BYTE]: [8, 16, 16],
};
function segmentBits(mode: DataMode, length: number, cls: number): number {
  const head = 4 + COUNT[mode][cls];
  if (mode === MODE_NUMERIC) return head + 10 * Math.floor(length / 3) + [0, 4, 7][length % 3];
  if (mode === MODE_ALPHANUMERIC) return head + 11 * Math.floor(length / 2) + 6 * (length % 2);
  return head + 8 * length;
}

/** Brute force over segment boundaries: best[i] = cheapest encoding of the first i bytes. O(n²). */
function referenceBits(data: Uint8Array, cls: number): number {
  const best = new Array<number>(data.length + 1).fill(Infinity);
  best[0] = 0;
  for (let j = 0; j < data.length; j++) {
    let numeric = true;
    let alnum = true;
    for (let i = j + 1; i <= data.length; i++) {
      numeric &&= isDigit(data[i - 1]);
      alnum &&= isAlnum(data[i - 1]);
      best[i] = Math.min(best[i], best[j] + segmentBits(MODE_BYTE, i - j, cls));
      if (alnum) best[i] = Math.min(best[i], best[j] + segmentBits(MODE_ALPHANUMERIC, i - j, cls));
      if (numeric) best[i] = Math.min(best[i], best[j] + segmentBits(MODE_NUMERIC, i - j, cls));
    }
  }
  return best[data.length];
}

describe('optimal segmentation', () => {
  it('is exactly optimal, and its segments add up to the bits it claims', () => {
    const r = rng(7);
    // Alphabets biased towards long runs of one class, where mode switches pay off.
    const pools = [
      '0123456789',
      'ABCDEFXYZ $.:',
      'abcdefxyz!?_',
      '0123456789ABCD',
      '01234567890123456789abc',
      '01234AB. xy',
    ];
    for (let t = 0; t < 600; t++) {
      const cls = t % 3;
      let s = '';
      const len = 1 + Math.floor(r() * 120);
      while (s.length < len) {
        const pool = pools[Math.floor(r() * pools.length)];
        const run = 1 + Math.floor(r() * 25);
        for (let i = 0; i < run; i++) s += pool[Math.floor(r() * pool.length)];
      }
      const data = ascii(s);
      const { segments, bits } = optimalSegments(data, cls);
      expect(bits, JSON.stringify(s)).toBe(referenceBits(data, cls));

      let at = 0;
      let sum = 0;
      for (const seg of segments) {
        expect(seg.start).toBe(at);
        expect(seg.end).toBeGreaterThan(seg.start);
        const fits = seg.mode === MODE_NUMERIC ? isDigit : seg.mode === MODE_ALPHANUMERIC ? isAlnum : () => true;
        expect(data.subarray(seg.start, seg.end).every(fits), JSON.stringify(s)).toBe(true);
        sum += segmentBits(seg.mode, seg.end - seg.start, cls);
        at = seg.end;
      }
      expect(at).toBe(data.length);
      expect(sum).toBe(bits);
    }
  });

  it('puts a long digit run inside a URL into numeric mode, beating byte mode', () => {
    const url = 'https://example.com/track?order=' + '31415926535897932384626433832795' + '&ref=x';
    const data = ascii(url);
    const { segments, bits } = optimalSegments(data, 0);
    expect(bits).toBeLessThan(segmentBits(MODE_BYTE, data.length, 0));
    const numeric = segments.filter((s) => s.mode === MODE_NUMERIC);
    expect(numeric).toHaveLength(1);
    expect(url.slice(numeric[0].start, numeric[0].end)).toBe('31415926535897932384626433832795');
  });

  it('is never worse than any single mode, in every version class', () => {
    const r = rng(8);
    // Texts drawn from each alphabet can be written in every mode listed with it: a hundred texts per
    // alphabet, so each single-mode bound is compared a hundred times in each class.
    const alphabets: [string, DataMode[]][] = [
      ['0123456789', [MODE_BYTE, MODE_ALPHANUMERIC, MODE_NUMERIC]],
      ['0123456789ABCXYZ $%*+-./:', [MODE_BYTE, MODE_ALPHANUMERIC]],
      ['0123456789ABCXYZ $%*+-./:abcxyz#&=?', [MODE_BYTE]],
    ];
    for (let t = 0; t < 300; t++) {
      const [chars, modes] = alphabets[t % alphabets.length]!;
      const s = Array.from({ length: 1 + Math.floor(r() * 80) }, () => chars[Math.floor(r() * chars.length)]).join('');
      const data = ascii(s);
      for (let cls = 0; cls < 3; cls++) {
        const { bits } = optimalSegments(data, cls);
        for (const mode of modes)
          expect(bits, `${s} as ${mode}`).toBeLessThanOrEqual(segmentBits(mode, data.length, cls));
      }
    }
  });

  it('segments the ASCII runs of UTF-8 text too, behind the ECI header', () => {
    const text = 'Prix : 12345678901234567890123 €, réf. ABCDEFGHIJKLMNOP';
    const bytes = new TextEncoder().encode(text);
    const { bitsNeeded } = measure(text, 'M');
    // ECI 26 header (12 bits) plus the best mix; plain byte mode would cost 4 + 16 + 8 per byte in class 2.
    expect(bitsNeeded).toBe(12 + referenceBits(bytes, 2));
    expect(bitsNeeded).toBeLessThan(12 + segmentBits(MODE_BYTE, bytes.length, 2));
  });

  it('re-segments per version class, since count fields widen at versions 10 and 27', () => {
    // A 6-digit run between lowercase text: numeric mode saves 48 − (14 + 20 + 12) = 2 bits with the
    // short headers of versions 1–9, and loses 10 with the headers of versions 27–40.
    const text = `${'abc123456'.repeat(20)}abc`;
    const data = ascii(text);
    const numericSegments = (cls: number): number =>
      optimalSegments(data, cls).segments.filter((s) => s.mode === MODE_NUMERIC).length;
    expect(numericSegments(0)).toBe(20);
    expect(numericSegments(2)).toBe(0);
    expect(optimalSegments(data, 0).bits).toBe(referenceBits(data, 0));
    expect(optimalSegments(data, 2).bits).toBe(referenceBits(data, 2));
  });

  it('never needs a larger version than qrcode-generator picks for byte mode', () => {
    const r = rng(9);
    for (let t = 0; t < 40; t++) {
      const s = `https://shop.example/p/${Array.from({ length: 5 + Math.floor(r() * 200) }, () => '0123456789ABCabc/-'[Math.floor(r() * 18)]).join('')}`;
      const q = qrcode(0, 'M');
      q.addData(s, 'Byte');
      q.make();
      const theirs = (q.getModuleCount() - 17) / 4;
      expect(encode(s, { ecc: 'M' }).version).toBeLessThanOrEqual(theirs);
    }
  });
});
