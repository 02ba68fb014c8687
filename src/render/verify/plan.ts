import { defaultReaderOptions, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import type { Layout } from '../../model/layout.js';
import { fullSize, pixelsOf, type BoxFilter, type GreyImage } from './read.js';
import { type GreyPixels, zbarReads } from './zbar.js';

/**
 * Where a decoder read the code: `reduced`, at its own size and as a phone sees it from afar (the
 * box-filtered reduction); `full`, only at its own size; null, not at all.
 */
export type DecodedAt = 'reduced' | 'full' | null;

/** Pixels per module in the reduced image; enough for zxing, and a quarter of the work of 6. */
const REDUCED_MODULE_PX = 3;
// Polarity is known from the design, so light-on-dark images are inverted here and zxing is spared its
// second, inverted pass (which it runs even after the first pass found the code).
export const FAST: ReaderOptions = {
  formats: ['QRCode'],
  tryHarder: false,
  tryRotate: false,
  tryDownscale: false,
  tryInvert: false,
  maxNumberOfSymbols: 1,
};
/**
 * How a zxing-based reader with default options reads a delivered file (the test suite's independent
 * decoder does exactly this): tryHarder, both polarities, and an image pyramid (below). Stopping at the
 * first symbol changes nothing for a single code: zxing tries the same candidates in the same order.
 */
const AS_DELIVERED: ReaderOptions = { formats: ['QRCode'], tryHarder: true, tryInvert: true, maxNumberOfSymbols: 1 };
/**
 * zxing's pyramid: an image larger than `downscaleThreshold` is also read as a layer box-filtered by
 * `downscaleFactor` (and further layers while they are still larger). From the library, so the verifier
 * follows its defaults.
 */
const { downscaleThreshold: PYRAMID_ABOVE, downscaleFactor: PYRAMID_FACTOR } = defaultReaderOptions;
/**
 * FAST and tryHarder differ, for QR codes, only in how often zxing scans a row for finder patterns: every
 * third row with tryHarder, every max(3, ⌊3 × height / 388⌋)th without, the same rows below this height.
 */
const FAST_SCANS_EVERY_THIRD_ROW_BELOW = 517;

/** The images the verifier reads, all made in one pass over the raster (read.ts, scan). */
export interface ReadPlan {
  /**
   * The box filters to make: the reduction (as a phone sees the code from afar), the farther one of the
   * first scan trial, the same reduction of zbar's grey, and, when zxing would make one of the delivered
   * file, its first pyramid layer.
   */
  boxes: BoxFilter[];
  /** Decoding the reduction alone proves that the delivered image decodes too. */
  farProvesNative: boolean;
  /** zbar must read its grey at full size too (zbarDecodedAt): the raster is anti-aliased and larger than its reduction. */
  zbarNative: boolean;
}

/**
 * Which images to read for a raster of `width`×`height` px drawn at `layout`: `exact` when it is
 * whole-pixel squares (a flat scene), `lightOnDark` when its modules are lighter than its background.
 */
export function planReads(
  layout: Layout,
  width: number,
  height: number,
  exact: boolean,
  lightOnDark: boolean,
): ReadPlan {
  const f = Math.max(1, Math.floor(layout.modulePx / REDUCED_MODULE_PX));
  // Anti-aliased shapes can read differently at another scale, so they must also decode as delivered;
  // unless the raster is flat (see `exact`), or the reduction is the delivered image read as delivered
  // (1:1, dark on light, and FAST scanning the same rows as tryHarder).
  const farProvesNative = exact || (f === 1 && !lightOnDark && height < FAST_SCANS_EVERY_THIRD_ROW_BELOW);
  // zxing makes its first pyramid layer when the image exceeds the threshold; min, not max, so it does
  // however it compares sides.
  const layered = !farProvesNative && Math.min(width, height) > PYRAMID_ABOVE;
  const boxes: BoxFilter[] = [
    { f, invert: lightOnDark },
    { f: Math.max(1, Math.floor(layout.modulePx / 2)), invert: lightOnDark },
    { f, invert: lightOnDark, zbar: true },
  ];
  if (layered) boxes.push({ f: PYRAMID_FACTOR, invert: false });
  // A reduction by 1 (modules under 6 px) is the image itself.
  return { boxes, farProvesNative, zbarNative: !exact && f > 1 };
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Whether zxing, with `options`, finds a code in `image` whose payload is `expected`, byte for byte. */
export async function decodes(image: GreyImage, options: ReaderOptions, expected: Uint8Array): Promise<boolean> {
  const results = await readBarcodes(image.pgm, options);
  return results.some((r) => r.isValid && sameBytes(r.bytes, expected));
}

/**
 * Whether the image decodes to the content as a reader of the delivered file decodes it: AS_DELIVERED, at
 * its own size and on zxing's pyramid. `layer`, when made, is the pyramid's first layer, a ninth of the
 * pixels: it is tried first, and since it is exactly zxing's layer, a code found there is found in the
 * file. The full-size pass, the single most expensive step, is paid only when the layer does not decode
 * or the image is too small to have one. Polarity is left to zxing (tryInvert), as for the file.
 */
export async function decodesAsDelivered(
  layer: GreyImage | null,
  grey: Uint8Array,
  width: number,
  height: number,
  expected: Uint8Array,
): Promise<boolean> {
  if (!layer) return decodes(fullSize(grey, width, height), AS_DELIVERED, expected);
  // zxing reads the layers below the first from it, as from the file; only the full size is left.
  return (
    (await decodes(layer, AS_DELIVERED, expected)) ||
    decodes(fullSize(grey, width, height), { ...AS_DELIVERED, tryDownscale: false }, expected)
  );
}

/**
 * Whether zbar reads the export, from `far` (its grey reduced as a phone sees it from afar, inverted already
 * when the code is light on dark) and at its own size (`native`, its grey of the delivered image; null when
 * `far` stands for it): `reduced` when it reads both, else null. zbar has no pyramid: a reader of the file
 * reads it whole, and on anti-aliased shapes zbar's verdict at a reduction differs from its verdict at full
 * size too often for any reduction to stand in for it (docs/design-decisions.md), so those are read at full size,
 * every row and column. zbar's verdict on a marginal styled code also turns on a grey level, so it must read
 * the code from afar as well: a code it reads at both sizes has a margin (measured: no such code failed an
 * independent read of the file). A flat raster's reduction averages exact module blocks, and there the two
 * verdicts agreed on every code measured: it is read from afar alone, as zxing reads it; so is a reduction
 * by 1, the image itself (planReads, zbarNative). The reduction, a few percent of the pixels, is read first,
 * so a code zbar misses costs little.
 */
export async function zbarDecodedAt(
  far: GreyImage,
  native: GreyPixels | null,
  lightOnDark: boolean,
  expected: Uint8Array,
): Promise<DecodedAt> {
  if (!(await zbarReads({ width: far.width, height: far.height, pixels: pixelsOf(far) }, expected))) return null;
  if (!native) return 'reduced';
  return (await zbarReads(native, expected, lightOnDark)) ? 'reduced' : null;
}
