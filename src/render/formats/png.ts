import { crc32 } from 'node:zlib';
import type { Rgba } from '../../model/color.js';
import type { Raster, RgbaRaster } from '../../model/raster.js';
import { kernelFor, kernelWith, reserve, type Kernel } from '../kernel.js';
import { indexInKernel, storedAsIs } from '../palette.js';

export function chunk(type: string, data: Uint8Array): Uint8Array {
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
/** Bytes the kernel's deflate may read past the scanlines, rounded so that its work area starts aligned. */
const SLACK = 24;
/**
 * Earlier positions the deflate's hash table keeps per slot (docs/design-decisions.md, "PNG: our deflate").
 * Anti-aliased palette images repeat a module's shape a few modules away, where only a deeper table finds
 * it: four take a one-colour dots code from 15.1 to 10.6 KB at the same speed. A truecolour gradient
 * repeats at the fixed distances: four would make it a quarter slower for 0.2 %.
 */
const HASH_WAYS = { palette: 4, truecolour: 1 } as const;

function ihdr(width: number, height: number, bitDepth: number, colorType: number): Uint8Array {
  const d = new Uint8Array(13);
  const v = new DataView(d.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  d[8] = bitDepth;
  d[9] = colorType;
  return chunk('IHDR', d);
}

/** The parts as one array that owns its buffer whole. */
export const concat = (parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

/** Whether the `width` indices of row `y` repeat those of the row above. */
const sameAsAbove = (pixels: Uint8Array, y: number, width: number): boolean =>
  Buffer.from(pixels.buffer, pixels.byteOffset + y * width, width).equals(
    Buffer.from(pixels.buffer, pixels.byteOffset + (y - 1) * width, width),
  );

/**
 * Scanlines of palette indices packed at 1, 2, 4 or 8 bits per pixel, MSB first, each behind filter
 * byte 0 (None), laid into the kernel's memory for its deflate. A QR raster repeats each row `modulePx`
 * times: deflate copies a repeated row from the one above in a few bits, and None leaves the bytes of a
 * new row as the module pattern they are, where Up would turn them into differences (docs/design-decisions.md:
 * 1,072 bytes against 1,475 for the standard request).
 */
function indexScanlines(
  pixels: Uint8Array,
  width: number,
  height: number,
  bitDepth: number,
): { k: Kernel; lines: number } {
  const perByte = 8 / bitDepth;
  const stride = scanlineBytes(width, bitDepth);
  const { k, base: lines } = kernelFor(stride * height + SLACK);
  const out = new Uint8Array(k.memory.buffer, lines, stride * height);
  for (let y = 0; y < height; y++) {
    const o = y * stride;
    if (y > 0 && sameAsAbove(pixels, y, width)) {
      out.copyWithin(o, o - stride, o);
      continue;
    }
    out[o] = 0;
    let src = y * width;
    const end = src + width;
    for (let i = o + 1, last = o + stride; i < last; i++) {
      let byte = 0;
      for (let b = 0; b < perByte; b++) byte = (byte << bitDepth) | (src < end ? pixels[src++]! : 0);
      out[i] = byte;
    }
  }
  return { k, lines };
}

const bitDepthOf = (colours: number) => (colours <= 2 ? 1 : colours <= 4 ? 2 : colours <= 16 ? 4 : 8);

/** Bytes of one palette scanline: the filter byte, then the indices packed `bitDepth` bits each. */
const scanlineBytes = (width: number, bitDepth: number) => Math.ceil((width * bitDepth) / 8) + 1;

/**
 * A palette PNG of the packed scanlines at `lines` in `k`'s memory: the PLTE, a tRNS chunk when an entry is
 * translucent, and the scanlines compressed.
 */
function palettePng(k: Kernel, lines: number, palette: Rgba[], width: number, height: number, bitDepth: number) {
  const idat = compress(k, lines, scanlineBytes(width, bitDepth), height, 1, HASH_WAYS.palette);
  const plte = new Uint8Array(palette.length * 3);
  for (const [i, c] of palette.entries()) plte.set([c.r, c.g, c.b], i * 3);
  const parts = [SIGNATURE, ihdr(width, height, bitDepth, COLOR_TYPE.palette), chunk('PLTE', plte)];
  if (palette.some((c) => c.a !== 255))
    parts.push(
      chunk(
        'tRNS',
        Uint8Array.from(palette, (c) => c.a),
      ),
    );
  parts.push(chunk('IDAT', idat), chunk('IEND', new Uint8Array(0)));
  return concat(parts);
}

function encodeIndexed(pixels: Uint8Array, palette: Rgba[], width: number, height: number): Uint8Array<ArrayBuffer> {
  const bitDepth = bitDepthOf(palette.length);
  const { k, lines } = indexScanlines(pixels, width, height, bitDepth);
  return palettePng(k, lines, palette, width, height, bitDepth);
}

/**
 * A palette PNG of a raster of at most 256 colours (an anti-aliased solid-colour design: RGBA, or levels
 * of one colour over another), its scanlines indexed and packed in the kernel (wasm/assembly/palette.ts);
 * null when it has more.
 */
function encodeFewColours(r: Raster): Uint8Array<ArrayBuffer> | null {
  const { width, height } = r;
  const indexed = indexInKernel(r, width + 1, SLACK);
  if (!indexed) return null;
  const { k, lines, palette } = indexed;
  const bitDepth = bitDepthOf(palette.length);
  if (bitDepth < 8) k.packIndices(lines, width, height, bitDepth);
  return palettePng(k, lines, palette, width, height, bitDepth);
}

/**
 * The zlib stream of `height` scanlines of `stride` bytes at `lines` in the kernel's memory, by the
 * kernel's deflate (wasm/assembly/deflate.ts): it tries the distances at which these images repeat (a
 * pixel of `bpp` bytes left, a row up, a row up and a pixel to either side), then a hash table keeping
 * `hashWays` earlier positions per slot, instead of zlib's hash chains.
 * On the bench's styled render it is 1.7× faster than zlib at level 2 and its file is a quarter smaller
 * (docs/design-decisions.md, "PNG: our deflate"). The caller leaves SLACK bytes free after the scanlines.
 */
function compress(k: Kernel, lines: number, stride: number, height: number, bpp: number, hashWays: number): Uint8Array {
  const n = stride * height;
  const work = (lines + n + SLACK) & ~7;
  const out = work + k.DEFLATE_WORK_BYTES.value;
  reserve(k, out + k.deflateBound(n));
  const memory = new Uint8Array(k.memory.buffer);
  // What deflate reads past the end may steer its search, never its output's meaning: zeroed, so the
  // same scanlines always give the same bytes.
  memory.fill(0, lines + n, lines + n + 16);
  const length = k.zlibCompress(lines, n, bpp, stride, hashWays, work, out);
  return memory.subarray(out, out + length);
}

/** The IDAT of a truecolour raster: RGB when every pixel is opaque, else RGBA, its scanlines made in the kernel (wasm/assembly/scanlines.ts). */
function truecolour(r: RgbaRaster): { colorType: number; idat: Uint8Array } {
  const { width, height } = r;
  const { k, pixels, base: lines } = kernelWith(r, (width * 4 + 1) * height + SLACK);
  const opaque = k.rgbScanlines(pixels, width, height, lines);
  if (!opaque) k.rgbaScanlines(pixels, width, height, lines);
  const bpp = opaque ? 3 : 4;
  return {
    colorType: opaque ? COLOR_TYPE.rgb : COLOR_TYPE.rgba,
    idat: compress(k, lines, width * bpp + 1, height, bpp, HASH_WAYS.truecolour),
  };
}

/**
 * A faithful PNG of a raster: 1/2/4/8-bit palette when it has at most 256 colours (with tRNS for
 * translucent ones), else RGB, else RGBA.
 *
 * Every kind is written with filter None and the kernel's deflate (compress, above).
 */
export function encodePng(r: Raster): Uint8Array<ArrayBuffer> {
  if (storedAsIs(r)) return encodeIndexed(r.pixels, r.palette, r.width, r.height);
  const few = encodeFewColours(r);
  if (few) return few;
  if (r.kind === 'indexed') throw new Error('an indexed raster has at most 256 colours');
  const { colorType, idat } = truecolour(r);
  return concat([
    SIGNATURE,
    ihdr(r.width, r.height, 8, colorType),
    chunk('IDAT', idat),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
