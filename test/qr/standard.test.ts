import { describe, expect, it } from 'vitest';
import { ECC_LEVELS, type EccLevel } from '../../src/model/vocabulary.js';
import { interleaveBlocks } from '../../src/qr/blocks.js';
import { encode, encodeData, fits, measure } from '../../src/qr/encode.js';
import { formatBits, versionBits } from '../../src/qr/format.js';
import { alignmentPositions, versionTemplate } from '../../src/qr/matrix.js';
import { reedSolomon } from '../../src/qr/reed-solomon.js';
import { DataTooLongError, ModuleRole } from '../../src/qr/types.js';
import { dataCodewords, ecBlockCount, ecCodewordsPerBlock, totalCodewords } from '../../src/qr/version.js';
import { ECC_INDICATOR, rng } from './support.js';

// GF(256) arithmetic done the slow, obvious way (shift-and-add modulo x^8+x^4+x^3+x^2+1), so the checks
// below do not share the encoder's log/antilog tables.
function gfMul(a: number, b: number): number {
  let p = 0;
  for (; b; b >>>= 1) {
    if (b & 1) p ^= a;
    a <<= 1;
    if (a & 0x100) a ^= 0x11d;
  }
  return p;
}

/** c(α^i) for a codeword c (highest degree first); zero for every i < ecLength iff the RS check holds. */
function syndromes(codeword: number[], ecLength: number): number[] {
  const out: number[] = [];
  let alpha = 1;
  for (let i = 0; i < ecLength; i++) {
    let acc = 0;
    for (const c of codeword) acc = gfMul(acc, alpha) ^ c;
    out.push(acc);
    alpha = gfMul(alpha, 2);
  }
  return out;
}

describe('Reed–Solomon', () => {
  it('reproduces the published "HELLO WORLD" 1-M data and error-correction codewords', () => {
    const { version, eci, codewords } = encodeData('HELLO WORLD', 'M');
    expect(version).toBe(1);
    expect(eci).toBe(false);
    const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
    expect([...codewords]).toEqual(data);
    expect([...interleaveBlocks(codewords, 1, 'M')]).toEqual([...data, 196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
  });

  it('yields zero syndromes for every check-codeword count QR uses', () => {
    const r = rng(1);
    for (const ec of [7, 10, 13, 15, 16, 17, 18, 20, 22, 24, 26, 28, 30]) {
      const data = Uint8Array.from({ length: 5 + Math.floor(r() * 120) }, () => Math.floor(r() * 256));
      const out = new Uint8Array(ec);
      reedSolomon(data, 0, data.length, ec, new Uint8Array(ec), out, 0, 1);
      const word = [...data, ...out];
      expect(syndromes(word, ec), `ec=${ec}`).toEqual(new Array(ec).fill(0));
      // One flipped codeword must show up in the syndromes.
      word[3] ^= 0x40;
      expect(syndromes(word, ec).some((s) => s !== 0)).toBe(true);
    }
  });
});

describe('block structure and interleaving (ISO 18004 Table 9, 7.6)', () => {
  // [version, ecc, [count, data codewords per block] groups, check codewords per block] from Table 9.
  const table9: [number, EccLevel, [number, number][], number][] = [
    [1, 'H', [[1, 9]], 17],
    [
      5,
      'Q',
      [
        [2, 15],
        [2, 16],
      ],
      18,
    ],
    [
      10,
      'M',
      [
        [4, 43],
        [1, 44],
      ],
      26,
    ],
    [
      14,
      'L',
      [
        [3, 115],
        [1, 116],
      ],
      30,
    ],
    [
      26,
      'H',
      [
        [33, 16],
        [4, 17],
      ],
      30,
    ],
    [
      40,
      'L',
      [
        [19, 118],
        [6, 119],
      ],
      30,
    ],
    [
      40,
      'H',
      [
        [20, 15],
        [61, 16],
      ],
      30,
    ],
  ];

  it.each(table9)('v%i-%s splits into the standard blocks', (v, ecc, groups, ec) => {
    expect(ecCodewordsPerBlock(v, ecc)).toBe(ec);
    expect(ecBlockCount(v, ecc)).toBe(groups.reduce((s, [n]) => s + n, 0));
    expect(dataCodewords(v, ecc)).toBe(groups.reduce((s, [n, d]) => s + n * d, 0));
  });

  it('interleaves every version and level so that each de-interleaved block is a valid RS codeword', () => {
    const r = rng(2);
    for (let v = 1; v <= 40; v++) {
      for (const ecc of ECC_LEVELS) {
        const blocks = ecBlockCount(v, ecc);
        const ec = ecCodewordsPerBlock(v, ecc);
        const total = totalCodewords(v);
        const dataLen = total - blocks * ec;
        const data = Uint8Array.from({ length: dataLen }, () => Math.floor(r() * 256));
        const out = interleaveBlocks(data, v, ecc);
        expect(out.length).toBe(total);

        // Rebuild the blocks by reading the output column by column, as a decoder does (7.6).
        const shortData = Math.floor(total / blocks) - ec;
        const longBlocks = total % blocks;
        const lens = Array.from({ length: blocks }, (_, b) => shortData + (b >= blocks - longBlocks ? 1 : 0));
        const parts: number[][] = lens.map(() => []);
        let k = 0;
        for (let i = 0; i <= shortData; i++) for (let b = 0; b < blocks; b++) if (i < lens[b]) parts[b].push(out[k++]);
        expect(parts.flat()).toEqual([...data]);
        for (let i = 0; i < ec; i++) for (let b = 0; b < blocks; b++) parts[b].push(out[k++]);
        for (const p of parts)
          expect(
            syndromes(p, ec).every((s) => s === 0),
            `v${v}-${ecc}`,
          ).toBe(true);
      }
    }
  });
});

describe('format and version information (ISO 18004 Annex C, D)', () => {
  // Annex C Table C.1: masked format bits, indexed by (EC indicator << 3 | mask).
  const formatTable = [
    0x5412, 0x5125, 0x5e7c, 0x5b4b, 0x45f9, 0x40ce, 0x4f97, 0x4aa0, 0x77c4, 0x72f3, 0x7daa, 0x789d, 0x662f, 0x6318,
    0x6c41, 0x6976, 0x1689, 0x13be, 0x1ce7, 0x19d0, 0x0762, 0x0255, 0x0d0c, 0x083b, 0x355f, 0x3068, 0x3f31, 0x3a06,
    0x24b4, 0x2183, 0x2eda, 0x2bed,
  ];
  // Annex D Table D.1, versions 7–40.
  const versionTable = [
    0x07c94, 0x085bc, 0x09a99, 0x0a4d3, 0x0bbf6, 0x0c762, 0x0d847, 0x0e60d, 0x0f928, 0x10b78, 0x1145d, 0x12a17, 0x13532,
    0x149a6, 0x15683, 0x168c9, 0x177ec, 0x18ec4, 0x191e1, 0x1afab, 0x1b08e, 0x1cc1a, 0x1d33f, 0x1ed75, 0x1f250, 0x209d5,
    0x216f0, 0x228ba, 0x2379f, 0x24b0b, 0x2542e, 0x26a64, 0x27541, 0x28c69,
  ];

  it('matches all 32 published format words', () => {
    for (const ecc of ECC_LEVELS) {
      for (let mask = 0; mask < 8; mask++)
        expect(formatBits(ecc, mask)).toBe(formatTable[(ECC_INDICATOR[ecc] << 3) | mask]);
    }
  });

  it('matches all 34 published version words', () => {
    for (let v = 7; v <= 40; v++) expect(versionBits(v)).toBe(versionTable[v - 7]);
  });

  it('draws the version word in both blocks, bit 0 nearest the corner finder', () => {
    for (const v of [7, 21, 40]) {
      const s = encode('VERSION', { ecc: 'L', minVersion: v, mask: 0 });
      const n = s.size;
      let upperRight = 0;
      let lowerLeft = 0;
      // ISO 18004 Figure 27: bit i at row ⌊i/3⌋, column n−11+(i mod 3) (and transposed), bit 17 last.
      for (let i = 17; i >= 0; i--) {
        const a = Math.floor(i / 3);
        const b = n - 11 + (i % 3);
        upperRight = (upperRight << 1) | s.modules[a * n + b];
        lowerLeft = (lowerLeft << 1) | s.modules[b * n + a];
      }
      expect(upperRight).toBe(versionTable[v - 7]);
      expect(lowerLeft).toBe(versionTable[v - 7]);
    }
  });
});

describe('symbol geometry (ISO 18004 Table 1, Annex E)', () => {
  it('has the published total codeword counts', () => {
    const table = [
      26, 44, 70, 100, 134, 172, 196, 242, 292, 346, 404, 466, 532, 581, 655, 733, 815, 901, 991, 1085, 1156, 1258,
      1364, 1474, 1588, 1706, 1828, 1921, 2051, 2185, 2323, 2465, 2611, 2761, 2876, 3034, 3196, 3362, 3532, 3706,
    ];
    expect(Array.from({ length: 40 }, (_, i) => totalCodewords(i + 1))).toEqual(table);
  });

  it('leaves exactly 8 × codewords + remainder bits as data modules', () => {
    const remainder = (v: number): number =>
      v === 1 ? 0 : v <= 6 ? 7 : v <= 13 ? 0 : v <= 20 ? 3 : v <= 27 ? 4 : v <= 34 ? 3 : 0;
    for (let v = 1; v <= 40; v++) {
      const t = versionTemplate(v);
      const dataModules = t.roles.reduce((n, role) => n + (role === ModuleRole.Data ? 1 : 0), 0);
      expect(dataModules, `v${v}`).toBe(8 * totalCodewords(v) + remainder(v));
      expect(t.order.length).toBe(dataModules);
      expect(new Set(t.order).size).toBe(dataModules);
    }
  });

  it('places alignment patterns at the Annex E centres', () => {
    expect(alignmentPositions(1)).toEqual([]);
    expect(alignmentPositions(2)).toEqual([6, 18]);
    expect(alignmentPositions(7)).toEqual([6, 22, 38]);
    expect(alignmentPositions(15)).toEqual([6, 26, 48, 70]);
    expect(alignmentPositions(32)).toEqual([6, 34, 60, 86, 112, 138]);
    expect(alignmentPositions(36)).toEqual([6, 24, 50, 76, 102, 128, 154]);
    expect(alignmentPositions(39)).toEqual([6, 26, 54, 82, 110, 138, 166]);
    expect(alignmentPositions(40)).toEqual([6, 30, 58, 86, 114, 142, 170]);
  });
});

describe('capacity (ISO 18004 Table 7)', () => {
  // Largest numeric / alphanumeric / byte payload per version, levels L, M, Q, H. Versions either side of
  // the count-field width changes (9|10, 26|27) and the extremes.
  const table7: [number, 'numeric' | 'alphanumeric' | 'byte', [number, number, number, number]][] = [
    [1, 'numeric', [41, 34, 27, 17]],
    [1, 'alphanumeric', [25, 20, 16, 10]],
    [1, 'byte', [17, 14, 11, 7]],
    [2, 'numeric', [77, 63, 48, 34]],
    [2, 'alphanumeric', [47, 38, 29, 20]],
    [2, 'byte', [32, 26, 20, 14]],
    [9, 'numeric', [552, 432, 312, 235]],
    [9, 'alphanumeric', [335, 262, 189, 143]],
    [9, 'byte', [230, 180, 130, 98]],
    [10, 'numeric', [652, 513, 364, 288]],
    [10, 'alphanumeric', [395, 311, 221, 174]],
    [10, 'byte', [271, 213, 151, 119]],
    [26, 'numeric', [3283, 2544, 1804, 1425]],
    [26, 'alphanumeric', [1990, 1542, 1094, 864]],
    [26, 'byte', [1367, 1059, 751, 593]],
    [27, 'numeric', [3517, 2701, 1933, 1501]],
    [27, 'alphanumeric', [2132, 1637, 1172, 910]],
    [27, 'byte', [1465, 1125, 805, 625]],
    [40, 'numeric', [7089, 5596, 3993, 3057]],
    [40, 'alphanumeric', [4296, 3391, 2420, 1852]],
    [40, 'byte', [2953, 2331, 1663, 1273]],
  ];
  const fill = { numeric: '7', alphanumeric: 'Q', byte: 'q' } as const;

  it.each(table7)('v%i %s holds exactly the published maximum', (v, mode, caps) => {
    ECC_LEVELS.forEach((ecc, i) => {
      const max = caps[i];
      const text = fill[mode].repeat(max);
      expect(encodeData(text, ecc).version, `${ecc} at max`).toBe(v);
      expect(encodeData(text, ecc, v).version).toBe(v);
      const over = text + fill[mode];
      if (v < 40) expect(encodeData(over, ecc).version, `${ecc} one over`).toBe(v + 1);
      else {
        expect(fits(text, ecc)).toBe(true);
        expect(fits(over, ecc)).toBe(false);
        expect(() => encode(over, { ecc })).toThrow(DataTooLongError);
      }
    });
  });

  it('reports bits needed and available when version 40 is exceeded', () => {
    const over = '1'.repeat(7090);
    const { bitsNeeded, bitsAvailable } = measure(over, 'L');
    // 2956 data codewords at 40-L; 7090 digits: 4 + 14 + 2363 × 10 + 4.
    expect(bitsAvailable).toBe(2956 * 8);
    expect(bitsNeeded).toBe(4 + 14 + 2363 * 10 + 4);
    try {
      encode(over, { ecc: 'L' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DataTooLongError);
      expect((e as DataTooLongError).bitsNeeded).toBe(bitsNeeded);
      expect((e as DataTooLongError).bitsAvailable).toBe(bitsAvailable);
    }
  });

  it('charges UTF-8 payloads the ECI header', () => {
    // 'é' is 2 UTF-8 bytes: ECI (12) + byte header (4 + 16) + 16 per character ≤ 2956 × 8 → at most 1476.
    expect(fits('é'.repeat(1476), 'L')).toBe(true);
    expect(fits('é'.repeat(1477), 'L')).toBe(false);
    expect(measure('é', 'L').bitsNeeded).toBe(12 + 4 + 16 + 16);
    expect(() => encode('é'.repeat(1477), { ecc: 'L', minVersion: 40 })).toThrow(DataTooLongError);
  });
});
