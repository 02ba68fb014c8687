/**
 * The lossy encoders as they were before issue 17, kept for the benchmarks only, to measure before and
 * after in the same run: mozjpeg through @jsquash/jpeg at quality 90 (its defaults: progressive, trellis
 * quantisation, optimised Huffman tables), and libwebp through @jsquash/webp (lossless, method 2, for a
 * flat scene; lossy at quality 90 for anything else).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import encodeJpeg, { init as initJpegEncode } from '@jsquash/jpeg/encode.js';
import encodeWebp from '@jsquash/webp/encode.js';
import { composite, WHITE } from '../src/model/color.js';
import type { Raster } from '../src/model/raster.js';
import { toRgba } from '../src/render/raster.js';
import { codecs } from '../wasm/index.js';

const require = createRequire(import.meta.url);
await initJpegEncode(
  await WebAssembly.compile(readFileSync(require.resolve('@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'))),
);
await codecs.webpEncoder.ready();

const imageData = (data: Uint8ClampedArray, width: number, height: number) =>
  ({ data, width, height, colorSpace: 'srgb' }) as ImageData;

/** RGBA over white, as the JPEG writers take it (the previous writer's own loop). */
export function overWhite(r: Raster): Uint8ClampedArray {
  const rgba = toRgba(r);
  const out = new Uint8ClampedArray(rgba.length);
  for (let i = 0; i < rgba.length; i += 4) {
    const c = composite({ r: rgba[i]!, g: rgba[i + 1]!, b: rgba[i + 2]!, a: rgba[i + 3]! }, WHITE);
    out.set([c.r, c.g, c.b, 255], i);
  }
  return out;
}

export async function previousJpg(r: Raster): Promise<Uint8Array> {
  return new Uint8Array(await encodeJpeg(imageData(overWhite(r), r.width, r.height), { quality: 90 }));
}

export async function previousWebp(r: Raster, flat: boolean): Promise<Uint8Array> {
  const options = flat ? { lossless: 1, quality: 75, method: 2 } : { quality: 90 };
  return new Uint8Array(await encodeWebp(imageData(toRgba(r), r.width, r.height), options));
}
