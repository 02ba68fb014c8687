/**
 * The PNG writer as of 4bf3b3c (before the truecolour path was rewritten for speed), kept verbatim except
 * for exports so bench/png.bench.ts can time it, and its stages, beside the current one in the same run.
 */
import { deflateSync } from 'node:zlib';
import type { Rgba } from '../src/render/color.js';
import type { Raster } from '../src/render/raster.js';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
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
export function idat(raw: Uint8Array, rowBytes: number, height: number): Uint8Array {
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
export function toPalette(rgba: Uint8Array): { pixels: Uint8Array; palette: Rgba[] } | null {
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
 * The smallest faithful PNG of a raster: 1/2/4/8-bit palette when it has at most 256 colours (with
 * tRNS for translucent ones), else RGB, else RGBA.
 */
export function encodePngBefore(r: Raster): Uint8Array {
  if (r.kind === 'indexed') return encodeIndexed(r.pixels, r.palette, r.width, r.height);
  const indexed = toPalette(r.pixels);
  if (indexed) return encodeIndexed(indexed.pixels, indexed.palette, r.width, r.height);
  let opaque = true;
  for (let i = 3; i < r.pixels.length; i += 4) if (r.pixels[i] !== 255) { opaque = false; break; }
  if (!opaque) return concat([SIGNATURE, ihdr(r.width, r.height, 8, COLOR_TYPE.rgba), idat(r.pixels, r.width * 4, r.height), chunk('IEND', new Uint8Array(0))]);
  const rgb = new Uint8Array(r.width * r.height * 3);
  for (let i = 0, j = 0; i < r.pixels.length; i += 4, j += 3) { rgb[j] = r.pixels[i]!; rgb[j + 1] = r.pixels[i + 1]!; rgb[j + 2] = r.pixels[i + 2]!; }
  return concat([SIGNATURE, ihdr(r.width, r.height, 8, COLOR_TYPE.rgb), idat(rgb, r.width * 3, r.height), chunk('IEND', new Uint8Array(0))]);
}
