import encodeWebp from '@jsquash/webp/encode.js';
import { codecs } from '../../../wasm/index.js';
import type { Rgba } from '../../model/color.js';
import type { Raster } from '../../model/raster.js';
import { kernelFor } from '../kernel.js';
import { paletteOf } from '../palette.js';
import { toRgba } from '../raster.js';

/** libwebp's lossy quality for images of more than 256 colours (a gradient, a photo behind the code). */
const WEBP_QUALITY = 90;

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/**
 * A lossless WebP of a palette image, the VP8L bitstream written by our kernel (wasm/assembly/webp.ts):
 * the colour-indexing transform and backward references, no other transform. libwebp took 13–30 times
 * as long for the same images, mostly choosing among transforms a palette image does not need, for files
 * of about the same size (bench/README.md, "`npm run bench:lossy`").
 */
function losslessWebp(pixels: Uint8Array, palette: Rgba[], width: number, height: number): Uint8Array {
  const colours = palette.length;
  const sizes = kernelFor(0).k;
  const workBytes = sizes.vp8lWorkBytes(width, height, colours);
  const outBytes = sizes.vp8lOutputBytes(width, height, colours);
  // The indices, the palette (ARGB words), the work area, then the output.
  const indexBytes = (pixels.length + 15) & ~15;
  const { k, base } = kernelFor(indexBytes + 1024 + workBytes + outBytes);
  const memory = new Uint8Array(k.memory.buffer);
  memory.set(pixels, base);
  const words = new DataView(k.memory.buffer, base + indexBytes, 1024);
  for (const [i, c] of palette.entries())
    words.setUint32(i * 4, ((c.a << 24) | (c.r << 16) | (c.g << 8) | c.b) >>> 0, true);
  const work = base + indexBytes + 1024;
  const out = work + workBytes;
  const length = k.vp8lEncode(base, width, height, base + indexBytes, colours, work, out);
  const file = new Uint8Array(20 + length + (length & 1));
  const view = new DataView(file.buffer);
  file.set(ascii('RIFF'), 0);
  view.setUint32(4, file.length - 8, true);
  file.set(ascii('WEBPVP8L'), 8);
  view.setUint32(16, length, true);
  file.set(memory.subarray(out, out + length), 20);
  return file;
}

/**
 * A WebP of a raster: lossless when it has at most 256 colours (every solid-colour design, anti-aliased
 * edges included), which is exact and several times smaller than lossy for these images; anything with
 * more colours (a gradient, a background image) lossy at quality 90, by libwebp.
 */
export async function encodeWebpImage(r: Raster): Promise<Uint8Array> {
  const indexed = paletteOf(r);
  if (indexed) return losslessWebp(indexed.pixels, indexed.palette, r.width, r.height);
  await codecs.webpEncoder.ready();
  const data = toRgba(r);
  // exact: libwebp would otherwise replace the colour under transparent pixels (the background's, which
  // a reader ignoring alpha sees) with whatever compresses best.
  const buf = await encodeWebp({ data, width: r.width, height: r.height, colorSpace: 'srgb' } as ImageData, {
    quality: WEBP_QUALITY,
    exact: 1,
  });
  return new Uint8Array(buf);
}
