import { ApiError } from '../errors.js';
import { LIMITS } from '../schema/qr-config.js';

/** Pixels reserved on each side of the canvas for a frame or caption; the code fits in what remains. */
export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}
export const NO_INSETS: Insets = { top: 0, right: 0, bottom: 0, left: 0 };

export interface LayoutInput {
  outputWidth?: number;
  outputHeight?: number;
  pixelsPerModule?: number;
  quietZone: number;
}

/**
 * Where the symbol sits on the canvas, in whole pixels. Modules are always a whole number of pixels wide,
 * so edges are crisp (a two-colour code stays two colours, the PNG stays 1-bit, and a phone sees sharp
 * modules); the pixels left over are added to the quiet zone, split evenly.
 */
export interface Layout {
  /** Modules per side of the symbol, quiet zone excluded. */
  size: number;
  quietZone: number;
  modulePx: number;
  width: number;
  height: number;
  /** Pixel position of the symbol's top-left module. */
  originX: number;
  originY: number;
}

/**
 * How the size fields combine:
 * - width = outputWidth, else modules × pixelsPerModule when only that is given, else 800;
 * - height = outputHeight, else the width;
 * - module size = pixelsPerModule, else the largest whole number of pixels that fits the smaller side of
 *   the area left after `insets` (a frame's bands), where the symbol counts its quiet zone (`quietZone`
 *   modules, at least 4, on each side).
 */
export function computeLayout(
  size: number,
  input: LayoutInput,
  insets: (width: number, height: number) => Insets = () => NO_INSETS,
): Layout {
  const span = size + 2 * input.quietZone;
  const ppm = input.pixelsPerModule;
  const width = input.outputWidth ?? (ppm ? span * ppm : 800);
  const height = input.outputHeight ?? width;
  const inset = insets(width, height);
  const areaW = width - inset.left - inset.right;
  const areaH = height - inset.top - inset.bottom;
  const side = Math.min(areaW, areaH);
  if (width > LIMITS.outputPx.max || height > LIMITS.outputPx.max) {
    throw new ApiError('VALUE_OUT_OF_RANGE', {
      message: `${span} modules at ${ppm} px each make a ${width} px image; the maximum is ${LIMITS.outputPx.max} px.`,
      field: 'pixelsPerModule',
    });
  }
  const fit = Math.floor(side / span);
  if (fit < 1) {
    const field = input.outputWidth === undefined && input.outputHeight !== undefined ? 'outputHeight' : 'outputWidth';
    throw new ApiError('VALUE_OUT_OF_RANGE', {
      message: `This content needs ${span} modules including the quiet zone, so at least ${span} px per side.`,
      field,
    });
  }
  if (ppm !== undefined && ppm > fit) {
    throw new ApiError('VALUE_OUT_OF_RANGE', {
      message: `${span} modules at ${ppm} px do not fit in ${side} px; at most ${fit} px per module.`,
      field: 'pixelsPerModule',
    });
  }
  const modulePx = ppm ?? fit;
  return {
    size,
    quietZone: input.quietZone,
    modulePx,
    width,
    height,
    originX: inset.left + Math.floor((areaW - size * modulePx) / 2),
    originY: inset.top + Math.floor((areaH - size * modulePx) / 2),
  };
}
