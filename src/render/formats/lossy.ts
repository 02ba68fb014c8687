import encodeJpeg from '@jsquash/jpeg/encode.js';
import encodeWebp from '@jsquash/webp/encode.js';
import { codecs } from '../../../wasm/index.js';
import { composite, WHITE } from '../../model/color.js';
import type { Raster } from '../../model/raster.js';
import { toRgba } from '../raster.js';

const JPEG_QUALITY = 90;
const WEBP_QUALITY = 90;

const imageData = (data: Uint8ClampedArray, width: number, height: number) =>
  ({ data, width, height, colorSpace: 'srgb' }) as ImageData;

/** JPEG has no alpha: translucent pixels are flattened onto white, as a viewer on a white page sees them. */
function flattenOnWhite(rgba: Uint8ClampedArray): Uint8ClampedArray {
  const out = new Uint8ClampedArray(rgba.length);
  for (let i = 0; i < rgba.length; i += 4) {
    const c = composite({ r: rgba[i]!, g: rgba[i + 1]!, b: rgba[i + 2]!, a: rgba[i + 3]! }, WHITE);
    out[i] = c.r;
    out[i + 1] = c.g;
    out[i + 2] = c.b;
    out[i + 3] = 255;
  }
  return out;
}

export async function encodeJpg(r: Raster): Promise<Uint8Array> {
  await codecs.jpegEncoder();
  const buf = await encodeJpeg(imageData(flattenOnWhite(toRgba(r)), r.width, r.height), { quality: JPEG_QUALITY });
  return new Uint8Array(buf);
}

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
