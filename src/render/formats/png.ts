import { crc32, deflateSync } from 'node:zlib';
import type { Rgba } from '../color.js';
import { kernelWith, reserve } from '../kernel.js';
import type { Raster, RgbaRaster } from '../raster.js';

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

const SIGNATURE = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]);
const COLOR_TYPE = { palette: 3, rgb: 2, rgba: 6 } as const;

function ihdr(width: number, height: number, bitDepth: number, colorType: number): Uint8Array {
  const d = new Uint8Array(13);
  const v = new DataView(d.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  d[8] = bitDepth;
  d[9] = colorType;
  return chunk('IHDR', d);
}

const sameRow = (a: Uint8Array, start: number, prev: number, len: number): boolean =>
  Buffer.from(a.buffer, a.byteOffset + start, len).equals(Buffer.from(a.buffer, a.byteOffset + prev, len));

/**
 * Filters every scanline with "Up" (type 2): a QR raster repeats each row `modulePx` times, so Up turns
 * the repeats into rows of zeros that deflate to almost nothing (and a repeated row needs no arithmetic).
 * Level 6: level 9 saves about 3 % of an already tiny file for twice the time.
 */
function idat(raw: Uint8Array, rowBytes: number, height: number): Uint8Array {
  const filtered = new Uint8Array((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) {
    const o = y * (rowBytes + 1);
    const r = y * rowBytes;
    filtered[o] = 2;
    if (y === 0) filtered.set(raw.subarray(0, rowBytes), o + 1);
    else if (!sameRow(raw, r, r - rowBytes, rowBytes)) {
      for (let i = 0; i < rowBytes; i++) filtered[o + 1 + i] = (raw[r + i]! - raw[r - rowBytes + i]!) & 0xff;
    }
  }
  return chunk('IDAT', deflateSync(filtered, { level: 6 }));
}

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};

/** Packs palette indices at 1, 2, 4 or 8 bits per pixel, rows padded to whole bytes, MSB first. */
function packIndices(pixels: Uint8Array, width: number, height: number, bitDepth: number): { raw: Uint8Array; rowBytes: number } {
  if (bitDepth === 8) return { raw: pixels, rowBytes: width };
  const perByte = 8 / bitDepth;
  const rowBytes = Math.ceil(width / perByte);
  const raw = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    let src = y * width;
    if (y > 0 && sameRow(pixels, src, src - width, width)) {
      raw.copyWithin(y * rowBytes, (y - 1) * rowBytes, y * rowBytes);
      continue;
    }
    const end = src + width;
    for (let o = y * rowBytes, last = o + rowBytes; o < last; o++) {
      let byte = 0;
      for (let k = 0; k < perByte; k++) byte = (byte << bitDepth) | (src < end ? pixels[src++]! : 0);
      raw[o] = byte;
    }
  }
  return { raw, rowBytes };
}

function encodeIndexed(pixels: Uint8Array, palette: Rgba[], width: number, height: number): Uint8Array {
  const bitDepth = palette.length <= 2 ? 1 : palette.length <= 4 ? 2 : palette.length <= 16 ? 4 : 8;
  const plte = new Uint8Array(palette.length * 3);
  palette.forEach((c, i) => plte.set([c.r, c.g, c.b], i * 3));
  const parts = [SIGNATURE, ihdr(width, height, bitDepth, COLOR_TYPE.palette), chunk('PLTE', plte)];
  if (palette.some((c) => c.a !== 255)) parts.push(chunk('tRNS', Uint8Array.from(palette, (c) => c.a)));
  const { raw, rowBytes } = packIndices(pixels, width, height, bitDepth);
  parts.push(idat(raw, rowBytes, height), chunk('IEND', new Uint8Array(0)));
  return concat(parts);
}

/** Indexes an RGBA image when it has at most 256 distinct colours; null when it has more. */
function toPalette(rgba: Uint8Array): { pixels: Uint8Array; palette: Rgba[] } | null {
  const words = new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.byteLength / 4);
  const index = new Map<number, number>();
  const pixels = new Uint8Array(words.length);
  // Neighbouring pixels are nearly always the same colour: reuse the last index before asking the map.
  let last = -1;
  let lastIndex = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w !== last) {
      let k = index.get(w);
      if (k === undefined) {
        if (index.size === 256) return null;
        k = index.size;
        index.set(w, k);
      }
      last = w;
      lastIndex = k;
    }
    pixels[i] = lastIndex;
  }
  const palette = [...index.keys()].map((w) => ({ r: w & 0xff, g: (w >>> 8) & 0xff, b: (w >>> 16) & 0xff, a: w >>> 24 }));
  return { pixels, palette };
}

/**
 * A cheap proof that an RGBA image has more than 256 colours: more than 256 among 64 rows spread over it.
 * An anti-aliased gradient render shows it within about half of them (0.05 ms on the bench's styled
 * raster), where indexing from the top first crosses the quiet zone and reaches colour 257 only 75,000
 * pixels in (0.4 ms).
 */
function over256Colours(rgba: Uint8Array, width: number, height: number): boolean {
  const words = new Int32Array(rgba.buffer, rgba.byteOffset, width * height);
  const seen = new Set<number>();
  const step = Math.max(1, Math.floor(height / 64));
  for (let y = step >> 1; y < height; y += step) {
    let last = ~words[y * width]!;
    for (let i = y * width, end = i + width; i < end; i++) {
      if (words[i] === last) continue;
      last = words[i]!;
      seen.add(last);
      if (seen.size > 256) return true;
    }
  }
  return false;
}

/**
 * The IDAT of a truecolour raster, RGB when every pixel is opaque, else RGBA, made in our WASM kernel:
 * scanlines behind filter byte 0 (wasm/assembly/scanlines.ts) compressed by the kernel's deflate
 * (wasm/assembly/deflate.ts), which tries the distances at which these images repeat (a pixel left, a
 * row up, a row up and a pixel to either side) instead of zlib's hash chains. On the bench's styled
 * render it is 1.7× faster than zlib at level 2 and its file is a quarter smaller (bench/README.md).
 */
function truecolour(r: RgbaRaster): { colorType: number; idat: Uint8Array } {
  const { width, height } = r;
  const most = (width * 4 + 1) * height;
  // Layout: the pixels, then the scanlines (and 16 readable bytes past them), the deflate work area, the
  // compressed stream.
  const scanlines = most + 16 + ((8 - ((most + 16) % 8)) % 8);
  const { k, pixels: src, base: lines } = kernelWith(r, scanlines);
  const work = lines + scanlines;
  const out = work + k.DEFLATE_WORK_BYTES.value;
  reserve(k, out + k.deflateBound(most));
  const memory = new Uint8Array(k.memory.buffer);
  const opaque = k.rgbScanlines(src, width, height, lines);
  if (!opaque) k.rgbaScanlines(src, width, height, lines);
  const stride = width * (opaque ? 3 : 4) + 1;
  // What deflate reads past the end may steer its search, never its output's meaning: zeroed, so the
  // same raster always gives the same bytes.
  memory.fill(0, lines + stride * height, lines + stride * height + 16);
  const length = k.zlibCompress(lines, stride * height, opaque ? 3 : 4, stride, work, out);
  return { colorType: opaque ? COLOR_TYPE.rgb : COLOR_TYPE.rgba, idat: memory.subarray(out, out + length) };
}

/**
 * A faithful PNG of a raster: 1/2/4/8-bit palette when it has at most 256 colours (with tRNS for
 * translucent ones), else RGB, else RGBA.
 *
 * Truecolour is written for speed, with filter None and the kernel's deflate (truecolour, above).
 */
export function encodePng(r: Raster): Uint8Array {
  if (r.kind === 'indexed') return encodeIndexed(r.pixels, r.palette, r.width, r.height);
  const indexed = over256Colours(r.pixels, r.width, r.height) ? null : toPalette(r.pixels);
  if (indexed) return encodeIndexed(indexed.pixels, indexed.palette, r.width, r.height);
  const { colorType, idat } = truecolour(r);
  return concat([SIGNATURE, ihdr(r.width, r.height, 8, colorType), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
}
