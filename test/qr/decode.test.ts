import { readFileSync } from 'node:fs';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';
import { beforeAll, describe, expect, it } from 'vitest';
import { ECC_LEVELS, type EccLevel } from '../../src/model/vocabulary.js';
import { encode, encodeData, fits } from '../../src/qr/encode.js';
import type { QrSymbol } from '../../src/qr/types.js';
import { rasterize, rng } from './support.js';

beforeAll(async () => {
  await prepareZXingModule({
    overrides: {
      wasmBinary: readFileSync('node_modules/zxing-wasm/dist/reader/zxing_reader.wasm').buffer as ArrayBuffer,
    },
    fireImmediately: true,
  });
});

async function decode(s: QrSymbol): Promise<ReadResult> {
  const { data, width, height } = rasterize(s);
  const res = await readBarcodes({ data, width, height, colorSpace: 'srgb' } as ImageData, {
    formats: ['QRCode'],
    tryHarder: true,
  });
  expect(res).toHaveLength(1);
  return res[0];
}

const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];
const latin1 = (b: Uint8Array, n: number): string => String.fromCharCode(...b.subarray(0, n));

/** Everything a scanner sees must match what we meant to encode, down to the mask. */
async function roundTrip(text: string, ecc: EccLevel, mask: number, minVersion?: number): Promise<QrSymbol> {
  const s = encode(text, { ecc, mask, minVersion });
  const r = await decode(s);
  const label = `v${s.version}-${ecc} mask ${mask}: ${JSON.stringify(text.slice(0, 40))}`;
  expect(r.text, label).toBe(text);
  expect([...r.bytes], label).toEqual(utf8(text));
  expect(r.version).toBe(String(s.version));
  expect(r.ecLevel).toBe(ecc);
  expect(JSON.parse(r.extra).DataMask).toBe(mask);
  // ISO 15424 transmission: modifier 2 and the ECI escape "\000026" when an ECI is present, 1 otherwise.
  const nonAscii = [...text].some((c) => c.codePointAt(0)! > 0x7f);
  expect(s.eci).toBe(nonAscii);
  expect(r.hasECI, label).toBe(nonAscii);
  if (nonAscii) expect(latin1(r.bytesECI, 10)).toBe(']Q2\\000026');
  else expect(latin1(r.bytesECI, 3)).toBe(']Q1');
  // zxing-cpp reports the plain modifier here even with an ECI; the ECI modifier only shows in bytesECI.
  expect(r.symbologyIdentifier).toBe(']Q1');
  return s;
}

const SAMPLES: Record<string, string> = {
  url: 'https://example.com/some/path?utm_source=qr&id=12345',
  mixed: 'ORDER 12345678901234567890 ref:ABC-99/X qty 3 of widget (blue)',
  specials: 'semi;comma,colon:back\\slash"quote',
  accents: 'Crème brûlée à la carte — déjà vu, naïve façade, Ærøskøbing',
  cjk: '日本語のテキスト、中文字符，한국어 텍스트',
  emoji: '🚀 launch 👩‍👩‍👧‍👦 family 🇯🇵 flag 😀',
  nonAsciiSpecials: 'ü; ä, ö: ß\\ "€"',
  mixedNonAscii: 'Réf. 12345678901234567890 — ÉTÉ 2024 TOTAL: 99.50 EUR',
};
const NAMES = Object.keys(SAMPLES);

/** The longest prefix of `points` (code points, so no surrogate pair is split) that fits `version`. */
function prefixFitting(points: string[], version: number, ecc: EccLevel): string {
  const text = (n: number): string => points.slice(0, n).join('');
  const fitsVersion = (n: number): boolean => fits(text(n), ecc) && encodeData(text(n), ecc).version <= version;
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fitsVersion(mid)) lo = mid;
    else hi = mid - 1;
  }
  return text(lo);
}

/** Random text in the style of a sample, long enough to fill `version` at `ecc` to the last codeword. */
function filling(kind: string, version: number, ecc: EccLevel, seed: number): string {
  const r = rng(seed);
  const alphabet = [...new Set(Array.from(SAMPLES[kind]))];
  // More characters than even all-digit text could put into 40-L (7089); the prefix search cuts it down.
  const points = Array.from({ length: 7200 }, () => alphabet[Math.floor(r() * alphabet.length)]);
  return prefixFitting(points, version, ecc);
}

describe('zxing decodes every version and level', () => {
  const cases: [number, EccLevel][] = [];
  for (let v = 1; v <= 40; v++) for (const ecc of ECC_LEVELS) cases.push([v, ecc]);

  it.each(cases)('version %i, level %s', async (version, ecc) => {
    const e = ECC_LEVELS.indexOf(ecc);
    const kind = NAMES[(version * 4 + e) % NAMES.length];
    const mask = (version + e) % 8;
    // Half the symbols are filled to the brim with random text, half carry a sample (cut to fit) padded out.
    const text =
      (version + e) % 2 === 0
        ? filling(kind, version, ecc, version * 4 + e)
        : prefixFitting(Array.from(SAMPLES[kind]), version, ecc);
    const s = await roundTrip(text, ecc, mask, version);
    expect(s.version).toBe(version);
  });
});

describe('zxing decodes every mask at every level', () => {
  const cases: [EccLevel, number][] = [];
  for (const ecc of ECC_LEVELS) for (let mask = 0; mask < 8; mask++) cases.push([ecc, mask]);

  it.each(cases)('level %s, mask %i', async (ecc, mask) => {
    for (const kind of NAMES) await roundTrip(SAMPLES[kind], ecc, mask);
  });
});

describe('automatic choices decode', () => {
  it('with the lowest-penalty mask and smallest version', async () => {
    for (const kind of NAMES) {
      for (const ecc of ECC_LEVELS) {
        const s = encode(SAMPLES[kind], { ecc });
        const r = await decode(s);
        expect(r.text).toBe(SAMPLES[kind]);
        expect(JSON.parse(r.extra).DataMask).toBe(s.mask);
      }
    }
  });
});
