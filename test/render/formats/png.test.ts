import { inflateSync } from 'node:zlib';
import decodePng from '@jsquash/png/decode.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseHex, type Rgba } from '../../../src/model/color.js';
import type { Raster, RgbaRaster } from '../../../src/model/raster.js';
import { encodePng } from '../../../src/render/formats/png.js';
import { toRgba } from '../../../src/render/raster.js';
import { loadResvg, rasterizeSvg } from '../../../src/render/resvg.js';
import { codecs, initWasm } from '../../../wasm/index.js';
import { seededRandom } from '../../helpers/seeded-random.js';

beforeAll(async () => {
  await initWasm();
  await loadResvg();
  await codecs.pngDecoder.ready();
});

/** Reads IHDR and inflates IDAT of a PNG, independently of the writer. */
function readPng(png: Uint8Array) {
  const b = Buffer.from(png);
  expect(b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))).toBe(true);
  const chunks: Record<string, Buffer[]> = {};
  for (let o = 8; o < b.length; ) {
    const len = b.readUInt32BE(o);
    const type = b.toString('latin1', o + 4, o + 8);
    chunks[type] ??= [];
    chunks[type].push(b.subarray(o + 8, o + 8 + len));
    o += 12 + len;
  }
  const ihdr = chunks.IHDR![0]!;
  return {
    width: ihdr.readUInt32BE(0),
    height: ihdr.readUInt32BE(4),
    bitDepth: ihdr[8]!,
    colorType: ihdr[9]!,
    chunks,
    raw: inflateSync(Buffer.concat(chunks.IDAT!)),
  };
}

/**
 * Decodes a PNG to straight RGBA by the book (PNG spec §9 filters, §7 packing), for the colour types and
 * depths the writer uses; also returns the filter type of every row.
 */
function decodeByHand(png: Uint8Array): { rgba: Uint8Array; filters: number[] } {
  const { width, height, bitDepth, colorType, chunks, raw } = readPng(png);
  const channels = { 2: 3, 3: 1, 6: 4 }[colorType]!;
  const bpp = Math.max(1, (channels * bitDepth) / 8);
  const rowBytes = Math.ceil((width * channels * bitDepth) / 8);
  expect(raw.length).toBe((rowBytes + 1) * height);
  const rows = new Uint8Array(rowBytes * height);
  const filters: number[] = [];
  for (let y = 0; y < height; y++) {
    const f = raw[y * (rowBytes + 1)]!;
    filters.push(f);
    for (let i = 0; i < rowBytes; i++) {
      const a = i >= bpp ? rows[y * rowBytes + i - bpp]! : 0;
      const b = y > 0 ? rows[(y - 1) * rowBytes + i]! : 0;
      const c = i >= bpp && y > 0 ? rows[(y - 1) * rowBytes + i - bpp]! : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][f]!;
      rows[y * rowBytes + i] = (raw[y * (rowBytes + 1) + 1 + i]! + predictor) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  const plte = chunks.PLTE?.[0];
  const trns = chunks.tRNS?.[0];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (colorType === 3) {
        const bit = x * bitDepth;
        const k = (rows[y * rowBytes + (bit >> 3)]! >> (8 - bitDepth - (bit & 7))) & ((1 << bitDepth) - 1);
        rgba.set([plte![k * 3]!, plte![k * 3 + 1]!, plte![k * 3 + 2]!, trns?.[k] ?? 255], o);
      } else {
        const s = y * rowBytes + x * channels;
        rgba.set([rows[s]!, rows[s + 1]!, rows[s + 2]!, channels === 4 ? rows[s + 3]! : 255], o);
      }
    }
  }
  return { rgba, filters };
}

/** Encodes, then decodes with the hand decoder and with the Rust `png` crate (jsquash): both must give back the raster. */
async function roundTrip(r: Raster) {
  const png = encodePng(r);
  const expected = Buffer.from(toRgba(r));
  const byHand = decodeByHand(png);
  expect(Buffer.from(byHand.rgba).equals(expected)).toBe(true);
  const img = await decodePng(png.slice().buffer);
  expect([img.width, img.height]).toEqual([r.width, r.height]);
  expect(Buffer.from(img.data).equals(expected)).toBe(true);
  return { ...readPng(png), filters: byHand.filters, png };
}

/** An opaque raster of random colours (far more than 256 of them when it has enough pixels). */
function noise(width: number, height: number, seed: number): RgbaRaster {
  const next = seededRandom(seed);
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i & 3) === 3 ? 255 : Math.floor(next() * 256);
  return { kind: 'rgba', width, height, pixels };
}

const ODD_SIZES: [number, number][] = [
  [1, 300],
  [3, 97],
  [5, 61],
  [7, 41],
  [13, 23],
  [257, 2],
  [801, 3],
];

describe('png writer', () => {
  const palette = [parseHex('#ffffff'), parseHex('#000000')];
  it('two colours → 1-bit palette, rows packed MSB first behind filter None', () => {
    const pixels = Uint8Array.from([1, 0, 0, 0, 0, 0, 0, 0, 1, /* row 2 */ 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    const png = readPng(encodePng({ kind: 'indexed', width: 9, height: 2, pixels, palette }));
    expect(png).toMatchObject({ width: 9, height: 2, bitDepth: 1, colorType: 3 });
    expect(png.chunks.tRNS).toBeUndefined();
    // Each row: filter byte 0 (None), then the indices packed MSB first, the last byte padded with zeros.
    expect([...png.raw]).toEqual([0, 0x80, 0x80, 0, 0x40, 0x00]);
    // A repeated row (copied from the one above when packing) is the same row again.
    const repeated = Uint8Array.from([1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    expect([...readPng(encodePng({ kind: 'indexed', width: 9, height: 3, pixels: repeated, palette })).raw]).toEqual([
      0, 0x80, 0x80, 0, 0x80, 0x80, 0, 0x40, 0x00,
    ]);
  });

  it('translucent palette entries get a tRNS chunk', () => {
    const png = readPng(
      encodePng({
        kind: 'indexed',
        width: 2,
        height: 1,
        pixels: Uint8Array.from([0, 1]),
        palette: [parseHex('#ffffff00'), parseHex('#000000cc')],
      }),
    );
    expect([...png.chunks.tRNS![0]!]).toEqual([0, 0xcc]);
  });

  it('RGBA with few colours is indexed; with many it stays truecolour', () => {
    const few = new Uint8Array(4 * 4 * 4).fill(255);
    few.set([255, 0, 0, 255], 0);
    few.set([0, 255, 0, 255], 4);
    expect(readPng(encodePng({ kind: 'rgba', width: 4, height: 4, pixels: few })).bitDepth).toBe(2);
    const many = new Uint8Array(32 * 32 * 4);
    for (let i = 0; i < 32 * 32; i++) many.set([i & 0xff, i >> 8, 7, 255], i * 4);
    const png = readPng(encodePng({ kind: 'rgba', width: 32, height: 32, pixels: many }));
    expect(png).toMatchObject({ bitDepth: 8, colorType: 2 });
    expect(png.raw.length).toBe(32 * (1 + 32 * 3));
  });

  it('opaque truecolour is RGB, filter None, pixel for pixel, at odd widths', async () => {
    for (const [i, [w, h]] of ODD_SIZES.entries()) {
      const png = await roundTrip(noise(w, h, i + 1));
      expect(png, `${w}×${h}`).toMatchObject({ width: w, height: h, bitDepth: 8, colorType: 2 });
      expect(new Set(png.filters)).toEqual(new Set([0]));
    }
  });

  it('translucent truecolour is RGBA, wherever the first translucent pixel is, and keeps the colour of transparent pixels', async () => {
    for (const [i, [w, h]] of ODD_SIZES.entries()) {
      const n = w * h;
      // First pixel, a middle one, the very last one (every row packed as RGB before it is found).
      for (const at of [0, n >> 1, n - 1]) {
        const r = noise(w, h, 100 + i);
        r.pixels[at * 4 + 3] = at === 0 ? 0 : 128;
        const png = await roundTrip(r);
        expect(png, `${w}×${h}, translucent pixel ${at}`).toMatchObject({ bitDepth: 8, colorType: 6 });
      }
    }
  });

  it('palettes of every depth round-trip at odd widths: indexed rasters and RGBA with at most 256 colours', async () => {
    const next = seededRandom(7);
    for (const colours of [2, 3, 4, 5, 16, 17, 256]) {
      const palette: Rgba[] = Array.from({ length: colours }, (_, k) => ({
        r: k,
        g: (k * 7) & 0xff,
        b: 255 - k,
        a: k % 3 ? 255 : k,
      }));
      for (const [w, h] of ODD_SIZES) {
        const pixels = Uint8Array.from({ length: w * h }, () => Math.floor(next() * colours));
        const indexed = await roundTrip({ kind: 'indexed', width: w, height: h, pixels, palette });
        expect(indexed).toMatchObject({
          colorType: 3,
          bitDepth: colours <= 2 ? 1 : colours <= 4 ? 2 : colours <= 16 ? 4 : 8,
        });
        const rgba: RgbaRaster = {
          kind: 'rgba',
          width: w,
          height: h,
          pixels: new Uint8Array(toRgba({ kind: 'indexed', width: w, height: h, pixels, palette }).buffer),
        };
        expect((await roundTrip(rgba)).colorType).toBe(3);
      }
    }
  });

  it('a sparse palette (levels) keeps only the entries its pixels use, at the depth they need, at odd widths', async () => {
    // Runs of background (0) and foreground (255), which the kernel takes sixteen at a time, and between
    // them a few levels of the 256 (canvas.ts, Levels).
    const palette: Rgba[] = Array.from({ length: 256 }, (_, l) => ({
      r: 255 - l,
      g: 248 - ((l * 7) >> 3),
      b: 225 - (l >> 1),
      a: 255,
    }));
    const next = seededRandom(13);
    for (const between of [0, 1, 12, 15, 200]) {
      const levels = Array.from({ length: between }, () => 1 + Math.floor(next() * 254));
      for (const [w, h] of [...ODD_SIZES, [101, 129]] as const) {
        const pixels = new Uint8Array(w * h);
        for (let i = 0; i < pixels.length; ) {
          const level =
            levels.length > 0 && next() < 0.3 ? levels[Math.floor(next() * levels.length)]! : next() < 0.5 ? 0 : 255;
          for (let run = 1 + Math.floor(next() * 40); run > 0 && i < pixels.length; run--) pixels[i++] = level;
        }
        const used = new Set(pixels).size;
        const r = await roundTrip({ kind: 'indexed', width: w, height: h, pixels, palette, sparse: true });
        expect(r.chunks.PLTE![0]!.length, `${w}×${h}`).toBe(used * 3);
        expect(r.bitDepth, `${w}×${h}, ${used} levels`).toBe(used <= 2 ? 1 : used <= 4 ? 2 : used <= 16 ? 4 : 8);
      }
    }
  });

  it('indexes runs of one colour, changes anywhere in a run, and counts a 257th colour met only in the last pixel', async () => {
    // 256 colours in runs of 1 to 9 pixels (the kernel indexes a run four pixels at a time), at odd widths.
    const next = seededRandom(11);
    for (const [w, h] of [...ODD_SIZES, [101, 129]] as const) {
      const r: RgbaRaster = { kind: 'rgba', width: w, height: h, pixels: new Uint8Array(w * h * 4) };
      for (let i = 0, c = 0; i < w * h; c = (c + 1 + Math.floor(next() * 7)) % 256)
        for (let run = 1 + Math.floor(next() * 9); run > 0 && i < w * h; run--, i++)
          r.pixels.set([c, 255 - c, (c * 5) & 0xff, c % 4 ? 255 : c], i * 4);
      const colours = new Set(new Uint32Array(r.pixels.buffer)).size;
      // The largest image cycles through all 256, so its extra colour is the 257th.
      if (w * h > 10_000) expect(colours).toBe(256);
      const indexed = await roundTrip(r);
      expect(indexed.colorType, `${w}×${h}`).toBe(3);
      expect(indexed.chunks.PLTE![0]!.length).toBe(colours * 3);
      // A colour in none of the rows read first (spread over the image: 101×129 leaves its last row out) is still found.
      r.pixels.set([1, 2, 3, 255], (w * h - 1) * 4);
      const more = new Set(new Uint32Array(r.pixels.buffer)).size;
      expect((await roundTrip(r)).colorType, `${w}×${h}, ${more} colours`).toBe(more > 256 ? 6 : 3);
    }
  });

  it('an anti-aliased gradient drawn by resvg round-trips, opaque and on a transparent background', async () => {
    for (const background of ['<rect width="100%" height="100%" fill="#fff"/>', '']) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="403" height="401">${background}
        <defs><linearGradient id="g" gradientUnits="userSpaceOnUse" x2="403" y2="401"><stop offset="0" stop-color="#0D47A1"/><stop offset="1" stop-color="#E65100"/></linearGradient></defs>
        <g fill="url(#g)">${Array.from({ length: 150 }, (_, k) => `<rect x="${(k * 37) % 390}.5" y="${(k * 53) % 390}.3" width="11" height="11" rx="4"/>`).join('')}</g></svg>`;
      const raster = rasterizeSvg(svg, 403);
      const png = await roundTrip(raster);
      expect(png.colorType).toBe(background ? 2 : 6);
    }
  });
});
