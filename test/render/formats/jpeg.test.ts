import decodeJpeg from '@jsquash/jpeg/decode.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { composite, parseHex, WHITE } from '../../../src/model/color.js';
import type { Raster } from '../../../src/model/raster.js';
import { encodeJpg, JPEG_QUALITY, quantTable } from '../../../src/render/formats/jpeg.js';
import { toRgba } from '../../../src/render/raster.js';
import { codecs, initWasm } from '../../../wasm/index.js';
import { roundTrip } from '../../helpers/round-trip.js';

beforeAll(async () => {
  await initWasm();
  await codecs.jpegDecoder.ready();
});

/** The markers of a JPEG up to its scan, read by hand: the frame type, and each component's id, sampling and table. */
function frameOf(file: Uint8Array) {
  expect([file[0], file[1]]).toEqual([0xff, 0xd8]);
  expect([file.at(-2), file.at(-1)]).toEqual([0xff, 0xd9]);
  const markers: number[] = [];
  for (let o = 2; o < file.length; ) {
    expect(file[o]).toBe(0xff);
    const marker = file[o + 1]!;
    markers.push(marker);
    const length = (file[o + 2]! << 8) | file[o + 3]!;
    if (marker >= 0xc0 && marker <= 0xc2) {
      const n = file[o + 9]!;
      const components = Array.from({ length: n }, (_, i) => [...file.subarray(o + 10 + 3 * i, o + 13 + 3 * i)]);
      return {
        marker,
        markers,
        height: (file[o + 5]! << 8) | file[o + 6]!,
        width: (file[o + 7]! << 8) | file[o + 8]!,
        components,
      };
    }
    o += 2 + length;
  }
  throw new Error('no frame header');
}

/** The Huffman tables of a JPEG's DHT segments: class and id (0x00 DC luma, 0x10 AC luma, …) and code counts by length. */
function huffmanTables(file: Uint8Array): { id: number; counts: number[] }[] {
  const tables: { id: number; counts: number[] }[] = [];
  for (let o = 2; file[o + 1] !== 0xda; o += 2 + ((file[o + 2]! << 8) | file[o + 3]!)) {
    if (file[o + 1] !== 0xc4) continue;
    const end = o + 2 + ((file[o + 2]! << 8) | file[o + 3]!);
    for (let p = o + 4; p < end; ) {
      const counts = [...file.subarray(p + 1, p + 17)];
      tables.push({ id: file[p]!, counts });
      p += 17 + counts.reduce((x, y) => x + y);
    }
  }
  return tables;
}

/** PSNR of the decoded pixels against the raster taken over white, over R, G and B. */
function psnr(raster: Raster, decoded: Uint8ClampedArray): number {
  const src = toRgba(raster);
  let se = 0;
  for (let i = 0; i < src.length; i += 4) {
    const c = composite({ r: src[i]!, g: src[i + 1]!, b: src[i + 2]!, a: src[i + 3]! }, WHITE);
    se += (c.r - decoded[i]!) ** 2 + (c.g - decoded[i + 1]!) ** 2 + (c.b - decoded[i + 2]!) ** 2;
  }
  return 10 * Math.log10((255 * 255 * 3 * (src.length / 4)) / Math.max(se, 1e-9));
}

const STANDARD = 'https://example.com/some/path?utm_source=qr&id=12345';
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('JPEG exports decode to their content, byte for byte, with both decoder families', () => {
  const PAIRS = [
    { name: 'black on white', primaryColor: '#000000', backgroundColor: '#ffffff', grey: true, lightOnDark: false },
    { name: 'navy on cream', primaryColor: '#1a237e', backgroundColor: '#fff8e1', grey: false, lightOnDark: false },
    { name: 'light on dark', primaryColor: '#ffeb3b', backgroundColor: '#263238', grey: false, lightOnDark: true },
    { name: 'white on black', primaryColor: '#ffffff', backgroundColor: '#000000', grey: true, lightOnDark: true },
  ];
  const SIZES = [203, 480, 800, 1203];
  for (const pair of PAIRS)
    for (const size of SIZES)
      for (const moduleShape of ['square', 'rounded'] as const)
        it(`${pair.name}, ${size} px, ${moduleShape} modules`, async () => {
          const content = `${STANDARD}&size=${size}`;
          const { out, zxing, zbar } = await roundTrip('jpg', content, size, { ...pair, moduleShape });
          expect(out.corrections).toEqual([]);
          expect(out.verification.decoded).toBe(true);
          const frame = frameOf(out.bytes);
          // Baseline (SOF0), never progressive; one grey component when the design has no colour, else
          // Y, Cb and Cr at full resolution (4:4:4).
          expect(frame.marker).toBe(0xc0);
          expect(frame.markers).not.toContain(0xc2);
          expect([frame.width, frame.height]).toEqual([size, size]);
          expect(frame.components).toEqual(
            pair.grey
              ? [[1, 0x11, 0]]
              : [
                  [1, 0x11, 0],
                  [2, 0x11, 1],
                  [3, 0x11, 1],
                ],
          );
          const expected = Buffer.from(utf8(content));
          expect(Buffer.from(zxing).equals(expected)).toBe(true);
          expect(zbar.map((b) => Buffer.from(b).equals(expected))).toEqual([true]);
        });
});

describe('encodeJpg', () => {
  it('is faithful: one-colour blocks come back as their colour (within YCbCr rounding), edges within 40 dB, translucency over white', async () => {
    const fg = parseHex('#1a237eC0');
    const bg = parseHex('#fff8e100');
    const width = 61;
    const height = 45;
    const pixels = new Uint8Array(width * height);
    // Stripes 16 px wide, so every block at x 0–7 and 16–23 is one colour.
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = (x >> 4) & 1;
    const raster: Raster = { kind: 'indexed', width, height, pixels, palette: [bg, fg] };
    const img = await decodeJpeg(encodeJpg(raster).slice().buffer);
    expect([img.width, img.height]).toEqual([width, height]);
    expect(psnr(raster, img.data)).toBeGreaterThan(40);
    const over = composite(fg, WHITE);
    for (const y of [0, 9, 40])
      for (const [x, c] of [
        [3, WHITE],
        [19, over],
      ] as const) {
        const i = (y * width + x) * 4;
        for (const [got, want] of [
          [img.data[i]!, c.r],
          [img.data[i + 1]!, c.g],
          [img.data[i + 2]!, c.b],
        ])
          expect(Math.abs(got - want)).toBeLessThanOrEqual(1);
      }
  });

  it('limits Huffman codes to 16 bits: symbol counts in the Fibonacci sequence, whose optimal code is 22 deep', async () => {
    // Each block carries one AC coefficient, and so one AC symbol (run, magnitude), besides its EOB: a
    // horizontal or vertical cosine of a known amplitude on mid-grey. Symbol i appears in F(i) blocks.
    const quant = quantTable(JPEG_QUALITY.luma);
    const symbols = [1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 32, 40, 48, 56].flatMap((n) => [2, 3, 4].map((s) => ({ n, s })));
    const counts = [1, 1];
    while (counts.length < 22) counts.push(counts.at(-1)! + counts.at(-2)!);
    const blocks = counts.flatMap((c, i) => Array<(typeof symbols)[number]>(c).fill(symbols[i]!));
    const side = Math.ceil(Math.sqrt(blocks.length)) * 8;
    const pixels = new Uint8Array(side * side * 4).fill(255);
    blocks.forEach(({ n, s }, b) => {
      const x0 = (b % (side / 8)) * 8;
      const y0 = Math.floor(b / (side / 8)) * 8;
      const [u, v] = [n % 8, Math.floor(n / 8)];
      // A one-dimensional cosine of amplitude a has the coefficient 8a/√2: aim at the middle of magnitude category s.
      const a = ((1.5 * 2 ** (s - 1) * quant[n]!) / 8) * Math.SQRT2;
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) {
          const level = Math.round(128 + a * Math.cos(((2 * (u ? x : y) + 1) * (u || v) * Math.PI) / 16));
          pixels.fill(level, ((y0 + y) * side + x0 + x) * 4, ((y0 + y) * side + x0 + x) * 4 + 3);
        }
    });
    const raster: Raster = { kind: 'rgba', width: side, height: side, pixels };
    const file = encodeJpg(raster);
    const ac = huffmanTables(file).find((t) => t.id === 0x10)!;
    // The 22 symbols and EOB, the rarest at 16 bits, where the optimal code would reach 22.
    expect(ac.counts.reduce((x, y) => x + y)).toBeGreaterThan(counts.length);
    expect(ac.counts[15]).toBeGreaterThan(0);
    const img = await decodeJpeg(file.slice().buffer);
    expect(psnr(raster, img.data)).toBeGreaterThan(40);
  });

  it('writes one component for a grey image, three for any colour, and decodes 1×1 and partial blocks', async () => {
    for (const [width, height] of [
      [1, 1],
      [9, 13],
    ] as const) {
      const grey = new Uint8Array(width * height * 4).fill(200);
      const colour = grey.slice();
      colour[0] = 10;
      for (const [pixels, n] of [
        [grey, 1],
        [colour, 3],
      ] as const) {
        const raster: Raster = { kind: 'rgba', width, height, pixels };
        const file = encodeJpg(raster);
        expect(frameOf(file).components.length).toBe(n);
        const img = await decodeJpeg(file.slice().buffer);
        expect([img.width, img.height]).toEqual([width, height]);
        expect(psnr(raster, img.data)).toBeGreaterThan(35);
      }
    }
  });
});
