import encodeWebp from '@jsquash/webp/encode.js';
import { codecs } from '../../../wasm/index.js';
import type { Raster } from '../../model/raster.js';
import { toRgba } from '../raster.js';

const WEBP_QUALITY = 90;

const imageData = (data: Uint8ClampedArray, width: number, height: number) =>
  ({ data, width, height, colorSpace: 'srgb' }) as ImageData;

/**
 * Few-colour images (every flat code) are smaller and faster as lossless WebP; anything photographic
 * (a background image, gradients) is lossy at quality 90.
 */
export async function encodeWebpImage(r: Raster, fewColours: boolean): Promise<Uint8Array> {
  await codecs.webpEncoder();
  const buf = await encodeWebp(
    imageData(toRgba(r), r.width, r.height),
    fewColours ? { lossless: 1, quality: 75, method: 2 } : { quality: WEBP_QUALITY },
  );
  return new Uint8Array(buf);
}
