import decodeJpeg from '@jsquash/jpeg/decode.js';
import decodePng from '@jsquash/png/decode.js';
import decodeWebp from '@jsquash/webp/decode.js';
import { codecs } from '../../wasm/index.js';
import omggif from 'omggif';
import { ApiError } from '../errors.js';
import type { RgbaRaster } from '../model/raster.js';
import { BmpError, decodeBmp } from './bmp.js';
import { declaredSize, type Size } from './dimensions.js';
import { sniffImageType, type ImageType } from './sniff.js';

/**
 * Largest image decoded: 8192 px a side and 40 megapixels (160 MB of RGBA), checked from the header before
 * anything is allocated. A 10 MB file can declare far more than that (a PNG or GIF of one colour
 * compresses about 1000:1), and the decoders would allocate whatever it declares.
 */
export const IMAGE_LIMITS = { side: 8192, pixels: 40_000_000 } as const;

const NAMES: Record<ImageType, string> = { png: 'PNG', jpg: 'JPEG', gif: 'GIF', bmp: 'BMP', webp: 'WebP' };

const invalid = (field: string, why: string) =>
  new ApiError('INVALID_FIELD_VALUE', { message: `${field} ${why}`, field });

function checkSize(size: Size, field: string): void {
  const { width, height } = size;
  if (width > IMAGE_LIMITS.side || height > IMAGE_LIMITS.side || width * height > IMAGE_LIMITS.pixels) {
    throw invalid(
      field,
      `is ${width}×${height} px; at most ${IMAGE_LIMITS.side} px a side and ${IMAGE_LIMITS.pixels / 1e6} megapixels.`,
    );
  }
}

const fromImageData = (img: ImageData): RgbaRaster => ({
  kind: 'rgba',
  width: img.width,
  height: img.height,
  pixels: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength),
});

/** The first frame, over a transparent logical screen; later frames of an animation are ignored. */
function decodeGif(b: Uint8Array, field: string): RgbaRaster {
  const reader = new omggif.GifReader(b);
  // The frame is decoded at its own size before it is placed on the screen, so it is bounded too.
  checkSize(reader.frameInfo(0), field);
  const pixels = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, pixels);
  return { kind: 'rgba', width: reader.width, height: reader.height, pixels };
}

/**
 * Decodes a JPEG or WebP: an upload, or a file the pipeline produced, so the verifier reads exactly what
 * the client receives.
 */
export async function decodeLossy(format: 'jpg' | 'webp', bytes: Uint8Array): Promise<RgbaRaster> {
  await (format === 'jpg' ? codecs.jpegDecoder : codecs.webpDecoder).ready();
  const copy = bytes.slice().buffer;
  const img = format === 'jpg' ? await decodeJpeg(copy) : await decodeWebp(copy);
  return {
    kind: 'rgba',
    width: img.width,
    height: img.height,
    pixels: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength),
  };
}

const DECODERS: Record<ImageType, (b: Uint8Array, field: string) => RgbaRaster | Promise<RgbaRaster>> = {
  png: async (b) => {
    await codecs.pngDecoder.ready();
    return fromImageData(await decodePng(b.slice().buffer));
  },
  jpg: (b) => decodeLossy('jpg', b),
  webp: (b) => decodeLossy('webp', b),
  gif: decodeGif,
  bmp: decodeBmp,
};

/**
 * Decodes an uploaded or fetched logo or background (PNG, JPEG, GIF's first frame, BMP, WebP) to
 * straight-alpha RGBA. Anything unreadable or too large is the client's error, named by `field`.
 */
export async function decodeImage(bytes: Uint8Array, field: string): Promise<RgbaRaster> {
  const type = sniffImageType(bytes);
  if (!type) throw invalid(field, 'is not a PNG, JPG, GIF, BMP or WebP image.');
  const size = declaredSize(type, bytes);
  if (!size || size.width === 0 || size.height === 0) throw invalid(field, `is not a readable ${NAMES[type]} image.`);
  checkSize(size, field);
  let image: RgbaRaster;
  try {
    image = await DECODERS[type](bytes, field);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw invalid(
      field,
      e instanceof BmpError
        ? `is a BMP this service cannot read (${e.message}).`
        : `could not be decoded as ${NAMES[type]}.`,
    );
  }
  if (image.width === 0 || image.height === 0) throw invalid(field, `is an empty ${NAMES[type]} image.`);
  return image;
}
