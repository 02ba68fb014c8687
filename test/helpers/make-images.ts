/**
 * Test images made in the tests themselves: PNG with the service's own writer, JPEG (mozjpeg) and WebP
 * (libwebp) with the jsquash encoders, GIF and BMP written byte by byte here, independently of the decoders under test.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import encodeJpeg, { init as initJpegEncode } from '@jsquash/jpeg/encode.js';
import encodeWebp from '@jsquash/webp/encode.js';
import type { RgbaRaster } from '../../src/model/raster.js';
import { encodePng } from '../../src/render/formats/png.js';
import { initCodecs } from '../../wasm/index.js';

export type Rgba = [number, number, number, number];

/** A w × h image whose pixel (x, y) is `f(x, y)`. */
export function image(w: number, h: number, f: (x: number, y: number) => Rgba): RgbaRaster {
  const pixels = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) pixels.set(f(x, y), (y * w + x) * 4);
  return { kind: 'rgba', width: w, height: h, pixels };
}

export const pixel = (img: RgbaRaster, x: number, y: number): Rgba =>
  [...img.pixels.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)] as Rgba;

export const RED: Rgba = [220, 20, 20, 255];
export const GREEN: Rgba = [20, 200, 40, 255];
export const BLUE: Rgba = [30, 40, 210, 255];
export const WHITE: Rgba = [255, 255, 255, 255];
export const CLEAR: Rgba = [0, 0, 0, 0];

/** Four quadrants: red, green / blue, white. Flat areas survive lossy codecs well enough to check. */
export const quadrants = (w: number, h: number): RgbaRaster =>
  image(w, h, (x, y) => (y < h / 2 ? (x < w / 2 ? RED : GREEN) : x < w / 2 ? BLUE : WHITE));

const imageData = (r: RgbaRaster) =>
  ({ data: new Uint8ClampedArray(r.pixels), width: r.width, height: r.height, colorSpace: 'srgb' }) as ImageData;

export const png = (r: RgbaRaster): Uint8Array<ArrayBuffer> => encodePng(r);

/** mozjpeg's encoder, from its bytes in node_modules (the service writes JPEGs with its own kernel). */
let mozjpeg: Promise<void> | undefined;
const jpegEncoder = () =>
  (mozjpeg ??= WebAssembly.compile(
    readFileSync(createRequire(import.meta.url).resolve('@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm')),
  ).then((m) => initJpegEncode(m)));

export async function jpeg(r: RgbaRaster): Promise<Uint8Array<ArrayBuffer>> {
  await jpegEncoder();
  return new Uint8Array(await encodeJpeg(imageData(r), { quality: 95 }));
}

export async function webp(r: RgbaRaster, lossless = false): Promise<Uint8Array<ArrayBuffer>> {
  await initCodecs();
  return new Uint8Array(await encodeWebp(imageData(r), lossless ? { lossless: 1 } : { quality: 95 }));
}

const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];

/** Distinct colours of an image, in order of first appearance, and each pixel's index among them. */
function indexed(r: RgbaRaster): { palette: Rgba[]; indices: number[] } {
  const palette: Rgba[] = [];
  const keys = new Map<string, number>();
  const indices: number[] = [];
  for (let i = 0; i < r.width * r.height; i++) {
    const c = [...r.pixels.subarray(i * 4, i * 4 + 4)] as Rgba;
    const k = c.join();
    if (!keys.has(k)) {
      keys.set(k, palette.length);
      palette.push(c);
    }
    indices.push(keys.get(k)!);
  }
  return { palette, indices };
}

/**
 * LZW without compression: a clear code every 2^min − 2 literals keeps the code width at min + 1 bits
 * (the table never grows far enough to widen it), which any GIF decoder must accept.
 */
function lzwLiterals(indices: number[], min: number): number[] {
  const clear = 1 << min;
  const codes: number[] = [];
  for (let i = 0; i < indices.length; i += clear - 2) codes.push(clear, ...indices.slice(i, i + clear - 2));
  codes.push(clear + 1);
  const bytes: number[] = [];
  let acc = 0,
    bits = 0;
  for (const c of codes) {
    acc |= c << bits;
    bits += min + 1;
    while (bits >= 8) {
      bytes.push(acc & 0xff);
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) bytes.push(acc & 0xff);
  const out = [min];
  for (let i = 0; i < bytes.length; i += 255) out.push(Math.min(255, bytes.length - i), ...bytes.slice(i, i + 255));
  out.push(0);
  return out;
}

/**
 * A GIF89a of the frames given (all the size of the first), one global palette built from their colours;
 * a fully transparent colour becomes the transparent index of each frame's graphic control extension.
 */
export function gif(...frames: RgbaRaster[]): Uint8Array<ArrayBuffer> {
  const all = image(frames[0]!.width, frames[0]!.height * frames.length, (x, y) =>
    pixel(frames[Math.floor(y / frames[0]!.height)]!, x, y % frames[0]!.height),
  );
  const { palette, indices } = indexed(all);
  const sizeBits = Math.max(1, Math.ceil(Math.log2(palette.length)));
  // The colour table is RGB triples: the alpha of a palette entry is carried by the transparent index.
  const table = Array.from({ length: 1 << sizeBits }, (_, i) => palette[i] ?? CLEAR).flatMap((c) => c.slice(0, 3));
  const transparent = palette.findIndex((c) => c[3] === 0);
  const { width: w, height: h } = frames[0]!;
  const bytes = [...Buffer.from('GIF89a'), ...le16(w), ...le16(h), 0xf0 | (sizeBits - 1), 0, 0, ...table];
  frames.forEach((_, f) => {
    bytes.push(0x21, 0xf9, 4, transparent >= 0 ? 1 : 0, 0, 0, Math.max(0, transparent), 0);
    bytes.push(0x2c, ...le16(0), ...le16(0), ...le16(w), ...le16(h), 0);
    bytes.push(...lzwLiterals(indices.slice(f * w * h, (f + 1) * w * h), Math.max(2, sizeBits)));
  });
  bytes.push(0x3b);
  return Uint8Array.from(bytes);
}

export interface BmpSpec {
  bpp: 1 | 4 | 8 | 16 | 24 | 32;
  /** 16 bpp: 5-6-5 masks; 32 bpp: RGBA masks in a V4 header. */
  bitfields?: boolean;
  topDown?: boolean;
  /** The 12-byte OS/2 1.x header (24 bpp or palettes only). */
  core?: boolean;
}

/** A Windows bitmap of `r` written by hand, rows padded to 4 bytes, bottom-up unless `topDown`. */
export function bmp(r: RgbaRaster, spec: BmpSpec): Uint8Array<ArrayBuffer> {
  const { bpp } = spec;
  const { palette, indices } = indexed(r);
  if (bpp <= 8 && palette.length > 1 << bpp) throw new Error(`${palette.length} colours do not fit ${bpp} bits`);
  const masks = bpp === 16 ? [0xf800, 0x07e0, 0x001f, 0] : [0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000];
  const headerSize = spec.core ? 12 : spec.bitfields && bpp === 32 ? 108 : 40;
  const paletteBytes = bpp <= 8 ? (1 << bpp) * (spec.core ? 3 : 4) : 0;
  const maskBytes = spec.bitfields && headerSize === 40 ? 12 : 0;
  const offset = 14 + headerSize + maskBytes + paletteBytes;
  const stride = Math.ceil((r.width * bpp) / 32) * 4;
  const out = new Uint8Array(offset + stride * r.height);
  out.set([...Buffer.from('BM'), ...le32(out.length), 0, 0, 0, 0, ...le32(offset)]);
  const header = spec.core
    ? [...le32(12), ...le16(r.width), ...le16(r.height), ...le16(1), ...le16(bpp)]
    : [
        ...le32(headerSize),
        ...le32(r.width),
        ...le32(spec.topDown ? -r.height : r.height),
        ...le16(1),
        ...le16(bpp),
        ...le32(spec.bitfields ? 3 : 0),
        ...le32(stride * r.height),
        ...le32(2835),
        ...le32(2835),
        ...le32(bpp <= 8 ? 1 << bpp : 0),
        ...le32(0),
      ];
  out.set(header, 14);
  if (spec.bitfields) out.set(masks.slice(0, headerSize === 40 ? 3 : 4).flatMap(le32), 54);
  if (bpp <= 8) {
    for (const [i, [red, g, b]] of palette.entries()) {
      out.set(spec.core ? [b, g, red] : [b, g, red, 0], 14 + headerSize + i * (spec.core ? 3 : 4));
    }
  }
  for (let y = 0; y < r.height; y++) {
    const row = offset + (spec.topDown ? y : r.height - 1 - y) * stride;
    for (let x = 0; x < r.width; x++) {
      const [red, g, b, a] = pixel(r, x, y);
      if (bpp <= 8) {
        const bit = x * bpp;
        out[row + (bit >> 3)]! |= indices[y * r.width + x]! << (8 - bpp - (bit & 7));
      } else if (bpp === 16) {
        const v = spec.bitfields
          ? ((red >> 3) << 11) | ((g >> 2) << 5) | (b >> 3)
          : ((red >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
        out.set(le16(v), row + x * 2);
      } else if (bpp === 24) out.set([b, g, red], row + x * 3);
      else out.set([b, g, red, spec.bitfields ? a : 0], row + x * 4);
    }
  }
  return out;
}
