import { eccHFor } from '../design/ecc-budget.js';
import { ApiError, contentTooLong } from '../errors.js';
import type { Correction, RenderAssets, RenderConfig } from '../model/render-config.js';
import { LIMITS } from '../model/limits.js';
import { pixelWidth } from '../model/print-size.js';
import { measure } from '../qr/encode.js';
import { QR_DEFAULTS } from './qr-config.js';

/** A validated QrConfig body (the schema has checked every field's type and bounds). */
export type QrConfigBody = Partial<RenderConfig> & {
  content: string;
  responseType?: 'base64' | 'binary';
  logoUrl?: string;
  backgroundImageUrl?: string;
};

export interface PreparedRender {
  config: RenderConfig;
  corrections: Correction[];
  warnings: string[];
}

/**
 * Applies defaults and the rules that follow from the request as a whole: a logo needs ECC H (raised, and
 * reported as a correction), and a logo above the soft cap (25 %) is refused with an explicit lower ECC
 * and drawn at the cap otherwise. A centre-text band needs H too, but only if anything of its text can be
 * drawn, which only the fonts know: the worker decides that (render/guarantee.ts, eccForBand).
 */
export function prepareRender(body: QrConfigBody, assets: RenderAssets): PreparedRender {
  const corrections: Correction[] = [];
  const hasLogo = assets.logo !== undefined || body.logoUrl !== undefined;
  const config: RenderConfig = {
    ...QR_DEFAULTS,
    content: body.content,
    ...pick(body),
  };
  if (
    hasLogo &&
    config.logoSizePercent > LIMITS.logoSizeSoftCapPercent &&
    body.eccLevel !== undefined &&
    body.eccLevel !== 'H'
  ) {
    throw new ApiError('LOGO_TOO_LARGE', {
      message: `logoSizePercent ${config.logoSizePercent} needs eccLevel H (got ${body.eccLevel}).`,
      field: 'logoSizePercent',
    });
  }
  if (body.printSize) config.outputWidth = printedWidth(body);
  if (config.colorSpace === 'cmyk' && config.fileFormat !== 'pdf' && config.fileFormat !== 'eps')
    throw new ApiError('INVALID_FIELD_VALUE', {
      message: `colorSpace cmyk is for the print formats, pdf and eps; ${config.fileFormat} is always RGB.`,
      field: 'colorSpace',
    });
  const raise = hasLogo ? eccHFor(config.eccLevel, 'a logo') : null;
  if (raise) {
    corrections.push(raise);
    config.eccLevel = 'H';
  }
  if (hasLogo && config.logoSizePercent > LIMITS.logoSizeSoftCapPercent) {
    corrections.push({
      field: 'logoSizePercent',
      from: config.logoSizePercent,
      to: LIMITS.logoSizeSoftCapPercent,
      reason: `a logo covers at most ${LIMITS.logoSizeSoftCapPercent} % of the code width`,
    });
    config.logoSizePercent = LIMITS.logoSizeSoftCapPercent;
  }
  // Cheap on the main thread (about a microsecond), so an impossible payload never takes a pool slot (but
  // for one that fits only below the H a drawn centre text raises it to, which the worker's encoder refuses
  // at once).
  const { bitsNeeded, bitsAvailable } = measure(config.content, config.eccLevel);
  if (bitsNeeded > bitsAvailable) {
    throw contentTooLong(bitsNeeded, bitsAvailable, config.eccLevel);
  }
  return { config, corrections, warnings: [] };
}

/**
 * The pixel width a printSize makes. It sets the size alone: outputWidth, outputHeight or pixelsPerModule
 * beside it would contradict it.
 */
function printedWidth(body: QrConfigBody): number {
  const print = body.printSize!;
  const other = (['outputWidth', 'outputHeight', 'pixelsPerModule'] as const).find((f) => body[f] !== undefined);
  if (other)
    throw new ApiError('INVALID_FIELD_VALUE', {
      message: `printSize sets the image's size; leave out ${other}.`,
      field: other,
    });
  const px = pixelWidth(print);
  if (px < LIMITS.outputPx.min || px > LIMITS.outputPx.max)
    throw new ApiError('VALUE_OUT_OF_RANGE', {
      message: `${print.width} ${print.unit} at ${print.dpi} dpi is ${px} px; printSize must make ${LIMITS.outputPx.min}–${LIMITS.outputPx.max} px (lower the dpi for a large print).`,
      field: 'printSize.width',
    });
  return px;
}

/** Fields that stay on the main thread: how to answer, and image sources (their bytes travel as assets). */
const MAIN_THREAD_ONLY = new Set([
  'responseType',
  'logoUrl',
  'logoBase64',
  'backgroundImageUrl',
  'backgroundImageBase64',
]);

/** The RenderConfig fields present in the body. */
const pick = (body: QrConfigBody): Partial<RenderConfig> =>
  Object.fromEntries(Object.entries(body).filter(([k]) => !MAIN_THREAD_ONLY.has(k)));
